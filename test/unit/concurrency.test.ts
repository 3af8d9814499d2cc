/**
 * Items in parallel (the router's promise pool) within one rate budget per key (the transport's
 * turn-taking). The server is nock with replies delayed on real timers, so requests overlap for
 * real; the transport's waits run on the fake clock, so the virtual time of each request's
 * arrival shows what it waited for.
 */
import { ExecuteContext } from 'n8n-core';
import nock from 'nock';

import { resources as calculatorResources } from '../../nodes/SurplusLinesCalculator/actions/resources';
import { resources as documentResources } from '../../nodes/SurplusLinesDocument/actions/resources';
import { resources as invoiceResources } from '../../nodes/SurplusLinesInvoice/actions/resources';
import { resources as referenceResources } from '../../nodes/SurplusLinesReference/actions/resources';
import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, itemsInFlight, readsWhileUnknown } from '../../nodes/shared/concurrency';
import { callAnswered, callsLeft, forgetRateLimits, takeTurn } from '../../nodes/shared/rateLimit';
import { runNode } from '../harness/engine';
import { ProbeNode } from '../harness/probeNode';
import type { useFakeClock } from '../helpers/fakeClock';
import { useNockSuite } from '../helpers/nockSuite';
import { peakGate } from '../helpers/peakGate';

const KEY = 'sltax_t2_0123456789abcdefghijklmnopqrstuv';
const BASE = 'https://sl.example.com';
const API = `${BASE}/api/v1`;
const credentials = { apiKey: KEY, baseUrl: BASE };

const suite = useNockSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	fake = suite();
});

function envelope(data: unknown): nock.Body {
	return { success: true, data, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: 'req_1', response_time_ms: 1 } };
}
function failure(code: string, message: string): nock.Body {
	return { success: false, error: { code, message }, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: 'req_2', response_time_ms: 1 } };
}

interface Arrival {
	id: number;
	/** Virtual time (fake clock) when the request arrived. */
	at: number;
	/** Requests in flight at the server when it arrived, itself included. */
	inFlight: number;
	status: number;
}

type Answer = { status: number; body: nock.Body; headers?: Record<string, string>; delayMs?: number };

let gates: Array<ReturnType<typeof peakGate>> = [];
afterEach(() => {
	for (const gate of gates) gate.close();
	gates = [];
});

/**
 * GET /invoices/:id answered by `answer` (called on arrival), after `delayMs` of real time.
 * Records every arrival. With `peaks`, replies are held until that many requests are in flight
 * (test/helpers/peakGate), so the peak a test asserts does not depend on how fast the machine is.
 */
function server(answer: (id: number, arrival: number) => Answer, peaks: number[] = []) {
	const arrivals: Arrival[] = [];
	let inFlight = 0;
	const gate = peakGate(peaks, () => inFlight);
	gates.push(gate);
	nock(API)
		.persist()
		.get(/\/invoices\/\d+$/)
		.reply((uri, _body, callback) => {
			const id = Number(uri.split('/').pop());
			inFlight++;
			const reply = answer(id, arrivals.length);
			arrivals.push({ id, at: fake.nowSeconds(), inFlight, status: reply.status });
			gate.hold(() =>
				setTimeout(() => {
					inFlight--;
					callback(null, [reply.status, reply.body, reply.headers ?? {}]);
				}, reply.delayMs ?? 20),
			);
		});
	return arrivals;
}

const ok = (id: number, delayMs = 20, headers: Record<string, string> = {}): Answer => ({
	status: 200,
	body: envelope({ id }),
	headers,
	delayMs,
});

type GetOptions = { concurrency?: number; continueOnFail?: boolean; maxRateLimitWaitSeconds?: number; mostInFlight?: number; onlyReads?: boolean; apiKey?: string };

