import { createServer } from 'http';
import type { AddressInfo } from 'net';
import nock from 'nock';

import { forgetRateLimits } from '../../../nodes/shared/rateLimit';
import { useNockSuite } from '../../helpers/nockSuite';
import { API, KEY, activeTrigger, document, failure, invoice, rateHeaders, serveInvoice, servePolicy } from './helpers';

const fake = useNockSuite();

describe('a 429 or a network error: no events this time, a later try, nothing lost', () => {
	it('429 in the middle of a poll: emits what was read, does not wait, reads the rest next poll', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001,1002', events: ['invoiceStatus'] });
		[1001, 1002].forEach((id) => serveInvoice(invoice(id, { status: 'sent' })));
		await trigger.poll();

		serveInvoice(invoice(1001, { status: 'success' }), rateHeaders(1000, 1));
		const limited = nock(API)
			.get('/invoices/1002')
			.reply(429, failure('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded'), { ...rateHeaders(1000, 0), 'Retry-After': '1800' });
		const events = await trigger.poll();
		limited.done();
		expect(events.map((e) => [e.invoice_id, e.current])).toEqual([[1001, 'success']]);
		expect(fake().sleeps).toEqual([]); // the poll did not wait for the window

		// Next poll, after the window reset: 1002 goes first and its change is not lost.
		fake().advance(1800 * 1000);
		forgetRateLimits();
		serveInvoice(invoice(1002, { status: 'error' }));
		serveInvoice(invoice(1001, { status: 'success' }));
		expect((await trigger.poll()).map((e) => [e.invoice_id, e.previous, e.current])).toEqual([[1002, 'sent', 'error']]);
	});

	it('429 at activation (the first poll) does not fail the activation; the baseline is taken later', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001' });
		nock(API).get('/invoices/1001').reply(429, failure('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded'), { 'Retry-After': '60' });
		await expect(trigger.poll()).resolves.toEqual([]);
		fake().advance(60_000); // the next poll comes after the Retry-After (calls before it wait)
		serveInvoice(invoice(1001, { status: 'sent' }));
		expect(await trigger.poll()).toEqual([]); // baseline now
		serveInvoice(invoice(1001, { status: 'success' }));
		expect(await trigger.poll()).toHaveLength(1);
	});

	it('a spent window known from the last reply: the poll makes no call at all', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001,1002' });
		serveInvoice(invoice(1001), { ...rateHeaders(1000, 0), 'X-RateLimit-Reset': String(fake().nowSeconds() + 600) });
		await trigger.poll(); // 1001 read; the reply says nothing is left until the reset
		await expect(trigger.poll()).resolves.toEqual([]); // nock would refuse any call
		expect(fake().sleeps).toEqual([]);
	});

	it('network error (a real connection reset): retried briefly, then no events; nothing lost', async () => {
		// A real server that drops every connection: nock's replyWithError races its mock socket under load.
		const server = createServer();
		server.on('connection', (socket) => socket.destroy());
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		nock.enableNetConnect('127.0.0.1');
		const dropping = { apiKey: KEY, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
		try {
			const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'] });
			serveInvoice(invoice(1001, { status: 'sent' }));
			await trigger.poll();
			await expect(trigger.pollWith(dropping)).resolves.toEqual([]);
			expect(fake().sleeps).toEqual([500, 1000]); // 3 tries, then the poll gives up
			serveInvoice(invoice(1001, { status: 'success' }));
			expect((await trigger.poll()).map((e) => [e.previous, e.current])).toEqual([['sent', 'success']]);
		} finally {
			nock.disableNetConnect();
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it('a failure on page 2 of a first policy listing does not make page-1 transactions look new later', async () => {
		const trigger = activeTrigger({ policyNumbers: 'POL-BIG', events: ['newTransaction'] });
		const rows = Array.from({ length: 120 }, (_, i) => invoice(3000 + i, { policy_number: 'POL-BIG' }));
		servePolicy('POL-BIG', rows.slice(0, 100), 1, 120);
		nock(API).get('/invoices').query({ policy_number: 'POL-BIG', page: '2', per_page: '100' }).times(3).reply(503, failure('INTERNAL_ERROR', 'down'));
		expect(await trigger.poll()).toEqual([]);
		servePolicy('POL-BIG', rows.slice(0, 100), 1, 120);
		servePolicy('POL-BIG', rows.slice(100), 2, 120);
		expect(await trigger.poll()).toEqual([]); // the complete baseline
		servePolicy('POL-BIG', rows.slice(0, 100), 1, 121);
		servePolicy('POL-BIG', [...rows.slice(100), invoice(3120, { policy_number: 'POL-BIG' })], 2, 121);
		expect((await trigger.poll()).map((e) => e.invoice_id)).toEqual([3120]);
	});
});

describe('other failures', () => {
	it('a watched invoice that is not found: logged, the others still read, then, not found by a second poll too, checked like a settled item', async () => {
		const trigger = activeTrigger({ invoiceIds: '999,1001', events: ['invoiceStatus'] });
		nock(API).get('/invoices/999').reply(404, failure('NOT_FOUND', 'Invoice not found'), rateHeaders());
		serveInvoice(invoice(1001, { status: 'sent' }));
		await trigger.poll();
		expect((trigger.staticData.trigger as { units: Record<string, { missing?: boolean }> }).units['i:999'].missing).toBeUndefined();
		nock(API).get('/invoices/999').reply(404, failure('NOT_FOUND', 'Invoice not found'), rateHeaders());
		serveInvoice(invoice(1001, { status: 'sent' }));
		await trigger.poll();
		serveInvoice(invoice(1001, { status: 'success' }));
		expect(await trigger.poll()).toHaveLength(1); // no call for 999 (nock would refuse it)
		expect((trigger.staticData.trigger as { units: Record<string, { missing?: boolean }> }).units['i:999'].missing).toBe(true);
	});

	it('a refused key fails the activation with the service’s message', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001' });
		nock(API).get('/invoices/1001').reply(401, failure('UNAUTHORIZED', 'Invalid API key'));
		await expect(trigger.poll()).rejects.toThrow(/API key was refused.*Invalid API key/);
	});

	it('a login page instead of the service (wrong Base URL) fails the activation; a 502 page does not', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001' });
		nock(API).get('/invoices/1001').reply(200, '<html><body>Sign in</body></html>', { 'Content-Type': 'text/html' });
		await expect(trigger.poll()).rejects.toThrow(/The reply did not come from the service \(HTTP 200 NOT_ENVELOPE\)/);

		const proxied = activeTrigger({ invoiceIds: '1001' });
		nock(API).get('/invoices/1001').times(3).reply(502, '<html><body>Bad gateway</body></html>', { 'Content-Type': 'text/html' });
		await expect(proxied.poll()).resolves.toEqual([]);
	});

	it('settings problems are reported before any call', async () => {
		await expect(activeTrigger({ invoiceIds: '1001, abc' }).poll()).rejects.toThrow(/invoiceIds: an invoice ID is a whole number \(got "abc"\)/);
		await expect(activeTrigger({}).poll()).rejects.toThrow(/enter at least one invoice ID or policy number/);
	});
});

