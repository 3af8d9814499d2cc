/**
 * Invoices first seen after the baseline (a new transaction on a watched policy, a watched id the
 * service did not find at first): one already at a value people act on is reported once with
 * `previous: null` and `first_seen: true`; at any other value it is only recorded, as before.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { forgetRateLimits } from '../../../nodes/shared/rateLimit';
import { useNockSuite } from '../../helpers/nockSuite';
import { activeTrigger, API, document, failure, filing, invoice, rateHeaders, serveInvoice, servePolicy } from './helpers';

const fake = useNockSuite();

const POLICY = 'POL-9';
const row = (id: number, over: IDataObject = {}) => invoice(id, { policy_number: POLICY, ...over });
const brief = (events: IDataObject[]) => events.map((e) => [e.event, e.invoice_id, e.previous, e.current, e.first_seen ?? false]);

/** A policy trigger past its baseline (one transaction, 1001, not yet sent). */
async function watchingPolicy(params: Parameters<typeof activeTrigger>[0] = {}) {
	const trigger = activeTrigger({ policyNumbers: POLICY, ...params });
	servePolicy(POLICY, [row(1001)]);
	expect(await trigger.poll()).toEqual([]);
	return trigger;
}

describe('a transaction that appears on a watched policy', () => {
	it('already rejected: its filing state once, previous null and first_seen, beside the new transaction', async () => {
		const trigger = await watchingPolicy();
		const rejected = row(1002, { status: 'sent', filing: filing('rejected', { message: 'Missing SL-2' }) });
		servePolicy(POLICY, [row(1001), rejected]);
		const events = await trigger.poll();
		expect(brief(events)).toEqual([
			['new_transaction', 1002, null, 'sent', false],
			['filing_state_changed', 1002, null, 'rejected', true],
		]);
		expect(events[1]).toEqual({
			event: 'filing_state_changed',
			event_id: '1002:filing:rejected:0',
			invoice_id: 1002,
			policy_number: POLICY,
			previous: null,
			current: 'rejected',
			detected_at: '2026-11-22T12:00:00.000Z',
			message: 'Missing SL-2',
			confirmation_number: null,
			// What happened and what to do, in words (shared/whatToDo.ts).
			summary: 'State filing: Invoice 1002 (policy POL-9) was REJECTED by the state. Reason: Missing SL-2.',
			next_step:
				'Correct what the reason names, then send the invoice again from n8n with Surplus Lines Invoice → Update (Invoice ID 1002); a form the state asks for goes on with Surplus Lines Document → Attach. Reminders come until it is settled.',
			needs_action: true,
			invoice: rejected,
			first_seen: true,
		});
		servePolicy(POLICY, [row(1001), rejected]);
		expect(await trigger.poll()).toEqual([]);
	});

	it('already settled: status and filing state each once (no new-transaction event when it is not chosen)', async () => {
		const trigger = await watchingPolicy({ events: ['invoiceStatus', 'filingState'] });
		const settled = row(1002, { status: 'success', filing: filing('confirmed', { confirmation_number: 'TX-1' }) });
		servePolicy(POLICY, [row(1001), settled]);
		const events = await trigger.poll();
		expect(brief(events)).toEqual([
			['invoice_status_changed', 1002, null, 'success', true],
			['filing_state_changed', 1002, null, 'confirmed', true],
		]);
		expect(events[1].confirmation_number).toBe('TX-1');
		servePolicy(POLICY, [row(1001), settled]);
		expect(await trigger.poll()).toEqual([]);
	});

	it('a document already failed or fetched counts too; one still pending does not', async () => {
		const trigger = await watchingPolicy({ events: ['documentFetchStatus'] });
		const docs = [document(5001, 'failed'), document(5002, 'pending'), document(5003, 'fetched')];
		servePolicy(POLICY, [row(1001), row(1002, { documents: docs })]);
		const events = await trigger.poll();
		expect(events.map((e) => [e.document_id, e.previous, e.current, e.first_seen])).toEqual([
			[5001, null, 'failed', true],
			[5003, null, 'fetched', true],
		]);
	});

	it('first seen while still moving: recorded only; its later change comes out once, as a change', async () => {
		const trigger = await watchingPolicy({ events: ['invoiceStatus', 'filingState'] });
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('accepted') })]);
		expect(await trigger.poll()).toEqual([]);
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('rejected') })]);
		expect(brief(await trigger.poll())).toEqual([['filing_state_changed', 1002, 'accepted', 'rejected', false]]);
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('rejected') })]);
		expect(await trigger.poll()).toEqual([]);
	});

	it('the filters hold as for a change: only the chosen kinds and values', async () => {
		const trigger = await watchingPolicy({ events: ['filingState'], filingValues: ['rejected', 'refused'] });
		servePolicy(POLICY, [row(1001), row(1002, { status: 'error', filing: filing('refused') }), row(1003, { status: 'success', filing: filing('confirmed') })]);
		expect(brief(await trigger.poll())).toEqual([['filing_state_changed', 1002, null, 'refused', true]]);

		const statuses = await watchingPolicy({ events: ['invoiceStatus'], statusValues: ['error'] });
		servePolicy(POLICY, [row(1001), row(1002, { status: 'success' }), row(1003, { status: 'error', filing: filing('rejected') })]);
		expect(brief(await statuses.poll())).toEqual([['invoice_status_changed', 1003, null, 'error', true]]);
	});

	it('"Emit Current State First" does not widen it: a new transaction still moving gives no value event', async () => {
		const trigger = activeTrigger({ policyNumbers: POLICY, events: ['invoiceStatus', 'filingState'], options: { emitCurrentState: true } });
		servePolicy(POLICY, [row(1001)]);
		expect(brief(await trigger.poll())).toEqual([
			['invoice_status_changed', 1001, null, 'new', false],
			['filing_state_changed', 1001, null, 'not_sent', false],
		]);
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('sent') })]);
		expect(await trigger.poll()).toEqual([]);
	});
});

