import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { asSent, API, KEYS, NEW_FEATURES, NUMBERING, derivedKey, envelope, failure, hintsOf, invoiceFor, jsonParams, listingReply, meReply, GATEWAY_TIMEOUT, row, run, setupSuite, summaryParts } from './helpers';
import { peakGate } from '../../helpers/peakGate';

setupSuite();
// Look for Rows Already Filed (on by default) lists each row's policy before filing, on every
// account; the account is asked whether it replays by key only after a lost reply. These tests
// use an account with the feature unless they say otherwise.
beforeEach(() => {
	nock(API).get('/auth/me').reply(200, meReply(NEW_FEATURES, 't3')).persist();
});
const legacyAccount = () => {
	nock.removeInterceptor({ hostname: 'sl.example.com', proto: 'https', path: '/api/v1/auth/me', method: 'GET' });
	nock(API).get('/auth/me').reply(200, meReply([], 't3')).persist();
};
const withoutKey = (invoice: IDataObject) => {
	const copy = { ...invoice };
	delete copy.idempotency_key;
	return copy;
};

const rows = (n: number) => Array.from({ length: n }, (_, i) => row({ policy_number: `POL-${i}`, net_premium: 100 + i }));

/** The look first of each row's policy (fewer than 10 policies), each showing `invoices`. */
const policyListings = (items: IDataObject[], invoices: IDataObject[] = []) =>
	[...new Set(items.map((item) => String(item.policy_number)))].map((policy) =>
		nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 }).reply(200, listingReply(invoices)),
	);

/**
 * The look first of a run with 10 or more policies: the account's listing (no policy number), here
 * empty, so no policy is listed on its own.
 */