describe('manual run (Fetch Test Event)', () => {
	it('returns the current state of the watched items, ignoring the value filters, with the budget; stores nothing', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', policyNumbers: 'POL-9', statusValues: ['error'] });
		serveInvoice(invoice(1001, { status: 'sent', documents: [document(5001, 'fetched')] }));
		servePolicy('POL-9', [invoice(1101, { policy_number: 'POL-9', status: 'success' })]);
		const sample = await trigger.poll('manual');
		expect(sample.map((e) => [e.event, e.invoice_id, e.previous, e.current])).toEqual([
			['invoice_status_changed', 1101, null, 'success'],
			['filing_state_changed', 1101, null, 'not_sent'],
			['new_transaction', 1101, null, 'success'],
			['invoice_status_changed', 1001, null, 'sent'],
			['filing_state_changed', 1001, null, 'not_sent'],
			['document_fetch_status_changed', 1001, null, 'fetched'],
		]);
		expect(sample[0]).toMatchObject({ sample: true, budget: { calls_per_poll: 20, hourly_limit: 1000, polls_per_hour: 12, watched_items: 2, warning: null } });
		expect(trigger.staticData).toEqual({});
	});

	it('warns in the sample when the list cannot be covered in one poll', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001,1002,1003', options: { budgetShare: 1 }, events: ['invoiceStatus'] });
		serveInvoice(invoice(1001));
		const sample = await trigger.poll('manual');
		expect(sample.map((e) => e.invoice_id)).toEqual([1001]); // 1000 × 1% ÷ 12 = 0.8: at least 1 call
		expect((sample[0].budget as { warning: string }).warning).toMatch(/3 calls are needed .* one poll may spend/);
	});

	it('throws what went wrong, so the user sees it', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001' });
		nock(API).get('/invoices/1001').reply(429, failure('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded'), { 'Retry-After': '60' });
		await expect(trigger.poll('manual')).rejects.toThrow(/hourly call limit/);
	});
});
