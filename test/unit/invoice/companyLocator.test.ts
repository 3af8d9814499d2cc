/**
 * The insurer's Company as a resource locator in Fields mode: its value (from the list, typed, an
 * expression, or the plain number of an older workflow) is sent as an integer company_id; an empty
 * one is left out and the local rule names the field. The list is the shared searchCompanies.
 */
import nock from 'nock';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { loadOptions } from '../../harness/engine';
import { asSent, API, BASE, KEYS, envelope, invoiceFor, run, setupSuite } from './helpers';

setupSuite();

const REQUIRED = {
	policyNumber: 'POL-7',
	insuredName: 'Acme',
	stateCode: 'TX',
	netPremium: 1000,
	effectiveDate: '2026-01-01',
	expirationDate: '2027-01-01',
};
const sentRequired = {
	policy_number: 'POL-7',
	insured_name: 'Acme',
	state_code: 'TX',
	net_premium: 1000,
	effective_date: '2026-01-01',
	expiration_date: '2027-01-01',
	type_code: 'NEW',
};
const locator = (mode: 'list' | 'id', value: string) => ({ __rl: true, mode, value });
const insurer = (companyId: unknown, share: IDataObject = { shareBy: 'percent', percent: 100 }) => ({
	identifyBy: 'companyId',
	companyId,
	...share,
});
const fields = (extra: IDataObject) => ({ operation: 'create', inputMode: 'fields', idempotency: 'off', ...REQUIRED, ...extra });

describe('Company locator (Fields mode)', () => {
	it('sends the chosen company as an integer company_id, on insurers and in line-of-business groups', async () => {
		const expected = {
			...sentRequired,
			insurers: [
				{ company_id: 303, percent: 60 },
				{ company_id: 301, percent: 40 },
				{ lob_id: 1, amount: 1000, companies: [{ company_id: 302, amount: 1000 }] },
			],
		};
		const scope = nock(API).post('/invoices', asSent(expected)).reply(201, envelope(invoiceFor(expected, 71)));
		const { output, error } = await run(
			fields({
				insurers: { insurer: [insurer(locator('list', '303'), { shareBy: 'percent', percent: 60 }), insurer(locator('id', '301'), { shareBy: 'percent', percent: 40 })] },
				insurerGroups: { group: [{ lobId: 1, amount: 1000, companies: { company: [insurer(locator('id', '302'), { shareBy: 'amount', amount: 1000 })] } }] },
			}),
		);
		expect(error).toBeUndefined();
		expect(output![0].json.id).toBe(71);
		scope.done();
	});

	it('takes an expression in the locator (spreadsheet rows) and the plain number of an older workflow', async () => {
		const expected = { ...sentRequired, insurers: [{ company_id: 304, percent: 50 }, { company_id: 305, percent: 50 }] };
		const scope = nock(API).post('/invoices', asSent(expected)).reply(201, envelope(invoiceFor(expected, 72)));
		const { error } = await run(
			fields({
				insurers: {
					insurer: [insurer(locator('id', '={{ $json.company }}'), { shareBy: 'percent', percent: 50 }), insurer(305, { shareBy: 'percent', percent: 50 })],
				},
			}),
			{ items: [{ company: 304 }] },
		);
		expect(error).toBeUndefined();
		scope.done();
	});

	it('an empty locator is not sent; the local rule names insurers[0].company_id and nothing is called', async () => {
		const trap = nock(API).post(/.*/).reply(201, envelope({}));
		const { output } = await run(fields({ insurers: { insurer: [insurer(locator('list', ''))] } }), { continueOnFail: true });
		expect(output![0].json).toMatchObject({ code: 'INVALID_INPUT', fields: ['insurers[0].company_id is required and must be an integer'] });
		expect(trap.isDone()).toBe(false);
	});

	it('an empty locator next to a NAIC-identified company: only the empty one is named', async () => {
		const trap = nock(API).post(/.*/).reply(201, envelope({}));
		const { output } = await run(
			fields({
				insurerGroups: {
					group: [{ lobId: 1, amount: 1000, companies: { company: [{ identifyBy: 'naic', naic: '90001', shareBy: 'whole' }, insurer(locator('id', ' '))] } }],
				},
			}),
			{ continueOnFail: true },
		);
		expect(output![0].json.fields).toEqual(['insurers[0].companies[1].company_id is required and must be an integer']);
		expect(trap.isDone()).toBe(false);
	});

	it('an ID that is not a whole number: n8n refuses a typed one (the mode’s regex), the local rule one from an expression', async () => {
		const trap = nock(API).post(/.*/).reply(201, envelope({}));
		await expect(run(fields({ insurers: { insurer: [insurer(locator('id', 'Gulf Coast'))] } }))).rejects.toThrow(
			'The workflow has issues',
		);
		const { output } = await run(fields({ insurers: { insurer: [insurer(locator('id', '={{ $json.company }}'))] } }), {
			items: [{ company: 'Gulf Coast' }],
			continueOnFail: true,
		});
		expect(output![0].json.fields).toEqual(['insurers[0].company_id: Must be an integer']);
		expect(trap.isDone()).toBe(false);
	});

	it('the list is the Invoice node’s searchCompanies: name or NAIC, id as the value; nothing asked for an empty filter', async () => {
		const scope = nock(API)
			.get('/companies/search')
			.query({ q: 'Gulf' })
			.reply(200, envelope({ companies: [{ id: 303, name: 'Gulf Coast Surplus Lines Insurance Company', naic: '90003' }, { id: 309, name: 'Gulf Mutual', naic: null }] }));
		const ask = (filter: string) =>
			loadOptions({
				node: new SurplusLinesInvoice(),
				parameters: { resource: 'invoice', operation: 'create' },
				credentials: { apiKey: KEYS.t2, baseUrl: BASE },
				kind: 'listSearch',
				method: 'searchCompanies',
				filter,
			});
		expect(await ask(' Gulf ')).toEqual({
			results: [
				{ name: 'Gulf Coast Surplus Lines Insurance Company (NAIC 90003)', value: '303' },
				{ name: 'Gulf Mutual', value: '309' },
			],
		});
		scope.done();
		expect(await ask('')).toEqual({ results: [] });
	});

	it('every Company field of the node is a locator backed by searchCompanies', () => {
		const found: INodeProperties[] = [];
		const walk = (props: unknown[]) =>
			props.forEach((p) => {
				const prop = p as INodeProperties & { values?: unknown[] };
				if (prop.name === 'companyId') found.push(prop);
				if (Array.isArray(prop.options)) walk(prop.options as unknown[]);
				if (Array.isArray(prop.values)) walk(prop.values);
			});
		walk(new SurplusLinesInvoice().description.properties);
		// Insurers and group companies, each in Create, Create Many, Preview and Update.
		expect(found.length).toBeGreaterThanOrEqual(8);
		for (const prop of found) {
			expect(prop.type).toBe('resourceLocator');
			expect(prop.modes!.map((m) => [m.name, m.typeOptions?.searchListMethod])).toEqual([['list', 'searchCompanies'], ['id', undefined]]);
		}
	});
});
