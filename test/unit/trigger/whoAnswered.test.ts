/**
 * The trigger takes a reply only for what it asked (issue 54): a 404 is "not found" only in the
 * service's envelope with NOT_FOUND, and an invoice counts as gone only when two polls in a row
 * hear it while the key finds something else; a read answered with another invoice is refused;
 * a policy listing keeps only rows of the watched policy.
 */
import nock from 'nock';

import { useNockSuite } from '../../helpers/nockSuite';
import { API, activeTrigger, failure, invoice, rateHeaders, serveInvoice, servePolicy } from './helpers';

const fake = useNockSuite();

type Units = Record<string, { missing?: boolean; notFound?: boolean }>;
const unitsOf = (trigger: ReturnType<typeof activeTrigger>) => (trigger.staticData.trigger as { units: Units }).units;
const HTML_404 = '<html><body><h1>404 Not Found</h1>nginx</body></html>';

describe('who answered a 404', () => {
	it('an HTML 404 from a proxy fails the poll as a Base URL problem and marks nothing: the invoice is still read every poll', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'] });
		serveInvoice(invoice(1001, { status: 'sent' }));
		expect(await trigger.poll()).toEqual([]);
		fake().advance(5 * 60_000);
		nock(API).get('/invoices/1001').reply(404, HTML_404, { 'Content-Type': 'text/html' });
		await expect(trigger.poll()).rejects.toThrow(/NOT_ENVELOPE/);
		expect(unitsOf(trigger)['i:1001'].missing).toBeUndefined();
		// The next poll reads it again (nock refuses a call it was not told of) and finds the change.
		fake().advance(5 * 60_000);
		serveInvoice(invoice(1001, { status: 'error' }));
		expect((await trigger.poll()).map((e) => [e.invoice_id, e.current])).toEqual([[1001, 'error']]);
	});

	it('a key of the other environment (every read of every poll answered NOT_FOUND) marks nothing gone', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001,1002', events: ['invoiceStatus'] });
		for (let poll = 0; poll < 3; poll++) {
			for (const id of [1001, 1002]) nock(API).get(`/invoices/${id}`).reply(404, failure('NOT_FOUND', 'Invoice not found'), rateHeaders());
			expect(await trigger.poll()).toEqual([]);
			fake().advance(5 * 60_000);
		}
		expect(unitsOf(trigger)['i:1001']?.missing).toBeUndefined();
		expect(unitsOf(trigger)['i:1002']?.missing).toBeUndefined();
		// Both are still read at the next poll.
		serveInvoice(invoice(1001, { status: 'sent' }));
		serveInvoice(invoice(1002, { status: 'sent' }));
		await trigger.poll();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('one NOT_FOUND beside a found invoice is only remembered; found again, it is read as before', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001,1002', events: ['invoiceStatus'] });
		serveInvoice(invoice(1001, { status: 'sent' }));
		nock(API).get('/invoices/1002').reply(404, failure('NOT_FOUND', 'Invoice not found'), rateHeaders());
		await trigger.poll();
		expect(unitsOf(trigger)['i:1002']).toMatchObject({ notFound: true });
		expect(unitsOf(trigger)['i:1002'].missing).toBeUndefined();
		fake().advance(5 * 60_000);
		// A poll that emits (n8n writes the static data of a poll that emits).
		serveInvoice(invoice(1001, { status: 'error' }));
		serveInvoice(invoice(1002, { status: 'sent' }));
		expect(await trigger.poll()).toHaveLength(1);
		expect(nock.pendingMocks()).toEqual([]);
		expect(unitsOf(trigger)['i:1002'].notFound).toBeUndefined();
	});
});

describe('what the reply describes', () => {
	it('GET /invoices/1001 answered with invoice 2002 is refused, and nothing of 2002 is recorded as 1001', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'] });
		serveInvoice(invoice(1001, { status: 'sent' }));
		await trigger.poll();
		fake().advance(5 * 60_000);
		nock(API).get('/invoices/1001').reply(200, { success: true, data: invoice(2002, { status: 'success' }), meta: { request_id: 'req_x' } }, rateHeaders());
		await expect(trigger.poll()).rejects.toThrow(/REPLY_FOR_ANOTHER_INVOICE\): it describes invoice 2002, not invoice 1001/);
		const memory = (trigger.staticData.trigger as { invoices: Record<string, { s?: string }> }).invoices;
		expect(memory['1001'].s).toBe('sent');
		expect(memory['2002']).toBeUndefined();
	});

	it('a listing filtered by prefix: only the watched policy’s rows (in reference form) make events or memory', async () => {
		const trigger = activeTrigger({ policyNumbers: 'POL-1', events: ['newTransaction'] });
		servePolicy('POL-1', [invoice(1001, { policy_number: 'POL-1' })]);
		expect(await trigger.poll()).toEqual([]);
		fake().advance(5 * 60_000);
		const others = Array.from({ length: 24 }, (_, n) => invoice(2000 + n, { policy_number: `POL-1${n}` }));
		servePolicy('POL-1', [invoice(1001, { policy_number: 'pol-1' }), ...others, invoice(1002, { policy_number: 'pol-01 ' })]);
		const events = await trigger.poll();
		expect(events.map((e) => e.invoice_id)).toEqual([1002]);
		const memory = (trigger.staticData.trigger as { invoices: Record<string, unknown> }).invoices;
		expect(Object.keys(memory).sort()).toEqual(['1001', '1002']);
	});
});
