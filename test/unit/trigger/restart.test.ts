/**
 * The trigger's state in n8n's database, as n8n 2.8.4 writes it (test/harness/engine.ts
 * `activePoller`): only when n8n's Proxy saw a change, after the activation poll and after a poll
 * that emits. Each path that changes the state is checked against what a restart would read.
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetRateLimits } from '../../../nodes/shared/rateLimit';
import { useNockSuite } from '../../helpers/nockSuite';
import { activeTrigger, filing, invoice, serveInvoice, servePolicy } from './helpers';

const fake = useNockSuite();

interface Saved {
	seq: number;
	invoices: Record<string, { s: string; f?: string; c: number }>;
	units: Record<string, { known?: number[] }>;
}
const stateOf = (data: IDataObject) => data.trigger as Saved;
const changes = (events: IDataObject[]) => events.map((e) => [e.event, e.invoice_id, e.previous, e.current]);

/** n8n stops: nothing of the node's module memory survives but what n8n wrote. */
async function restart(trigger: ReturnType<typeof activeTrigger>) {
	forgetRateLimits();
	return await trigger.restart();
}

describe('what n8n writes to its database', () => {
	it('the first activation: after each poll that emits, the database holds the state that poll left', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'] });
		serveInvoice(invoice(1001, { status: 'new' }));
		await trigger.poll();
		expect(stateOf(trigger.staticData).invoices['1001'].s).toBe('new'); // written after the activation poll

		for (const [step, status] of ['sent', 'success', 'error', 'resubmitted'].entries()) {
			fake().advance(5 * 60_000);
			serveInvoice(invoice(1001, { status }));
			expect(await trigger.poll()).toHaveLength(1);
			expect(stateOf(trigger.staticData).invoices['1001']).toMatchObject({ s: status, c: step + 1 });
			expect(trigger.staticData).toEqual(trigger.poller.live);
		}
		expect(trigger.poller.writes).toBe(5);
	});

	it('after a restart: new items (a transaction that appeared on a policy) are written with the poll that emits their change', async () => {
		const trigger = activeTrigger({ policyNumbers: 'POL-1', events: ['invoiceStatus', 'newTransaction'] });
		servePolicy('POL-1', [invoice(1001)]);
		await trigger.poll();
		servePolicy('POL-1', [invoice(1001)]);
		await restart(trigger);
		servePolicy('POL-1', [invoice(1001), invoice(1002)]);
		expect(changes(await trigger.poll())).toEqual([['new_transaction', 1002, null, 'new']]);
		servePolicy('POL-1', [invoice(1001), invoice(1002, { status: 'sent' })]);
		expect(changes(await trigger.poll())).toEqual([['invoice_status_changed', 1002, 'new', 'sent']]);
		expect(stateOf(trigger.staticData).invoices['1002'].s).toBe('sent');
		expect(stateOf(trigger.staticData).units['p:POL-1'].known).toEqual([1001, 1002]);
	});

	it('a manual run ("Fetch Test Event") changes nothing n8n would write', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001' });
		serveInvoice(invoice(1001));
		await trigger.poll();
		const before = trigger.staticData;
		serveInvoice(invoice(1001, { status: 'sent' }));
		const { emitted, changed } = await trigger.poller.manual();
		expect(emitted?.[0]).toHaveLength(2); // the sample: status and filing state
		expect(changed).toBe(false);
		expect(trigger.staticData).toEqual(before);
	});

	it('pruning: an item taken off the list is gone from the state written at the next activation', async () => {
		const both = activeTrigger({ invoiceIds: '1001, 1002' });
		[1001, 1002].forEach((id) => serveInvoice(invoice(id)));
		await both.poll();
		expect(Object.keys(stateOf(both.staticData).invoices)).toEqual(['1001', '1002']);

		// The user edits the list and publishes: n8n activates the new version on the same static data.
		const one = activeTrigger({ invoiceIds: '1001' }, both.staticData);
		serveInvoice(invoice(1001));
		await one.poll();
		expect(Object.keys(stateOf(one.staticData).invoices)).toEqual(['1001']);
		expect(Object.keys(stateOf(one.staticData).units)).toEqual(['i:1001']);
	});
});