describe('invoices there at the baseline keep the old rule', () => {
	it('a policy’s transactions already settled or rejected at the first listing: recorded, nothing emitted', async () => {
		const trigger = activeTrigger({ policyNumbers: POLICY });
		const rows = [row(1001, { status: 'success', filing: filing('confirmed') }), row(1002, { status: 'sent', filing: filing('rejected') })];
		servePolicy(POLICY, rows);
		expect(await trigger.poll()).toEqual([]);
		servePolicy(POLICY, rows);
		expect(await trigger.poll()).toEqual([]);
	});

	it('a listing whose first reading broke off: its later pages are still the baseline', async () => {
		const trigger = activeTrigger({ policyNumbers: POLICY });
		const rows = Array.from({ length: 101 }, (_, i) => row(3000 + i, { status: 'error' }));
		servePolicy(POLICY, rows.slice(0, 100), 1, 101);
		nock(API).get('/invoices').query({ policy_number: POLICY, page: '2', per_page: '100' }).times(3).reply(500, failure('INTERNAL_ERROR', 'boom'), rateHeaders());
		expect(await trigger.poll()).toEqual([]);
		fake().advance(5 * 60_000);
		servePolicy(POLICY, rows.slice(0, 100), 1, 101);
		servePolicy(POLICY, rows.slice(100), 2, 101);
		expect(await trigger.poll()).toEqual([]);
	});
});

describe('a watched invoice id the service did not find at first', () => {
	it('found later already rejected: one first-seen event; found still moving: recorded only', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001, 1005, 1006', events: ['invoiceStatus', 'filingState'] });
		// Not found by two polls in a row (while 1001 is found: the key sees its account) counts as settled.
		for (let poll = 0; poll < 2; poll++) {
			serveInvoice(invoice(1001, { status: 'sent', filing: filing('sent') }));
			for (const id of [1005, 1006]) nock(API).get(`/invoices/${id}`).reply(404, failure('NOT_FOUND', 'Invoice not found'), rateHeaders());
			expect(await trigger.poll()).toEqual([]);
			fake().advance(5 * 60_000);
		}
		// Settled items are looked for again once a day.
		fake().advance(24 * 60 * 60_000);
		serveInvoice(invoice(1001, { status: 'sent', filing: filing('sent') }));
		serveInvoice(invoice(1005, { status: 'sent', filing: filing('rejected') }));
		serveInvoice(invoice(1006, { status: 'sent', filing: filing('sent') }));
		expect(brief(await trigger.poll())).toEqual([['filing_state_changed', 1005, null, 'rejected', true]]);
		fake().advance(5 * 60_000);
		serveInvoice(invoice(1001, { status: 'sent', filing: filing('sent') }));
		serveInvoice(invoice(1005, { status: 'sent', filing: filing('rejected') }));
		serveInvoice(invoice(1006, { status: 'success', filing: filing('sent') }));
		expect(brief(await trigger.poll())).toEqual([['invoice_status_changed', 1006, 'sent', 'success', false]]);
	});
});

describe('once each across restarts of n8n', () => {
	it('first seen in a quiet poll n8n did not write, settled by the restart: one event after it, none again', async () => {
		const trigger = await watchingPolicy({ events: ['filingState'] });
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('sent') })]);
		expect(await trigger.poll()).toEqual([]); // recorded, not written (n8n writes nothing after a quiet poll)
		forgetRateLimits();
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('rejected') })]);
		expect(brief(await trigger.restart())).toEqual([['filing_state_changed', 1002, null, 'rejected', true]]);
		forgetRateLimits();
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('rejected') })]);
		expect(await trigger.restart()).toEqual([]);
		servePolicy(POLICY, [row(1001), row(1002, { status: 'sent', filing: filing('rejected') })]);
		expect(await trigger.poll()).toEqual([]);
	});
});