const accountListing = () => nock(API).get('/invoices').query({ page: 1, per_page: 100 }).reply(200, listingReply([]));

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
	it('t3: 1,001 items go in exactly 3 batch calls (500, 500, 1) after one read of the account’s listing, each result paired to its item', async () => {
		const calls: number[] = [];
		batchEndpoint(calls);
		const account = accountListing();
		const { output, error } = await run(jsonParams('createMany', { simplify: true }), { items: rows(1001), key: KEYS.t3 });
		expect(error).toBeUndefined();
		account.done();
		expect(calls).toEqual([500, 500, 1]);
		expect(output).toHaveLength(1001);
		output!.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.policy_number).toBe(`POL-${i}`);
			expect(item.json.net_premium).toBe(100 + i);
		});
		expect(output![1000].json.id).toBe(1001);
	});

	it('t3: up to 4 batch calls at once; a chunk holding a row of a chunk in flight waits for its reply', async () => {
		const log: string[] = [];
		let open = 0;
		let most = 0;
		let nextId = 1;
		const gate = peakGate([4], () => open);
		nock(API)
			.post('/invoices/batch')
			.times(10)
			.reply((_uri, body, callback) => {
				const invoices = (body as { invoices: IDataObject[] }).invoices;
				const first = String(invoices[0].policy_number);
				open++;
				most = Math.max(most, open);
				log.push(`start ${first}`);
				// Held until four are in flight (however slowly they are sent); then the second
				// chunk's reply is the slowest.
				gate.hold(() =>
					setTimeout(() => {
						open--;
						log.push(`end ${first}`);
						const results = invoices.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, nextId++) }));
						callback(null, [200, envelope({ results, created: results.length, failed: 0 })]);
					}, first === 'POL-500' ? 150 : 20),
				);
			});
		// 3,000 rows, 6 chunks; row 2100 (fifth chunk) is row 700 (second chunk) again: the same key.
		const items = rows(3000);
		items[2100] = { ...items[700] };
		// Without the look first: a run that looks sets the second of two identical rows aside, so
		// only here does one key go in two chunks (the test is about the key in flight alone).
		const { output, error } = await run(jsonParams('createMany', { simplify: true, options: { lookFirst: false } }), { items, key: KEYS.t3 });
		gate.close();
		expect(error).toBeUndefined();
		expect(output).toHaveLength(3000);
		expect(output!.every((o, i) => o.pairedItem && (o.pairedItem as { item: number }).item === i && typeof o.json.id === 'number')).toBe(true);
		expect(most).toBe(4);
		// The first four went at once; the fifth, free to go when the first ended, waited for the second.
		expect(log.slice(0, 4)).toEqual(['start POL-0', 'start POL-500', 'start POL-1000', 'start POL-1500']);
		expect(log.indexOf('start POL-2000')).toBeGreaterThan(log.indexOf('end POL-500'));
	});

	it('continueOnFail: a refused item becomes its own error item (code, fields, request id); the others are filed', async () => {
		const calls: number[] = [];
		batchEndpoint(calls, new Set(['POL-2']));
		const items = rows(4);
		items[1] = { ...items[1], state_code: 'XX' };
		// The locally refused row (POL-1) is not looked for.
		const lists = policyListings([items[0], items[2], items[3]]);
		const { output } = await run(jsonParams('createMany'), { items, key: KEYS.t3, continueOnFail: true });
		lists.forEach((l) => l.done());
		expect(calls).toEqual([3]);
		expect(output!.map((o) => o.json.code ?? o.json.id)).toEqual([1, 'INVALID_INPUT', 'VALIDATION_ERROR', 2]);
		expect(output![1].json.fields).toEqual(['state_code: "XX" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)']);
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
		// The row as a sheet with a header row shows it, beside n8n's item index: n8n adds its own "[item 2]".
		expect(error!.message).toBe('Row 4 (item 2): Invalid input, nothing was sent: effective_date: Must be a valid date');
		expect(error!.description).toContain('No invoice was filed.');
		expect(trap.isDone()).toBe(false);
	});

	// Changed: this used to fail the node after 501 invoices were filed, which invited a re-run
	// (or Retry On Fail) that filed them again. Once calls are made, every row comes out.
	it('without continueOnFail every chunk is still sent and the node does not fail: the refused row is an error item, a warning lists it', async () => {
		const calls: number[] = [];
		batchEndpoint(calls, new Set(['POL-3']));
		const account = accountListing();
		const { output, error, run: result } = await run(jsonParams('createMany'), { items: rows(502), key: KEYS.t3 });
		account.done();
		expect(calls).toEqual([500, 2]);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(502);
		expect(output![3].json).toMatchObject({
			error: 'The service refused the data (HTTP 422 VALIDATION_ERROR): Validation failed',
			code: 'VALIDATION_ERROR',
			fields: ['insurers: insurers[0].company_id 999 does not match any company'],
			requestId: 'req_batch1',
			summary: '1 of 502 rows not filed',
		});
		expect(output!.filter((o) => o.json.id !== undefined)).toHaveLength(501);
		expect(output!.map((o) => o.pairedItem)).toEqual(output!.map((_, item) => ({ item })));
		expect(summaryParts(output!, 502, hintsOf(result)[0].message)).toMatchObject({ filed: 501, refused: 1, sentAgain: 0 });
		expect(hintsOf(result)).toEqual([
			{ type: 'info', location: 'outputPane', message: expect.any(String) },
			{
				type: 'warning',
				location: 'outputPane',
				message: `1 of 502 rows refused: row 5 (item 3, policy POL-3).${NUMBERING} The rows not filed come out as error items: fix them and run again (rows already filed come back as replayed or already_filed, not filed twice).`,
			},
		]);
	});

	it('the not-filed list is complete (no truncation), in the warning', async () => {
		const calls: number[] = [];
		const refused = Array.from({ length: 30 }, (_, i) => i * 2);
		batchEndpoint(calls, new Set(refused.map((i) => `POL-${i}`)));
		const account = accountListing();
		const { output, error, run: result } = await run(jsonParams('createMany'), { items: rows(60), key: KEYS.t3 });
		expect(error).toBeUndefined();
		account.done();
		expect(calls).toEqual([60]);
		expect(output!.filter((o) => o.json.code === 'VALIDATION_ERROR').map((o) => (o.pairedItem as { item: number }).item)).toEqual(refused);
		expect(summaryParts(output!, 60, hintsOf(result)[0].message)).toMatchObject({ filed: 30, refused: 30 });
		expect(hintsOf(result)[1].message).toContain(`rows ${refused.map((i) => `${i + 2} (item ${i}, policy POL-${i})`).join(', ')}.${NUMBERING} The rows not filed`);
	});

	it('a locally bad row names every other bad row, without truncation', async () => {
		const items = rows(40).map((r, i) => (i % 2 ? r : { ...r, effective_date: 'x' }));
		const trap = nock(API).post('/invoices/batch').reply(200, envelope({ results: [] }));
		const { error } = await run(jsonParams('createMany'), { items, key: KEYS.t3 });
		const others = Array.from({ length: 19 }, (_, i) => (i + 1) * 2);
		expect(error!.description).toContain(`20 of 40 rows failed (also rows ${others.map((i) => i + 2).join(', ')} (items ${others.join(', ')})).`);
		expect(trap.isDone()).toBe(false);
	});

	it('t3: each batch item carries its row’s key, derived exactly as a single Create derives it; own keys stay in the batch', async () => {
		const bodies = rows(3);
		const items = bodies.map((body, i) => ({ body, key: i === 2 ? 'own-2' : '' }));
		let sent: IDataObject[] = [];
		let header: unknown;
		nock(API)
			.post('/invoices/batch')
			.reply(function (_uri, body) {
				header = this.req.headers['idempotency-key'];
				sent = (body as { invoices: IDataObject[] }).invoices;
				return [200, envelope({ results: sent.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, 90 + index) })) })];
			});
		const single = nock(API).post('/invoices').reply(201, envelope({}));
		// Each row looked for on its policy first (own key too): none is there.
		const lists = policyListings(bodies);
		const { output, error } = await run(
			{
				operation: 'createMany',
				inputMode: 'json',
				invoiceJson: '={{ JSON.stringify($json.body) }}',
				idempotency: '={{ $json.key ? "own" : "derived" }}',
				idempotencyKey: '={{ $json.key }}',
			},
			{ items, key: KEYS.t3 },
		);
		expect(error).toBeUndefined();
		expect(sent.map((i) => i.idempotency_key)).toEqual([derivedKey(bodies[0]), derivedKey(bodies[1]), 'own-2']);
		expect(sent.map(withoutKey)).toEqual(bodies.map(asSent));
		expect(header).toBeUndefined();
		expect(output!.map((o) => [o.json.id, o.json.outcome])).toEqual([[90, 'filed'], [91, 'filed'], [92, 'filed']]);
		expect(single.isDone()).toBe(false);
		lists.forEach((l) => l.done());
	});

	it('t3: a replayed batch item (replayed: true, filed since the look, e.g. by a concurrent run) comes out as outcome replayed, said to be the first filing’s reply, no extra call; the hint counts it', async () => {
		const items = rows(3);
		// The policies' listings do not hold the rows yet: the key settles them.
		const lists = policyListings(items);
		nock(API)
			.post('/invoices/batch')
			.reply(200, envelope({ results: items.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, 40 + index, { created: '2026-11-20 08:00:00' }), ...(index < 2 ? { replayed: true } : {}) })) }));
		const never = nock(API).get(/\/invoices\/\d+/).reply(200, envelope({}));
		const { output, run: result } = await run(jsonParams('createMany', { simplify: true }), { items, key: KEYS.t3 });
		lists.forEach((l) => l.done());
		expect(output!.map((o) => [o.json.outcome, o.json._replayed])).toEqual([['replayed', true], ['replayed', true], ['filed', undefined]]);
		expect(output![0].json.outcomeNote).toContain('reply of the first filing (created 2026-11-20 08:00:00, US Central)');
		expect(hintsOf(result)).toEqual([{ type: 'info', location: 'outputPane', message: expect.any(String) }]);
		expect(summaryParts(output!, 3, hintsOf(result)[0].message)).toMatchObject({ filed: 1, replayed: 2, alreadyFiled: 0 });
		expect(never.isDone()).toBe(false);
	});

	it('t3: Replayed Invoices Show: Their Status Now reads each replayed invoice again', async () => {
		const items = rows(1);
		nock(API).post('/invoices/batch').reply(200, envelope({ results: [{ index: 0, success: true, replayed: true, invoice: invoiceFor(items[0], 44) }] }));
		const reread = nock(API).get('/invoices/44').reply(200, envelope(invoiceFor(items[0], 44, { status: 'success', filed: true })));
		// The policy's listing does not hold the row yet (a concurrent run): the key replays it.
		const [list] = policyListings(items);
		const { output } = await run(jsonParams('createMany', { simplify: true, options: { replayedView: 'current' } }), { items, key: KEYS.t3 });
		expect(output![0].json).toMatchObject({ id: 44, status: 'success', outcome: 'replayed' });
		list.done();
		reread.done();
	});

	// Accounts with the feature look too: a key replays for 24 hours only, so a re-run a day later
	// is stopped by the mark on the policy's listing.
	it.each([
		['without idempotency', true],
		['with idempotency', false],
	])('t3 on an account %s: rows already on their policy are not sent; the rest go in one batch', async (_account, legacy) => {
		if (legacy) legacyAccount();
		const items = rows(3);
		const lists = items.map((item, i) =>
			nock(API)
				.get('/invoices')
				.query({ policy_number: item.policy_number as string, page: 1, per_page: 100 })
				.reply(200, listingReply(i === 1 ? [invoiceFor(item, 61, { status: 'sent' })] : [])),
		);
		let sent: IDataObject[] = [];
		nock(API)
			.post('/invoices/batch')
			.reply(200, (_uri, body) => {
				sent = (body as { invoices: IDataObject[] }).invoices;
				return envelope({ results: sent.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, 70 + index) })) });
			});
		const { output, run: result } = await run(jsonParams('createMany', { simplify: true }), { items, key: KEYS.t3 });
		expect(sent.map((i) => i.policy_number)).toEqual(['POL-0', 'POL-2']);
		expect(output!.map((o) => [o.json.id, o.json.outcome, o.json.status])).toEqual([
			[70, 'filed', 'new'],
			[61, 'already_filed', 'sent'],
			[71, 'filed', 'new'],
		]);
		expect(output![1].json.recognisedBy).toBe(`mark ${asSent(items[1]).invoice_number}`);
		expect(summaryParts(output!, 3, hintsOf(result)[0].message)).toMatchObject({ filed: 2, alreadyFiled: 1, replayed: 0 });
		lists.forEach((l) => l.done());
	});

	it('t3 on an account without idempotency: the policies are looked up several at once, each once, and the rows keep their order', async () => {
		legacyAccount();
		// A second row of POL-3: an endorsement (a second New of the term would be refused before any call).
		const items = [...rows(40), row({ policy_number: 'POL-3', net_premium: 999, type_code: 'ENDORSEMENT' })];
		// 40 policies: the account's listing is asked first; at 50 pages it would take more calls
		// than the 40 policies' own listings, so each policy is listed.
		const account = nock(API)
			.get('/invoices')
			.query({ page: 1, per_page: 100 })
			.reply(200, envelope({ invoices: [], pagination: { page: 1, per_page: 100, total: 5000 } }));
		let open = 0;
		let mostOpen = 0;
		const listed: string[] = [];
		// The first look-ups are held until two are open at once (a node that looked one by one
		// would never get there, and the fallback would release it with mostOpen 1).
		const gate = peakGate([2], () => open);
		nock(API)
			.get('/invoices')
			.query(true)
			.times(41)
			.reply((uri, _body, callback) => {
				listed.push(new URL(uri, API).searchParams.get('policy_number') ?? '');
				mostOpen = Math.max(mostOpen, ++open);
				gate.hold(() => {
					open--;
					callback(null, [200, listingReply([])]);
				});
			});
		let sent: IDataObject[] = [];
		nock(API)
			.post('/invoices/batch')
			.reply(200, (_uri, body) => {
				sent = (body as { invoices: IDataObject[] }).invoices;
				return envelope({ results: sent.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, 100 + index) })) });
			});
		const { output, error } = await run(jsonParams('createMany', { simplify: true }), { items, key: KEYS.t3 });
		gate.close();
		expect(error).toBeUndefined();
		expect(mostOpen).toBeGreaterThan(1);
		account.done();
		expect(listed.sort()).toEqual([...new Set(items.map((i) => String(i.policy_number)))].sort());
		expect(sent.map((i) => i.policy_number)).toEqual(items.map((i) => i.policy_number));
		expect(output!.map((o) => o.json.outcome)).toEqual(items.map(() => 'filed'));
	});

	// Without the look first (the test is about the key alone): a look would find the filing by its
	// mark before any batch call.
	it('t3: a CONFLICT on a derived key (filed earlier with other tax lines) finds that filing on the policy', async () => {
		const items = rows(1);
		const batch = nock(API).post('/invoices/batch').reply(200, envelope({ results: [{ index: 0, success: false, error: { code: 'CONFLICT', message: 'idempotency_key was already used with a different invoice' } }] }));
		const list = nock(API)
			.get('/invoices')
			.query({ policy_number: 'POL-0', page: 1, per_page: 100 })
			.reply(200, listingReply([invoiceFor({ ...asSent(items[0]), fees: [{ type: 'sl_tax', amount: 5 }] }, 33)]));
		const { output, error } = await run(jsonParams('createMany', { options: { lookFirst: false } }), { items, key: KEYS.t3 });
		expect(error).toBeUndefined();
		batch.done();
		list.done();
		expect(output![0].json).toMatchObject({ id: 33, outcome: 'already_filed' });
		expect(output![0].json.outcomeNote).toContain('same derived Idempotency-Key but a different body');
	});

	it('Simplify is read for each row, not from the first row only', async () => {
		const calls: number[] = [];
		batchEndpoint(calls);
		const items = rows(2).map((r, i) => ({ body: r, simple: i === 1 }));
		const lists = policyListings(items.map((i) => i.body));
		const { output } = await run(
			{ operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json.body) }}', simplify: '={{ $json.simple }}' },
			{ items, key: KEYS.t3 },
		);
		expect(output![0].json.insured_name).toBe('Acme Roofing LLC');
		expect(output![1].json).not.toHaveProperty('insured_name');
		expect(output![1].json).toHaveProperty('fees_total', 0);
		lists.forEach((l) => l.done());
		expect(calls).toEqual([2]);
	});

	it('t2: one create per item, each looked for on its policy first, each with its own Idempotency-Key', async () => {
		const items = rows(3);
		// Not on their policies yet; the second is replayed by its key (filed since the look).
		const lists = policyListings(items);
		const scopes = items.map((body, i) =>
			nock(API, { reqheaders: { 'idempotency-key': derivedKey(body) } })
				.post('/invoices', asSent(body))
				.reply(201, envelope(invoiceFor(body, 10 + i)), i === 1 ? { 'Idempotent-Replayed': 'true' } : {}),
		);
		const trap = nock(API).post('/invoices/batch').reply(200, envelope({}));
		const { output, error } = await run(jsonParams('createMany'), { items, key: KEYS.t2 });
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.id, o.json._replayed])).toEqual([[10, undefined], [11, true], [12, undefined]]);
		lists.forEach((l) => l.done());
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

	it('a lost batch reply, keys honoured: the same batch is sent again, with no second look; stored rows come back replayed', async () => {
		const items = rows(2);
		const bodies: unknown[] = [];
		// The look first, before the batch: neither row is there yet.
		const lists = policyListings(items);
		nock(API)
			.post('/invoices/batch')
			.reply(504, (_uri, body) => {
				bodies.push(body);
				return GATEWAY_TIMEOUT;
			})
			.post('/invoices/batch')
			.reply(200, (_uri, body) => {
				bodies.push(body);
				return envelope({ results: [{ index: 0, success: true, replayed: true, invoice: invoiceFor(items[0], 501) }, { index: 1, success: true, invoice: invoiceFor(items[1], 502) }] });
			});
		const never = nock(API).get('/invoices').query(true).reply(200, listingReply([]));
		const { output, error } = await run(jsonParams('createMany'), { items, key: KEYS.t3 });
		expect(error).toBeUndefined();
		lists.forEach((l) => l.done());
		// The replayed row is this run's own lost batch, stored: filed now, recovered by its key.
		expect(output!.map((o) => [o.json.id, o.json.outcome, o.json._recovered])).toEqual([[501, 'filed', true], [502, 'filed', undefined]]);
		expect(output![0].json.outcomeNote).toContain('sent again with the same Idempotency-Key');
		expect(bodies[1]).toEqual(bodies[0]);
		expect(never.isDone()).toBe(false);
	});

	it('a lost batch reply on an account without keys: stored rows are recovered from the policy list, the rest filed one by one and marked sent_again', async () => {
		legacyAccount();
		const items = rows(2);
		const list = (policy: string, invoices: IDataObject[]) =>
			nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 }).reply(200, listingReply(invoices));
		list('POL-0', []); // looked for first: not there
		list('POL-1', []);
		const batch = nock(API).post('/invoices/batch').reply(504, GATEWAY_TIMEOUT);
		list('POL-0', [invoiceFor(items[0], 501)]);
		list('POL-1', []);
		const single = nock(API).post('/invoices', asSent(items[1])).reply(201, envelope(invoiceFor(items[1], 502)));
		const { output, error, run: result } = await run(jsonParams('createMany'), { items, key: KEYS.t3 });
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.id, o.json.outcome, o.json._recovered])).toEqual([[501, 'filed', true], [502, 'sent_again', undefined]]);
		expect(output![1].json.outcomeNote).toContain('policy POL-1 holds it twice');
		expect(summaryParts(output!, 2, hintsOf(result)[0].message)).toMatchObject({ filed: 1, sentAgain: 1 });
		batch.done();
		single.done();
	});

	it('fails the node like any other when the whole batch is refused and nothing was filed', async () => {
		const batch = nock(API).post('/invoices/batch').reply(403, failure('TIER_REQUIRED', 'Requires t3', undefined, 'req_403'));
		const lists = policyListings(rows(2));
		const { error, output } = await run(jsonParams('createMany'), { items: rows(2), key: KEYS.t3 });
		lists.forEach((l) => l.done());
		batch.done();
		expect(output).toBeUndefined();
		expect(error!.message).toBe('This operation needs a higher key tier (HTTP 403 TIER_REQUIRED): Requires t3');
	});

	it('a refused batch call (e.g. 403) fails every item of that chunk', async () => {
		const batch = nock(API).post('/invoices/batch').reply(403, failure('TIER_REQUIRED', 'Requires t3', undefined, 'req_403'));
		const lists = policyListings(rows(2));
		const { output } = await run(jsonParams('createMany'), { items: rows(2), key: KEYS.t3, continueOnFail: true });
		lists.forEach((l) => l.done());
		batch.done();
		expect(output!.map((o) => [o.json.code, o.json.requestId])).toEqual([['TIER_REQUIRED', 'req_403'], ['TIER_REQUIRED', 'req_403']]);
	});
});
