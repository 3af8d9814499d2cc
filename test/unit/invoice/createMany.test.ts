import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { API, KEYS, derivedKey, envelope, failure, invoiceFor, jsonParams, GATEWAY_TIMEOUT, row, run, setupSuite } from './helpers';

setupSuite();

/** The execution hints (warnings over the output) of the node under test. */
function hintsOf(result: { data: { resultData: { runData: Record<string, Array<{ hints?: unknown[] }>> } } } | undefined) {
	const runData = result!.data.resultData.runData;
	return Object.values(runData).flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string; type?: string; location?: string }>);
}

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
		expect(error!.message).toBe('Row 3: Invalid input, nothing was sent: effective_date: Must be a valid date');
		expect(error!.description).toContain('No invoice was filed.');
		expect(trap.isDone()).toBe(false);
	});

	// Changed: this used to fail the node after 501 invoices were filed, which invited a re-run
	// (or Retry On Fail) that filed them again. Once calls are made, every row comes out.
	it('without continueOnFail every chunk is still sent and the node does not fail: the refused row is an error item, a warning lists it', async () => {
		const calls: number[] = [];
		batchEndpoint(calls, new Set(['POL-3']));
		const { output, error, run: result } = await run(jsonParams('createMany'), { items: rows(502), key: KEYS.t3 });
		expect(calls).toEqual([500, 2]);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(502);
		expect(output![3].json).toMatchObject({
			error: 'The service refused the data (HTTP 422 VALIDATION_ERROR): Validation failed',
			code: 'VALIDATION_ERROR',
			fields: ['insurers: insurers[0].company_id 999 does not match any company'],
			requestId: 'req_batch1',
			summary: '1 of 502 rows not filed; 501 filed',
		});
		expect(output!.filter((o) => o.json.id !== undefined)).toHaveLength(501);
		expect(output!.map((o) => o.pairedItem)).toEqual(output!.map((_, item) => ({ item })));
		expect(hintsOf(result)).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message: '1 of 502 rows were not filed or not confirmed (rows 4); 501 filed. They come out as error items: fix and run only those rows again (running every row again would file the filed ones a second time).',
			},
		]);
	});

	it('the not-filed list is complete (no truncation), in the warning', async () => {
		const calls: number[] = [];
		const refused = Array.from({ length: 30 }, (_, i) => i * 2);
		batchEndpoint(calls, new Set(refused.map((i) => `POL-${i}`)));
		const { output, error, run: result } = await run(jsonParams('createMany'), { items: rows(60), key: KEYS.t3 });
		expect(error).toBeUndefined();
		expect(output!.filter((o) => o.json.code === 'VALIDATION_ERROR').map((o) => (o.pairedItem as { item: number }).item)).toEqual(refused);
		expect(hintsOf(result)[0].message).toContain(`(rows ${refused.map((i) => i + 1).join(', ')}); 30 filed.`);
	});

	it('a locally bad row names every other bad row, without truncation', async () => {
		const items = rows(40).map((r, i) => (i % 2 ? r : { ...r, effective_date: 'x' }));
		const trap = nock(API).post('/invoices/batch').reply(200, envelope({ results: [] }));
		const { error } = await run(jsonParams('createMany'), { items, key: KEYS.t3 });
		const others = Array.from({ length: 19 }, (_, i) => (i + 1) * 2 + 1);
		expect(error!.description).toContain(`20 of 40 rows failed (also rows ${others.join(', ')}).`);
		expect(trap.isDone()).toBe(false);
	});

	it('t3 with an own Idempotency Key files row by row, each with its own key (a batch call would drop them)', async () => {
		const items = rows(2).map((r, i) => ({ body: r, key: `row-${i}` }));
		const bodies = rows(2);
		const trap = nock(API).post('/invoices/batch').reply(200, envelope({ results: [] }));
		const scopes = bodies.map((body, i) =>
			nock(API, { reqheaders: { 'idempotency-key': `row-${i}` } })
				.post('/invoices', body)
				.reply(201, envelope(invoiceFor(body, 70 + i))),
		);
		const { output, error } = await run(
			{ operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json.body) }}', idempotency: 'own', idempotencyKey: '={{ $json.key }}' },
			{ items, key: KEYS.t3 },
		);
		expect(error).toBeUndefined();
		expect(output!.map((o) => o.json.id)).toEqual([70, 71]);
		scopes.forEach((s) => s.done());
		expect(trap.isDone()).toBe(false);
	});

	it('Simplify is read for each row, not from the first row only', async () => {
		batchEndpoint([]);
		const items = rows(2).map((r, i) => ({ body: r, simple: i === 1 }));
		const { output } = await run(
			{ operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json.body) }}', simplify: '={{ $json.simple }}' },
			{ items, key: KEYS.t3 },
		);
		expect(output![0].json.insured_name).toBe('Acme Roofing LLC');
		expect(output![1].json).not.toHaveProperty('insured_name');
		expect(output![1].json).toHaveProperty('fees_total', 0);
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

	it('fails the node like any other when the whole batch is refused and nothing was filed', async () => {
		nock(API).post('/invoices/batch').reply(403, failure('TIER_REQUIRED', 'Requires t3', undefined, 'req_403'));
		const { error, output } = await run(jsonParams('createMany'), { items: rows(2), key: KEYS.t3 });
		expect(output).toBeUndefined();
		expect(error!.message).toBe('This operation needs a higher key tier (HTTP 403 TIER_REQUIRED): Requires t3');
	});

	it('a refused batch call (e.g. 403) fails every item of that chunk', async () => {
		nock(API).post('/invoices/batch').reply(403, failure('TIER_REQUIRED', 'Requires t3', undefined, 'req_403'));
		const { output } = await run(jsonParams('createMany'), { items: rows(2), key: KEYS.t3, continueOnFail: true });
		expect(output!.map((o) => [o.json.code, o.json.requestId])).toEqual([['TIER_REQUIRED', 'req_403'], ['TIER_REQUIRED', 'req_403']]);
	});
});