function getEach(ids: number[], options: GetOptions = {}) {
	const { continueOnFail, mostInFlight, onlyReads, apiKey, ...requestOptions } = options;
	return runNode({
		node: new ProbeNode(),
		parameters: {
			method: 'GET',
			path: '={{ "/invoices/" + $json.id }}',
			requestOptions,
			...(mostInFlight ? { mostInFlight } : {}),
			...(onlyReads ? { onlyReads } : {}),
		},
		credentials: apiKey ? { ...credentials, apiKey } : credentials,
		items: ids.map((id) => ({ id })),
		continueOnFail,
	});
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('items in parallel', () => {
	it('keeps output order and pairing when later items are answered first', async () => {
		// Item 1 is answered last, item 30 first (real time).
		const arrivals = server((id) => ok(id, 20 + (30 - id) * 6), [DEFAULT_CONCURRENCY]);
		const { output, error } = await getEach(ids(30));
		expect(error).toBeUndefined();
		expect(output!.map((o) => (o.json.data as { id: number }).id)).toEqual(ids(30));
		expect(output!.map((o) => o.pairedItem)).toEqual(ids(30).map((id) => ({ item: id - 1 })));
		// The key's budget is not known (no rate-limit headers): up to 25 at once from the start.
		const most = Math.max(...arrivals.map((a) => a.inFlight));
		expect(most).toBe(DEFAULT_CONCURRENCY);
	});

	it('runs items one by one with Concurrency 1', async () => {
		const arrivals = server((id) => ok(id));
		const { output } = await getEach(ids(4), { concurrency: 1 });
		expect(output).toHaveLength(4);
		expect(arrivals.map((a) => [a.id, a.inFlight])).toEqual(ids(4).map((id) => [id, 1]));
	});

	it('continue-on-fail: each failing item becomes its own error item, in its place', async () => {
		server((id) =>
			id % 3 === 0
				? { status: 404, body: failure('NOT_FOUND', `Invoice ${id} not found`), delayMs: 10 }
				: ok(id, 40 - id),
		);
		const { output } = await getEach(ids(7), { continueOnFail: true, concurrency: 4 });
		expect(output!.map((o) => o.pairedItem)).toEqual(ids(7).map((id) => ({ item: id - 1 })));
		expect(output!.map((o) => (o.json.code as string) ?? (o.json.data as { id: number }).id)).toEqual([
			1, 2, 'NOT_FOUND', 4, 5, 'NOT_FOUND', 7,
		]);
		expect(output![2].json.error).toContain('Invoice 3 not found');
	});

	it('without continue-on-fail: fails on the first failing item and starts no item after it', async () => {
		// Items 3 and 5 fail; item 5 is answered first, but the run fails on item 3, as one by one.
		const arrivals = server((id) =>
			id === 3 || id === 5
				? { status: 404, body: failure('NOT_FOUND', `Invoice ${id} not found`), delayMs: id === 3 ? 60 : 5 }
				: ok(id),
		);
		const { error } = await getEach(ids(40), { concurrency: 4 });
		expect(error!.message).toContain('Invoice 3 not found');
		expect(error!.context?.itemIndex).toBe(2);
		// Items already in flight finish; none is started once a failure is known.
		expect(Math.max(...arrivals.map((a) => a.id))).toBeLessThan(10);
	});
});

describe('items changing the same invoice', () => {
	it('run in item order, while other invoices go in parallel', async () => {
		const log: string[] = [];
		nock(API)
			.persist()
			.put(/\/invoices\/\d+$/)
			.reply((uri, body, callback) => {
				const id = Number(uri.split('/').pop());
				const { commission } = body as { commission: number };
				log.push(`start ${id}:${commission}`);
				// The first update of invoice 7 is the slowest reply.
				setTimeout(() => {
					log.push(`end ${id}:${commission}`);
					callback(null, [200, envelope({ id, commission })]);
				}, commission === 1 ? 120 : 10);
			});
		const { output, error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: {
				resource: 'invoice',
				operation: 'update',
				invoiceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				inputMode: 'json',
				invoiceJson: '={{ JSON.stringify({ commission: $json.commission }) }}',
			},
			credentials,
			items: [
				{ id: 5, commission: 0 },
				{ id: 7, commission: 1 },
				{ id: 8, commission: 2 },
				{ id: 7, commission: 3 },
			],
		});
		expect(error).toBeUndefined();
		expect(output!.map((o) => o.json.commission)).toEqual([0, 1, 2, 3]);
		// Invoice 8 did not wait for invoice 7; the second update of 7 waited for the first.
		expect(log.indexOf('start 8:2')).toBeLessThan(log.indexOf('end 7:1'));
		expect(log.indexOf('start 7:3')).toBeGreaterThan(log.indexOf('end 7:1'));
	});
});