describe('each change once across restarts of n8n', () => {
	it('changes before, during and after a restart come out once each', async () => {
		const trigger = activeTrigger({ policyNumbers: 'POL-1', events: ['invoiceStatus', 'filingState', 'newTransaction'] });
		servePolicy('POL-1', [invoice(1001)]);
		expect(await trigger.poll()).toEqual([]); // activation: the baseline

		servePolicy('POL-1', [invoice(1001, { status: 'sent', filing: filing('sent') })]);
		expect(changes(await trigger.poll())).toEqual([
			['invoice_status_changed', 1001, 'new', 'sent'],
			['filing_state_changed', 1001, 'not_sent', 'sent'],
		]);
		servePolicy('POL-1', [invoice(1001, { status: 'sent', filing: filing('sent') })]);
		expect(await trigger.poll()).toEqual([]);

		// Stopped; while n8n is down invoice 1001 succeeds and an endorsement is filed.
		servePolicy('POL-1', [invoice(1001, { status: 'success', filing: filing('sent') }), invoice(1002)]);
		expect(changes(await restart(trigger))).toEqual([
			['invoice_status_changed', 1001, 'sent', 'success'],
			['new_transaction', 1002, null, 'new'],
		]);
		servePolicy('POL-1', [invoice(1001, { status: 'success', filing: filing('confirmed') }), invoice(1002)]);
		expect(changes(await trigger.poll())).toEqual([['filing_state_changed', 1001, 'sent', 'confirmed']]);

		// Restarted again with nothing new: nothing comes out again.
		servePolicy('POL-1', [invoice(1001, { status: 'success', filing: filing('confirmed') }), invoice(1002)]);
		expect(await restart(trigger)).toEqual([]);
		servePolicy('POL-1', [invoice(1001, { status: 'success', filing: filing('confirmed') }), invoice(1002, { status: 'sent' })]);
		expect(changes(await trigger.poll())).toEqual([['invoice_status_changed', 1002, 'new', 'sent']]);
	});

	it('polls that emit nothing are written with the next poll that emits (n8n writes nothing after a quiet poll)', async () => {
		// 3 invoices, 1 call a poll (1000 × 2% ÷ 12): the first reading of 1002 and 1003 comes in quiet polls.
		const trigger = activeTrigger({ invoiceIds: '1001,1002,1003', events: ['invoiceStatus'], options: { budgetShare: 2 } });
		for (const id of [1001, 1002, 1003]) {
			serveInvoice(invoice(id));
			expect(await trigger.poll()).toEqual([]);
		}
		expect(Object.keys(stateOf(trigger.staticData).invoices)).toEqual(['1001']); // n8n wrote the activation only
		serveInvoice(invoice(1001, { status: 'sent' }));
		expect(await trigger.poll()).toHaveLength(1);
		expect(Object.keys(stateOf(trigger.staticData).invoices)).toEqual(['1001', '1002', '1003']);

		// A change to 1003 while n8n is down comes out once after the restart, when its turn comes.
		serveInvoice(invoice(1002));
		expect(await restart(trigger)).toEqual([]);
		serveInvoice(invoice(1003, { status: 'error' }));
		expect(changes(await trigger.poll())).toEqual([['invoice_status_changed', 1003, 'new', 'error']]);
	});

	it('a restart before any poll emits: items first read since are read as new again, nothing comes out twice', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001,1002', events: ['invoiceStatus'], options: { budgetShare: 2 } });
		serveInvoice(invoice(1001));
		await trigger.poll();
		serveInvoice(invoice(1002, { status: 'sent' }));
		await trigger.poll(); // 1002's first reading: not written
		serveInvoice(invoice(1002, { status: 'success' }));
		expect(await restart(trigger)).toEqual([]); // its first reading again, at the value it has now
		serveInvoice(invoice(1001, { status: 'sent' }));
		expect(changes(await trigger.poll())).toEqual([['invoice_status_changed', 1001, 'new', 'sent']]);
	});
});
