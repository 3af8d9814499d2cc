/**
 * Dates and times in one convention invoice dates use n8n's date picker and go
 * to the service as YYYY-MM-DD; the service's US Central times get a UTC ISO twin.
 */
import { DateTime } from 'luxon';
import nock from 'nock';
import type { INodeProperties } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { documentJson } from '../../nodes/shared/links';
import { dateOnly, serviceTimeToUtc, withUtcTimes } from '../../nodes/shared/dates';
import { isValidDate } from '../../nodes/shared/rules';
import { asSent, API, envelope, invoiceFor, run, setupSuite } from './invoice/helpers';

setupSuite();

describe('dates to the service', () => {
	it.each([
		['2026-06-01T00:00:00', '2026-06-01'],
		['2026-06-01', '2026-06-01'],
		[' 2026-06-01 ', '2026-06-01'],
		[DateTime.fromISO('2026-06-01T23:30:00', { zone: 'America/New_York' }), '2026-06-01'],
		[new Date('2026-06-01T12:00:00Z'), '2026-06-01'],
		['06/01/2026', '06/01/2026'],
		['', undefined],
		[null, undefined],
	])('%p → %p', (value, expected) => {
		expect(dateOnly(value)).toBe(expected);
	});

	it('every invoice date in the panel is n8n’s date picker', () => {
		const dates = new SurplusLinesInvoice().description.properties
			.flatMap((p): INodeProperties[] => [p, ...((p.options ?? []) as INodeProperties[])])
			// A dropdown's choices ({ name, value }) have no type: only fields are pickers.
			.filter((p) => 'type' in p && /Date$|^period(From|To)$/.test(p.name));
		expect(new Set(dates.map((p) => p.name))).toEqual(
			new Set(['effectiveDate', 'expirationDate', 'invoiceDate', 'transactionEffectiveDate', 'periodFrom', 'periodTo']),
		);
		expect(dates.every((p) => p.type === 'dateTime')).toBe(true);
	});

	it('a Fields-mode create sends the picker’s values (and a plain string) as YYYY-MM-DD', async () => {
		const sent = {
			policy_number: 'POL-D1',
			insured_name: 'Acme',
			state_code: 'TX',
			net_premium: 1000,
			effective_date: '2026-06-01',
			expiration_date: '2027-06-01',
			invoice_date: '2026-06-05',
			fees: [{ type: 'sl_tax', amount: 48.5 }],
			type_code: 'NEW',
		};
		const scope = nock(API).post('/invoices', asSent(sent)).reply(201, envelope(invoiceFor(sent, 91)));
		const { error } = await run({
			operation: 'create',
			inputMode: 'fields',
			idempotency: 'off',
			policyNumber: 'POL-D1',
			insuredName: 'Acme',
			stateCode: 'TX',
			netPremium: 1000,
			effectiveDate: '2026-06-01T00:00:00',
			expirationDate: '2027-06-01',
			additionalFields: { invoiceDate: '2026-06-05T00:00:00' },
			fees: { fee: [{ type: 'sl_tax', amount: 48.5 }] },
		});
		expect(error).toBeUndefined();
		scope.done();
	});
});

describe('times from the service', () => {
	it('reads US Central (daylight saving included) as UTC', () => {
		expect(serviceTimeToUtc('2026-01-15 09:30:00')).toBe('2026-01-15T15:30:00.000Z');
		expect(serviceTimeToUtc('2026-07-15 09:30:00')).toBe('2026-07-15T14:30:00.000Z');
		expect(serviceTimeToUtc('2026-07-15T09:30:00Z')).toBeUndefined();
		expect(serviceTimeToUtc(undefined)).toBeUndefined();
	});

	it('gives the same answers however often and however many times are converted (they are remembered)', () => {
		// More distinct times than are remembered at once, then the first ones again.
		const times = Array.from({ length: 1500 }, (_, n) => DateTime.fromISO('2026-03-07T00:00:00', { zone: 'UTC' }).plus({ minutes: 7 * n }));
		const texts = times.map((t) => t.toFormat('yyyy-MM-dd HH:mm:ss'));
		const expected = texts.map((text) => DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone: 'America/Chicago' }).toUTC().toISO());
		for (let round = 0; round < 2; round++) expect(texts.map((text) => serviceTimeToUtc(text))).toEqual(expected);
		expect(serviceTimeToUtc(' 2026-01-15 09:30:00 ')).toBe('2026-01-15T15:30:00.000Z');
		expect(serviceTimeToUtc('2026-13-45 09:30:00')).toBeUndefined();
		expect(serviceTimeToUtc('2026-13-45 09:30:00')).toBeUndefined();
	});

	it('adds created_utc and added_utc beside the originals, in the invoice and its documents', () => {
		const invoice = { id: 1, created: '2026-11-22 06:00:00', documents: [{ id: 5, added: '2026-11-22 07:15:00' }] };
		expect(withUtcTimes(invoice)).toEqual({
			id: 1,
			created: '2026-11-22 06:00:00',
			created_utc: '2026-11-22T12:00:00.000Z',
			documents: [{ id: 5, added: '2026-11-22 07:15:00', added_utc: '2026-11-22T13:15:00.000Z' }],
		});
		expect(invoice).not.toHaveProperty('created_utc');
	});

	it('Document output has added_utc in the same convention as url_expires_at', () => {
		const doc = documentJson({ id: 5, added: '2026-03-08 01:59:59', url: 'https://files.example.com/a', url_expires_in_seconds: 3600 });
		expect(doc.added_utc).toBe('2026-03-08T07:59:59.000Z');
		expect(String(doc.url_expires_at)).toMatch(/Z$/);
	});

	it('Invoice Get output has created_utc', async () => {
		nock(API).get('/invoices/7').reply(200, envelope(invoiceFor({ policy_number: 'P', state_code: 'TX' }, 7, { created: '2026-11-22 06:00:00' })));
		const { output } = await run({ operation: 'get', invoiceId: { __rl: true, mode: 'id', value: '7' } });
		expect(output![0].json).toMatchObject({ created: '2026-11-22 06:00:00', created_utc: '2026-11-22T12:00:00.000Z' });
	});
});

describe('isValidDate: a calendar date written YYYY-MM-DD', () => {
	it('says what the calendar says, for every day of common, leap and century years and the days around them', () => {
		const calendar = (text: string) => {
			const date = new Date(`${text}T00:00:00Z`);
			return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
		};
		const pad = (n: number, width: number) => String(n).padStart(width, '0');
		for (const year of [0, 1900, 2000, 2023, 2024, 2025, 2100, 2400, 9999]) {
			for (let month = 0; month <= 13; month++) {
				for (let day = 0; day <= 32; day++) {
					const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
					expect([text, isValidDate(text)]).toEqual([text, calendar(text)]);
				}
			}
		}
		for (const text of ['2026-1-01', '2026-01-01T00:00:00', ' 2026-01-01', '20260101', '', '2026-02-3O']) {
			expect(isValidDate(text)).toBe(false);
		}
		expect(isValidDate(20260101)).toBe(false);
	});
});
