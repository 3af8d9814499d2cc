import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { API, KEYS, derivedKey, envelope, failure, invoiceFor, jsonParams, GATEWAY_TIMEOUT, row, run, setupSuite } from './helpers';

setupSuite();

const rows = (n: number) => Array.from({ length: n }, (_, i) => row({ policy_number: `POL-${i}`, net_premium: 100 + i }));

/** A batch endpoint that files every invoice except those whose policy number is in `refuse`. */
function batchEndpoint(calls: number[], refuse: Set<string> = new Set()) {
	let nextId = 1;
	return nock(API)
		.post('/invoices/batch')
		.times(10)
		.reply(200, (_uri, body) => {
			const invoices = (body as { invoices: IDataObject[] }).invoices;
			calls.push(invoices.length);
			const results = invoices.map((invoice, index) =>
				refuse.has(String(invoice.policy_number))
					? { index, success: false, error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: { fields: { insurers: ['insurers[0].company_id 999 does not match any company'] } } } }
					: { index, success: true, invoice: invoiceFor(invoice, nextId++) },
			);
			// Results in reverse order: pairing must follow `index`, not position.
			return envelope({ results: results.reverse(), created: 0, failed: 0 }, `req_batch${calls.length}`);
		});
}

describe('Create Many', () => {
	it('t3: 1,001 items go in exactly 3 batch calls (500, 500, 1), each result paired to its item', async () => {
		const calls: number[] = [];
		batchEndpoint(calls);
		const { output, error } = await run(jsonParams('createMany', { simplify: true }), { items: rows(1001), key: KEYS.t3 });
		expect(error).toBeUndefined();
		expect(calls).toEqual([500, 500, 1]);
		expect(output).toHaveLength(1001);
		output!.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.policy_number).toBe(`POL-${i}`);
			expect(item.json.net_premium).toBe(100 + i);
		});
		expect(output![1000].json.id).toBe(1001);
	});

	it('continueOnFail: a refused item becomes its own error item (code, fields, request id); the others are filed', async () => {
		const calls: number[] = [];
		batchEndpoint(calls, new Set(['POL-2']));
		const items = rows(4);
		items[1] = { ...items[1], state_code: 'XX' };
		const { output } = await run(jsonParams('createMany'), { items, key: KEYS.t3, continueOnFail: true });
		expect(calls).toEqual([3]);
		expect(output!.map((o) => o.json.code ?? o.json.id)).toEqual([1, 'INVALID_INPUT', 'VALIDATION_ERROR', 2]);
		expect(output![1].json.fields).toEqual(['state_code: Must be a valid state_code']);
		expect(output![2].json).toMatchObject({
			fields: ['insurers: insurers[0].company_id 999 does not match any company'],
			requestId: 'req_batch1',
		});
		expect(output!.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	});

	it('without continueOnFail a locally bad item stops the run before any call', async () => {
		const trap = nock(API).post('/invoices/batch').reply(200, envelope({ results: [] }));
		const items = rows(3);
		items[2] = { ...items[2], effective_date: 'tomorrow' };
		const { error } = await run(jsonParams('createMany'), { items, key: KEYS.t3 });
		expect(error!.message).toBe('Item 2: Invalid input, nothing was sent: effective_date: Must be a valid date');
		expect(error!.description).toContain('No invoice was filed.');
		expect(trap.isDone()).toBe(false);
	});

	it('without continueOnFail every chunk is still sent, then the node fails naming the refused item and the filed IDs', async () => {
		const calls: number[] = [];
		batchEndpoint(calls, new Set(['POL-3']));
		const { error } = await run(jsonParams('createMany'), { items: rows(502), key: KEYS.t3 });
		expect(calls).toEqual([500, 2]);
		expect(error!.message).toBe('Item 3: The service refused the data (HTTP 422 VALIDATION_ERROR): Validation failed');
		expect(error!.description).toContain('1 of 502 items failed.');
		expect(error!.description).toContain('501 invoices were filed (IDs 1, 2, 3');
	});

	it('t2: one create per item, each with its own Idempotency-Key', async () => {
		const items = rows(3);
		const scopes = items.map((body, i) =>
			nock(API, { reqheaders: { 'idempotency-key': derivedKey(KEYS.t2, body) } })
				.post('/invoices', body)
				.reply(201, envelope(invoiceFor(body, 10 + i)), i === 1 ? { 'Idempotent-Replayed': 'true' } : {}),
		);
		const trap = nock(API).post('/invoices/batch').reply(200, envelope({}));
		const { output, error } = await run(jsonParams('createMany'), { items, key: KEYS.t2 });
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.id, o.json._replayed])).toEqual([[10, undefined], [11, true], [12, undefined]]);
		scopes.forEach((s) => s.done());
		expect(trap.isDone()).toBe(false);
	});

	it('t1: refused before any call, naming the tier, one error item per input item', async () => {
		const { output } = await run(jsonParams('createMany'), { items: rows(2), key: KEYS.t1, continueOnFail: true });
		expect(output!.map((o) => o.json.error)).toEqual([
			"Create Many invoices needs a t2 (Standard) key or higher; this credential's key is t1 (Basic)",
			"Create Many invoices needs a t2 (Standard) key or higher; this credential's key is t1 (Basic)",
		]);
	});

	it('a lost batch reply: stored items are recovered from the policy list, the rest filed one by one', async () => {
		const items = rows(2);
		const batch = nock(API).post('/invoices/batch').reply(504, GATEWAY_TIMEOUT);
		nock(API)
			.get('/invoices')
			.query({ policy_number: 'POL-0', page: 1, per_page: 100 })
			.reply(200, envelope({ invoices: [invoiceFor(items[0], 501)], pagination: { page: 1, per_page: 100, total: 1 } }));
		nock(API)
			.get('/invoices')
			.query({ policy_number: 'POL-1', page: 1, per_page: 100 })
			.reply(200, envelope({ invoices: [], pagination: { page: 1, per_page: 100, total: 0 } }));
		const single = nock(API).post('/invoices', items[1]).reply(201, envelope(invoiceFor(items[1], 502)));
		const { output, error } = await run(jsonParams('createMany'), { items, key: KEYS.t3 });
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.id, o.json._recovered])).toEqual([[501, true], [502, undefined]]);
		batch.done();
		single.done();
	});

	it('a refused batch call (e.g. 403) fails every item of that chunk', async () => {
		nock(API).post('/invoices/batch').reply(403, failure('TIER_REQUIRED', 'Requires t3', undefined, 'req_403'));
		const { output } = await run(jsonParams('createMany'), { items: rows(2), key: KEYS.t3, continueOnFail: true });
		expect(output!.map((o) => [o.json.code, o.json.requestId])).toEqual([['TIER_REQUIRED', 'req_403'], ['TIER_REQUIRED', 'req_403']]);
	});
});
