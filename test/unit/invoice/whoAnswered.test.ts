/**
 * A reply is taken only for what was asked (issue 54), in n8n's engine with nock behind it:
 * who answered a 404 (the service's envelope and code, or a proxy's page), what a reply describes
 * (a create answered with another policy's invoice, batch results numbered from 1, a read
 * answered with another id), and whether a listing is the invoice list, complete.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { API, BASE, KEYS, asSent, hintsOf, envelope, failure, invoiceFor, jsonParams, listingReply, meReply, row, run, setupSuite } from './helpers';

setupSuite();

const HTML_404 = '<html><body><h1>404 Not Found</h1><hr>nginx</body></html>';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const notFound = () => failure('NOT_FOUND', 'Invoice not found');
const policyListing = (policy: string, reply: object) =>
	nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 }).reply(200, reply);

describe('Delete: "already gone" only on the service’s word', () => {
	it('an HTML 404 from a proxy fails the item as a Base URL problem: nothing is reported deleted', async () => {
		nock(API).delete('/invoices/55').reply(404, HTML_404, { 'Content-Type': 'text/html' });
		const { output, error } = await run({ operation: 'delete', invoiceId: byId('55') }, { continueOnFail: true });
		expect(error).toBeUndefined();
		const json = output![0].json;
		expect(json.deleted).toBeUndefined();
		expect(json.already_gone).toBeUndefined();
		expect(json).toMatchObject({ code: 'NOT_ENVELOPE', httpStatus: 404 });
		expect(String(json.description)).toMatch(/not the service’s own "not found".*Check the Base URL/);
	});

	it('a 404 in the service’s envelope with another code is no "already gone" either', async () => {
		nock(API).delete('/invoices/55').reply(404, failure('ROUTE_MISSING', 'No such route'));
		const { output } = await run({ operation: 'delete', invoiceId: byId('55') }, { continueOnFail: true });
		expect(output![0].json.already_gone).toBeUndefined();
		expect(output![0].json.code).toBe('ROUTE_MISSING');
	});
});

describe('Get: a read answered with another invoice', () => {
	it('GET /invoices/1001 answered with invoice 2002 fails the item naming both; no invoice comes out', async () => {
		nock(API).get('/invoices/1001').reply(200, envelope(invoiceFor(row(), 2002)));
		const { output } = await run({ operation: 'get', invoiceId: byId('1001') }, { continueOnFail: true });
		expect(output![0].json.id).toBeUndefined();
		expect(output![0].json).toMatchObject({ code: 'REPLY_FOR_ANOTHER_INVOICE' });
		expect(String(output![0].json.error)).toMatch(/invoice 2002, not invoice 1001/);
	});

	it('an Update answered with another invoice is refused too: nothing of it comes out as the updated invoice', async () => {
		nock(API).put('/invoices/1042').reply(200, envelope(invoiceFor(row({ policy_number: 'POL-9' }), 7)));
		const { output } = await run(jsonParams('update', { invoiceId: byId('1042') }), { items: [{ commission: 1 }], continueOnFail: true });
		expect(output![0].json).toMatchObject({ code: 'REPLY_FOR_ANOTHER_INVOICE' });
		expect(output![0].json.id).toBeUndefined();
	});

	it('the same id shown as text or with leading zeros is the invoice asked for', async () => {
		nock(API).get('/invoices/1001').reply(200, envelope({ ...invoiceFor(row(), 1), id: '01001' }));
		const { output } = await run({ operation: 'get', invoiceId: byId('1001') }, { continueOnFail: true });
		expect(output![0].json.error).toBeUndefined();
	});
});

describe('Create: the reply must be the row sent', () => {
	it('a 201 carrying another policy’s invoice is never the row’s filing: the row is looked for on its policy, and refused naming the answer when it is not there', async () => {
		const body = row();
		policyListing('POL-100', listingReply([])); // the look first
		nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(row({ policy_number: 'POL-777', net_premium: 50 }), 4242)));
		policyListing('POL-100', listingReply([])); // the look after the wrong reply
		const { output } = await run(jsonParams('create'), { items: [body], continueOnFail: true });
		const json = output![0].json;
		expect(json.id).toBeUndefined();
		expect(json.code).toBe('REPLY_NOT_THE_ROW');
		expect(String(json.error)).toMatch(/invoice 4242, which is not this row \(policy_number: sent "POL-100", answered "POL-777"; net_premium: sent "1200", answered "50"; invoice_number: sent "SL\w+", answered "SL\w+"\)/);
		expect(String(json.description)).toMatch(/check the policy's transactions/);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a wrong reply, but the row’s filing is on its policy: that filing is output, saying why', async () => {
		const body = row();
		policyListing('POL-100', listingReply([]));
		nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(row({ policy_number: 'POL-777' }), 4242)));
		nock(API).get('/invoices').query({ policy_number: 'POL-100', page: 1, per_page: 100 })
			.reply(200, { ...listingReply([invoiceFor(body, 1001, { created: '2026-11-22 06:00:00' })]), meta: { timestamp: '2026-11-22T12:00:01Z', request_id: 'req_l' } });
		const { output } = await run(jsonParams('create'), { items: [body], continueOnFail: true });
		expect(output![0].json).toMatchObject({ id: 1001, policy_number: 'POL-100' });
		expect(String(output![0].json.outcomeNote)).toMatch(/^The create's reply was not this row .*found among the policy's transactions instead/);
	});

	it('the service showing the row’s values in its own forms (case, number as text, a date with a time, the mark in lower case) is the row', async () => {
		const body = row();
		policyListing('POL-100', listingReply([]));
		const sent = invoiceFor(body, 1001);
		nock(API).post('/invoices', asSent(body)).reply(201, envelope({
			...sent,
			policy_number: 'pol-100',
			net_premium: '1200.00',
			effective_date: '01/01/2026',
			invoice_number: String(sent.invoice_number).toLowerCase(),
		}));
		const { output } = await run(jsonParams('create'), { items: [body], continueOnFail: true });
		expect(output![0].json.error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1001, outcome: 'filed' });
	});
});

describe('Create Many: batch results paired by what they describe', () => {
	const rows = [row({ policy_number: 'POL-A', net_premium: 100 }), row({ policy_number: 'POL-B', net_premium: 200 }), row({ policy_number: 'POL-C', net_premium: 300 })];

	it('results numbered from 1 give no row its neighbour’s invoice, and the first row is not reported unfiled', async () => {
		nock(API).get('/auth/me').reply(200, meReply([], 't3')).persist();
		for (const r of rows) policyListing(String(r.policy_number), listingReply([]));
		nock(API).post('/invoices/batch').reply(200, (_uri, sent) => {
			const invoices = (sent as { invoices: IDataObject[] }).invoices;
			return envelope({ results: invoices.map((invoice, n) => ({ index: n + 1, success: true, invoice: invoiceFor(invoice, 501 + n) })), created: 3, failed: 0 });
		});
		const { output } = await run(jsonParams('createMany', { simplify: true }), { items: rows, key: KEYS.t3, continueOnFail: true });
		expect(output!.map((o) => [o.json.policy_number, o.json.id, o.json.error ?? null])).toEqual([
			['POL-A', 501, null],
			['POL-B', 502, null],
			['POL-C', 503, null],
		]);
	});

	it('results numbered from 1 with a refusal: the refusal is not given to a neighbour; the row it cannot be told for is settled through its policy', async () => {
		nock(API).get('/auth/me').reply(200, meReply([], 't3')).persist();
		for (const r of rows) policyListing(String(r.policy_number), listingReply([]));
		nock(API).post('/invoices/batch').reply(200, (_uri, sent) => {
			const invoices = (sent as { invoices: IDataObject[] }).invoices;
			return envelope({
				results: [
					{ index: 1, success: true, invoice: invoiceFor(invoices[0], 501) },
					{ index: 2, success: false, error: { code: 'VALIDATION_ERROR', message: 'Validation failed' } },
					{ index: 3, success: true, invoice: invoiceFor(invoices[2], 503) },
				],
				created: 2,
				failed: 1,
			});
		});
		// POL-B: its result cannot be told; its listing shows nothing stored, so it is sent on its own.
		policyListing('POL-B', listingReply([]));
		nock(API).post('/invoices', asSent(rows[1])).reply(422, failure('VALIDATION_ERROR', 'Validation failed', { fields: { insurers: ['bad'] } }));
		const { output } = await run(jsonParams('createMany', { simplify: true }), { items: rows, key: KEYS.t3, continueOnFail: true });
		expect(output!.map((o) => [o.json.policy_number ?? null, o.json.id ?? null, o.json.code ?? null])).toEqual([
			['POL-A', 501, null],
			['POL-B', null, 'VALIDATION_ERROR'],
			['POL-C', 503, null],
		]);
		expect(nock.pendingMocks().filter((m) => !m.endsWith('/auth/me'))).toEqual([]);
	});
});

describe('a listing that decides a filing must be the invoice list, complete', () => {
	const shapes: Array<[string, object]> = [
		['data of another shape', envelope({ items: { total: 1 } })],
		['data null', envelope(null)],
		['a total of 1 and no rows', envelope({ invoices: [], pagination: { page: 1, per_page: 100, total: 1 } })],
		['rows without ids', envelope({ invoices: [{ policy_number: 'POL-100' }], pagination: { page: 1, per_page: 100, total: 1 } })],
	];
	for (const [what, reply] of shapes) {
		it(`legacy account, ${what}: the row is refused, nothing is filed`, async () => {
			nock(API).get('/auth/me').reply(200, meReply([])).persist();
			policyListing('POL-100', reply);
			const post = nock(API).post('/invoices').reply(201, envelope(invoiceFor(row(), 1001)));
			const { output } = await run(jsonParams('create'), { items: [row()], continueOnFail: true });
			expect(post.isDone()).toBe(false);
			expect(output![0].json.id).toBeUndefined();
			expect(String(output![0].json.error)).toMatch(/could not be read before filing, so nothing was filed/);
			expect(output![0].json.code).toMatch(/^(LISTING_UNREADABLE|LISTING_NOT_ENDED)$/);
		});
	}
});

describe('Look for Changes: gone only from the service’s word, confirmed', () => {
	const watchRow = (id: number, invoiceId: number, state = 'new|not_sent|'): IDataObject => ({ id, invoice_id: invoiceId, policy_number: null, state, checked_at: '', last_event: '', settled: false });
	const look = (items: IDataObject[]) =>
		runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'watchLook', looksPerHour: 12, options: {} },
			items,
			credentials: { apiKey: KEYS.t2, baseUrl: API },
		});

	it('an HTML 404 from a proxy settles nothing: the look fails as a Base URL problem', async () => {
		nock(BASE).get('/api/v1/invoices/1001').reply(404, HTML_404, { 'Content-Type': 'text/html' });
		const { output, error } = await look([watchRow(1, 1001)]);
		expect(error?.message).toMatch(/NOT_ENVELOPE/);
		expect((output ?? []).filter((o) => o.json.settled === true)).toEqual([]);
	});

	it('a key of the other environment (every read answered NOT_FOUND) settles nothing, marks nothing, and says why', async () => {
		for (const id of [1001, 1002, 1003]) nock(BASE).get(`/api/v1/invoices/${id}`).reply(404, notFound());
		const result = await look([watchRow(1, 1001), watchRow(2, 1002), watchRow(3, 1003, 'new|not_sent||notfound')]);
		expect(result.error).toBeUndefined();
		expect(result.output!.filter((o) => o.json.row_id !== undefined)).toEqual([]);
		expect(hintsOf(result.run).map((h) => h.message).join('\n')).toMatch(/Every invoice this look read \(3\) was answered "not found".*other environment/);
	});

	it('GET /invoices/1001 answered with invoice 2002 is not taken as 1001: nothing is settled', async () => {
		nock(BASE).get('/api/v1/invoices/1001').reply(200, envelope({ id: 2002, policy_number: 'P-9', status: 'success', filing: { state_status: 'confirmed' }, documents: [] }));
		const { output, error } = await look([watchRow(1, 1001)]);
		expect(error?.message).toMatch(/REPLY_FOR_ANOTHER_INVOICE/);
		expect((output ?? []).filter((o) => o.json.settled === true)).toEqual([]);
	});
});