describe('one rate budget for all items in flight', () => {
	it('one 429 holds back every request until its Retry-After, then one call goes before the rest', async () => {
		const reset = String(fake.nowSeconds() + 3600);
		let refused = false;
		const arrivals = server((id, n) => {
			if (n === 3 && !refused) {
				refused = true;
				return { status: 429, body: failure('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded'), headers: { 'Retry-After': '30' }, delayMs: 5 };
			}
			return ok(id, 40, { 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '500', 'X-RateLimit-Reset': reset });
		});
		const start = fake.nowSeconds();
		const { output, error } = await getEach(ids(12), { concurrency: 5 });
		expect(error).toBeUndefined();
		expect(output!.map((o) => (o.json.data as { id: number }).id)).toEqual(ids(12));

		expect(arrivals.filter((a) => a.status === 429)).toHaveLength(1);
		const refusedAt = arrivals.findIndex((a) => a.status === 429);
		const afterRefusal = arrivals.slice(refusedAt + 1);
		// Requests already in flight were sent before the 429 (same virtual time); every request
		// sent after it waited the 30 s.
		const sentLater = afterRefusal.filter((a) => a.at > start);
		const sentBefore = afterRefusal.filter((a) => a.at === start);
		expect(sentBefore.length).toBeLessThan(5);
		expect(sentLater.length + sentBefore.length).toBe(12 + 1 - (refusedAt + 1));
		for (const a of sentLater) expect(a.at).toBeGreaterThanOrEqual(start + 30);
		// After the wait, the first call went alone; the others followed its reply.
		expect(sentLater[0].inFlight).toBe(1);
		expect(fake.sleeps.every((ms) => ms <= 30_000)).toBe(true);
		expect(fake.sleeps).toContain(30_000);
	});

	it('once the figures are known, never sends more calls than the window has left, whatever the concurrency; the rest wait for the reset', async () => {
		const reset = fake.nowSeconds() + 600;
		let left = 5;
		const arrivals = server((id) => {
			const now = fake.nowSeconds();
			if (now >= reset) return ok(id, 10, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99', 'X-RateLimit-Reset': String(reset + 3600) });
			left--;
			if (left < 0) return { status: 429, body: failure('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded'), headers: { 'Retry-After': String(reset - now) } };
			return ok(id, 10, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': String(left), 'X-RateLimit-Reset': String(reset) });
		});
		const start = fake.nowSeconds();
		// An earlier run told the figures: 4 calls left.
		await getEach([100]);
		const { output, error } = await getEach(ids(10), { concurrency: 10, maxRateLimitWaitSeconds: 900 });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(10);
		const run = arrivals.slice(1);
		expect(run.filter((a) => a.status === 429)).toHaveLength(0);
		expect(run.filter((a) => a.at === start)).toHaveLength(4);
		for (const a of run.slice(4)) expect(a.at).toBeGreaterThanOrEqual(reset);
	});
});

describe('credential', () => {
	it('is read once per execution, however many items and calls', async () => {
		const reads = jest.spyOn(ExecuteContext.prototype, 'getCredentials');
		try {
			server((id) => ok(id, 5));
			const { output } = await getEach(ids(25));
			expect(output).toHaveLength(25);
			// One read checked by the package, one handed to n8n's request helper for every call
			// (which would otherwise read it again per call).
			expect(reads).toHaveBeenCalledTimes(2);
		} finally {
			reads.mockRestore();
		}
	});
});

describe('items in flight follow the key’s budget', () => {
	const budget = (remaining: number) => ({
		'X-RateLimit-Limit': '100000',
		'X-RateLimit-Remaining': String(remaining),
		'X-RateLimit-Reset': String(fake.nowSeconds() + 3600),
	});
	const most = (arrivals: Arrival[]) => Math.max(...arrivals.map((a) => a.inFlight));

	it('the rule: the user’s Concurrency when set; else a quarter of the calls left, from 25 to 200; 25 while unknown', () => {
		expect(itemsInFlight(undefined, undefined)).toBe(DEFAULT_CONCURRENCY);
		expect(itemsInFlight(100_000, undefined)).toBe(MAX_CONCURRENCY);
		expect(itemsInFlight(400, undefined)).toBe(100);
		expect(itemsInFlight(60, undefined)).toBe(DEFAULT_CONCURRENCY);
		expect(itemsInFlight(0, undefined)).toBe(DEFAULT_CONCURRENCY);
		expect(itemsInFlight(100_000, 40)).toBe(40);
		expect(itemsInFlight(undefined, 300)).toBe(300);
		expect(itemsInFlight(100_000, undefined, 25)).toBe(25);
		expect(itemsInFlight(undefined, undefined, 10)).toBe(10);
	});

	it('a read while the budget is unknown starts with a quarter of its tier’s hour, within the same bounds', () => {
		expect([readsWhileUnknown('t1'), readsWhileUnknown('t2'), readsWhileUnknown('t3')]).toEqual([25, 250, 1250]);
		expect(itemsInFlight(undefined, undefined, MAX_CONCURRENCY, readsWhileUnknown('t2'))).toBe(MAX_CONCURRENCY);
		expect(itemsInFlight(undefined, undefined, MAX_CONCURRENCY, readsWhileUnknown('t1'))).toBe(DEFAULT_CONCURRENCY);
		// Once a reply tells the budget, the calls left decide, for reads as for the rest.
		expect(itemsInFlight(400, undefined, MAX_CONCURRENCY, readsWhileUnknown('t3'))).toBe(100);
		expect(itemsInFlight(60, undefined, MAX_CONCURRENCY, readsWhileUnknown('t3'))).toBe(DEFAULT_CONCURRENCY);
		// An operation's own most and the user's Concurrency still bound it.
		expect(itemsInFlight(undefined, undefined, DEFAULT_CONCURRENCY, readsWhileUnknown('t3'))).toBe(DEFAULT_CONCURRENCY);
		expect(itemsInFlight(undefined, 10, MAX_CONCURRENCY, readsWhileUnknown('t3'))).toBe(10);
	});

	it('the operations that only read are the ones that store, change and file nothing', () => {
		const reads: string[] = [];
		const all: string[] = [];
		for (const [node, map] of Object.entries({ invoice: invoiceResources, document: documentResources, calculator: calculatorResources, reference: referenceResources })) {
			for (const [resource, operations] of Object.entries(map)) {
				for (const [operation, module] of Object.entries(operations)) {
					const name = `${node}:${resource}.${operation}`;
					all.push(name);
					if (module.onlyReads) reads.push(name);
				}
			}
		}
		const writes = all.filter((name) => !reads.includes(name));
		expect(writes.sort()).toEqual(
			[
				'document:document.attach',
				'document:document.delete',
				'invoice:invoice.checkSheet',
				'invoice:invoice.correctFilings',
				'invoice:invoice.create',
				'invoice:invoice.createMany',
				'invoice:invoice.delete',
				'invoice:invoice.update',
				'invoice:invoice.watchLook',
				'invoice:invoice.watchRecord',
			].sort(),
		);
		expect(reads).toEqual(expect.arrayContaining(['invoice:invoice.get', 'invoice:invoice.getAll', 'invoice:invoice.preview', 'document:document.get', 'calculator:tax.estimate', 'reference:referenceData.getStates']));
	});

	it('the calls left are the freshest reply’s, the full limit once its window has reset, unknown after a 429', () => {
		const now = fake.nowSeconds() * 1000;
		expect(callsLeft('k', now)).toBeUndefined();
		expect(takeTurn('k', now)).toEqual({ go: true });
		callAnswered('k', now, { replied: true, info: { limit: 1000, remaining: 40, reset: now / 1000 + 60 } });
		expect(callsLeft('k', now)).toBe(40);
		expect(callsLeft('k', now + 61_000)).toBe(1000);
		expect(takeTurn('k', now)).toEqual({ go: true });
		callAnswered('k', now, { replied: true, retryAfterMs: 30_000 });
		expect(callsLeft('k', now + 31_000)).toBeUndefined();
	});

	it('unknown budget (no rate-limit headers): 25 in flight', async () => {
		const arrivals = server((id) => ok(id), [DEFAULT_CONCURRENCY]);
		const { output } = await getEach(ids(80));
		expect(output).toHaveLength(80);
		expect(most(arrivals)).toBe(DEFAULT_CONCURRENCY);
	});

	it('a read on a t2 key not yet heard from: 200 in flight from the start, before any reply', async () => {
		const arrivals = server((id) => ok(id, 40, budget(99_000)), [MAX_CONCURRENCY]);
		const { output, error } = await getEach(ids(300), { onlyReads: true });
		expect(error).toBeUndefined();
		expect(output!.map((o) => (o.json.data as { id: number }).id)).toEqual(ids(300));
		expect(most(arrivals.slice(0, MAX_CONCURRENCY))).toBe(MAX_CONCURRENCY);
	});

	it('a read on a t1 key not yet heard from: 25 in flight (a quarter of its 100 calls an hour)', async () => {
		const arrivals = server((id) => ok(id), [DEFAULT_CONCURRENCY]);
		const { output } = await getEach(ids(80), { onlyReads: true, apiKey: 'sltax_t1_0123456789abcdefghijklmnopqrstuv' });
		expect(output).toHaveLength(80);
		expect(most(arrivals)).toBe(DEFAULT_CONCURRENCY);
	});

	it('ample budget: 25 until the first reply tells it, then up to 200 in flight', async () => {
		const arrivals = server((id) => ok(id, 40, budget(99_000)), [DEFAULT_CONCURRENCY, MAX_CONCURRENCY]);
		const { output, error } = await getEach(ids(300));
		expect(error).toBeUndefined();
		expect(output!.map((o) => (o.json.data as { id: number }).id)).toEqual(ids(300));
		expect(most(arrivals.slice(0, DEFAULT_CONCURRENCY))).toBe(DEFAULT_CONCURRENCY);
		expect(most(arrivals)).toBe(MAX_CONCURRENCY);
	});

	it('a budget of 400 calls left: a quarter of it, 100 in flight', async () => {
		const arrivals = server((id) => ok(id, 40, budget(400)), [DEFAULT_CONCURRENCY, 100]);
		await getEach(ids(150));
		expect(most(arrivals)).toBe(100);
	});

	it('tight budget (60 calls left): 25 in flight', async () => {
		const arrivals = server((id) => ok(id, 20, budget(60)), [DEFAULT_CONCURRENCY]);
		await getEach(ids(80));
		expect(most(arrivals)).toBe(DEFAULT_CONCURRENCY);
	});

	it.each([
		{ kind: 'an operation that stores', onlyReads: false, firstWave: DEFAULT_CONCURRENCY },
		{ kind: 'a read (its tier’s first wave)', onlyReads: true, firstWave: MAX_CONCURRENCY },
	])('a 429, $kind: only the first wave meets it, every item waits its Retry-After, one call goes alone, then the reply’s figures set the count again', async ({ onlyReads, firstWave }) => {
		// The window is spent when the run starts (another workflow used it up) and opens in 30 s.
		const start = fake.nowSeconds();
		const arrivals = server((id) =>
			fake.nowSeconds() < start + 30
				? { status: 429, body: failure('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded'), headers: { 'Retry-After': String(start + 30 - fake.nowSeconds()) }, delayMs: 5 }
				: ok(id, 40, budget(99_000)),
			[firstWave, 1, MAX_CONCURRENCY],
		);
		const { output, error } = await getEach(ids(300), { onlyReads });
		expect(error).toBeUndefined();
		expect(output!.map((o) => (o.json.data as { id: number }).id)).toEqual(ids(300));
		// Only the first wave, sent before any reply, met the closed window.
		const refused = arrivals.filter((a) => a.status === 429);
		expect(refused.length).toBeGreaterThanOrEqual(1);
		expect(refused.length).toBeLessThanOrEqual(firstWave);
		expect(most(arrivals.slice(0, refused.length))).toBe(firstWave);
		const after = arrivals.slice(refused.length);
		expect(after.every((a) => a.at >= start + 30)).toBe(true);
		expect(after[0].inFlight).toBe(1);
		expect(most(after)).toBe(MAX_CONCURRENCY);
	});

	it('an operation that holds much per item (Download: its file) keeps its own most, whatever the budget', async () => {
		const arrivals = server((id) => ok(id, 40, budget(99_000)), [DEFAULT_CONCURRENCY, 30]);
		await getEach(ids(120), { mostInFlight: 30 });
		expect(most(arrivals)).toBe(30);
		expect(documentResources.document.download.mostInFlight).toBe(DEFAULT_CONCURRENCY);
	});

	it('the user’s Concurrency bounds it, with an ample budget or none known', async () => {
		let arrivals = server((id) => ok(id, 40, budget(99_000)), [40]);
		await getEach(ids(120), { concurrency: 40 });
		expect(most(arrivals)).toBe(40);
		nock.cleanAll();
		forgetRateLimits();
		arrivals = server((id) => ok(id), [60]);
		await getEach(ids(120), { concurrency: 60 });
		expect(most(arrivals)).toBe(60);
	});
});
