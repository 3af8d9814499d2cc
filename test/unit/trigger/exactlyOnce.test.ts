import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { forgetRateLimits } from '../../../nodes/shared/rateLimit';
import { useNockSuite } from '../../helpers/nockSuite';
import { API, activeTrigger, envelope, failure, invoice, rateHeaders, serveInvoice, servePolicy } from './helpers';

useNockSuite();

const statusOnly = { events: ['invoiceStatus'] };

/**
 * A reply the test releases (no real-time delay decides which of two overlapping polls is
 * answered first); `arrived` resolves once the request has reached the server.
 */
function heldReply(body: nock.Body) {
	let arrive!: () => void;
	let release!: () => void;
	const arrived = new Promise<void>((resolve) => (arrive = resolve));
	const released = new Promise<void>((resolve) => (release = resolve));
	const reply = (_uri: string, _body: nock.Body, callback: (error: Error | null, result: nock.ReplyFnResult) => void) => {
		arrive();
		void released.then(() => callback(null, [200, body, rateHeaders()]));
	};
	return { arrived, release, reply };
}

describe('each change is emitted once', () => {
	it('across two polls that read the same value', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', ...statusOnly });
		serveInvoice(invoice(1001, { status: 'sent' }));
		await trigger.poll();
		serveInvoice(invoice(1001, { status: 'success' }));
		expect(await trigger.poll()).toHaveLength(1);
		serveInvoice(invoice(1001, { status: 'success' }));
		expect(await trigger.poll()).toEqual([]);
	});

	it('across a restart: only the saved static data survives', async () => {
		const before = activeTrigger({ invoiceIds: '1001', ...statusOnly });
		serveInvoice(invoice(1001, { status: 'sent' }));
		await before.poll();
		serveInvoice(invoice(1001, { status: 'success' }));
		expect(await before.poll()).toHaveLength(1);

		// n8n stops: module memory is gone, the workflow's static data is read back from the database.
		forgetRateLimits();
		const saved = JSON.parse(JSON.stringify(before.staticData)) as IDataObject;
		const after = activeTrigger({ invoiceIds: '1001', ...statusOnly }, saved);
		serveInvoice(invoice(1001, { status: 'success' }));
		expect(await after.poll()).toEqual([]);
		// A change made while n8n was down is seen once after the restart.
		const down = activeTrigger({ invoiceIds: '1001', ...statusOnly }, JSON.parse(JSON.stringify(after.staticData)) as IDataObject);
		serveInvoice(invoice(1001, { status: 'error' }));
		expect((await down.poll()).map((e) => [e.previous, e.current])).toEqual([['success', 'error']]);
	});

	it('across a poll that fails half-way: what was read is emitted, the rest is read next time', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001 1002 1003', ...statusOnly });
		[1001, 1002, 1003].forEach((id) => serveInvoice(invoice(id, { status: 'sent' })));
		await trigger.poll();

		serveInvoice(invoice(1001, { status: 'success' }));
		const broken = nock(API).get('/invoices/1002').times(3).reply(500, failure('INTERNAL_ERROR', 'boom'));
		const untouched = nock(API).get('/invoices/1003').reply(200, envelope(invoice(1003, { status: 'success' })));
		const partial = await trigger.poll();
		expect(partial.map((e) => [e.invoice_id, e.current])).toEqual([[1001, 'success']]);
		broken.done();
		expect(untouched.isDone()).toBe(false); // the poll stopped at the first transient failure
		nock.cleanAll();

		// Next poll: 1002 and 1003 first (not read last time), then 1001; each change once.
		const order: string[] = [];
		nock(API)
			.get(/\/invoices\/100[123]$/)
			.times(3)
			.reply(200, (uri) => {
				const id = Number(uri.split('/').pop());
				order.push(String(id));
				return envelope(invoice(id, { status: id === 1002 ? 'error' : 'success' }));
			}, rateHeaders());
		const next = await trigger.poll();
		expect(order).toEqual(['1002', '1003', '1001']);
		expect(next.map((e) => [e.invoice_id, e.previous, e.current])).toEqual([
			[1002, 'sent', 'error'],
			[1003, 'sent', 'success'],
		]);
	});

	it('when two polls overlap: one event, and a slow older reply does not move the state back', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', ...statusOnly });
		serveInvoice(invoice(1001, { status: 'sent' }));
		await trigger.poll();
		const shared = JSON.parse(JSON.stringify(trigger.staticData)) as IDataObject;

		// Poll A asks first but its reply (still "sent", read before the change) arrives last: it is
		// held until poll B, answered at once, has finished.
		const slow = heldReply(envelope(invoice(1001, { status: 'sent' })));
		nock(API).get('/invoices/1001').reply(slow.reply);
		nock(API).get('/invoices/1001').reply(200, envelope(invoice(1001, { status: 'success' })), rateHeaders());
		const pollA = trigger.pollShared(shared);
		await slow.arrived;
		const b = await trigger.pollShared(shared);
		slow.release();
		const a = await pollA;
		expect(a.emitted).toBeNull();
		expect(b.emitted?.[0].map((i) => [i.json.previous, i.json.current])).toEqual([['sent', 'success']]);
		// The record both polls share, after the slow reply arrived: still the newer value.
		expect((shared.trigger as { invoices: Record<string, { s: string }> }).invoices['1001'].s).toBe('success');

		// Both replies carry the new value: still one event between them.
		const shared2 = JSON.parse(JSON.stringify(b.staticData)) as IDataObject;
		const slow2 = heldReply(envelope(invoice(1001, { status: 'error' })));
		nock(API).get('/invoices/1001').reply(slow2.reply);
		nock(API).get('/invoices/1001').reply(200, envelope(invoice(1001, { status: 'error' })), rateHeaders());
		const c = trigger.pollShared(shared2);
		await slow2.arrived;
		const d = await trigger.pollShared(shared2);
		slow2.release();
		const emitted = [await c, d].flatMap((r) => r.emitted?.[0] ?? []);
		expect(emitted.map((i) => [i.json.previous, i.json.current])).toEqual([['success', 'error']]);
	});

	it.each([
		['the earlier poll answered last', true],
		['the later poll answered last', false],
	])('when two polls overlap on a policy (%s): a new transaction is emitted once', async (_order, earlierLast) => {
		const trigger = activeTrigger({ policyNumbers: 'POL-1', events: ['newTransaction'] });
		servePolicy('POL-1', [invoice(1001)]);
		await trigger.poll();
		const shared = JSON.parse(JSON.stringify(trigger.staticData)) as IDataObject;
		const rows = [invoice(1001), invoice(1002)];
		const listing = envelope({ invoices: rows, pagination: { page: 1, per_page: 100, total: 2 } });
		// Both replies are held until both polls have asked; then one is answered and its poll
		// finishes before the other is answered.
		const [first, second] = [heldReply(listing), heldReply(listing)];
		nock(API).get('/invoices').query(true).reply(first.reply);
		nock(API).get('/invoices').query(true).reply(second.reply);
		const a = trigger.pollShared(shared);
		await first.arrived;
		const b = trigger.pollShared(shared);
		await second.arrived;
		const [answeredFirst, answeredLast] = earlierLast ? [second, first] : [first, second];
		const [finishesFirst, finishesLast] = earlierLast ? [b, a] : [a, b];
		answeredFirst.release();
		const early = await finishesFirst;
		answeredLast.release();
		const late = await finishesLast;
		const emitted = [early, late].flatMap((r) => r.emitted?.[0] ?? []);
		expect(emitted.map((i) => [i.json.event, i.json.invoice_id])).toEqual([['new_transaction', 1002]]);
	});
});
