import nock from 'nock';

import { checkApiKey, checkBaseUrl } from '../../nodes/shared/credentials';
import { redactKeys } from '../../nodes/shared/errors';
import { canonicalJson } from '../../nodes/filing/canonical';
import { deriveIdempotencyKey, idempotencyKeyProblem } from '../../nodes/filing/idempotency';
import { runNode } from '../harness/engine';
import { ProbeNode } from '../harness/probeNode';
import type { useFakeClock } from '../helpers/fakeClock';
import { useNockSuite } from '../helpers/nockSuite';
import { scriptedServer } from '../helpers/scriptedServer';

const KEY = 'sltax_t2_0123456789abcdefghijklmnopqrstuv';
const BASE = 'https://sl.example.com';
const API = `${BASE}/api/v1`;
const credentials = { apiKey: KEY, baseUrl: BASE };

function envelope(data: unknown, requestId = 'req_ok1') {
	return { success: true, data, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: requestId, response_time_ms: 3 } };
}

function failure(code: string, message: string, details?: object, requestId = 'req_fail1') {
	return { success: false, error: { code, message, details }, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: requestId, response_time_ms: 2 } };
}

function probe(parameters: Record<string, unknown>, extra: { continueOnFail?: boolean; credentials?: typeof credentials } = {}) {
	return runNode({
		node: new ProbeNode(),
		parameters: { method: 'GET', path: '/auth/me', ...parameters },
		credentials: extra.credentials ?? credentials,
		continueOnFail: extra.continueOnFail,
	});
}

const suite = useNockSuite();
let fake: ReturnType<typeof useFakeClock>;

// The scripted server for true dropped connections listens on loopback.
beforeAll(() => nock.enableNetConnect('127.0.0.1'));
beforeEach(() => {
	fake = suite();
});

describe('envelope', () => {
	it('returns data, request id and rate-limit figures, sending the Bearer key', async () => {
		const scope = nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } })
			.get('/auth/me')
			.reply(200, envelope({ key_name: 'ops', tier: 't2' }, 'req_abc'), {
				'X-RateLimit-Limit': '1000',
				'X-RateLimit-Remaining': '998',
				'X-RateLimit-Reset': '1795399200',
			});
		const { output, error } = await probe({});
		expect(error).toBeUndefined();
		expect(output![0].json).toEqual({
			data: { key_name: 'ops', tier: 't2' },
			statusCode: 200,
			replayed: false,
			requestId: 'req_abc',
			rateLimit: { limit: 1000, remaining: 998, reset: 1795399200 },
		});
		expect(output![0].pairedItem).toEqual({ item: 0 });
		scope.done();
	});

	it('reports every field-level message and the request id of a 422', async () => {
		nock(API)
			.post('/invoices')
			.reply(
				422,
				failure('VALIDATION_ERROR', 'Validation failed', {
					fields: { state_code: ['Must be a valid state_code'], effective_date: ['This field is required', 'Must be a valid date'] },
				}, 'req_422x'),
			);
		const { error } = await probe({ method: 'POST', path: '/invoices', body: '{"a":1}' });
		expect(error!.message).toBe('The service refused the data (HTTP 422 VALIDATION_ERROR): Validation failed');
		expect(error!.description).toContain('state_code: Must be a valid state_code');
		expect(error!.description).toContain('effective_date: This field is required');
		expect(error!.description).toContain('effective_date: Must be a valid date');
		expect(error!.description).toContain('Request ID: req_422x');
	});

	it('says clearly when the reply is not the envelope (an HTML page from a proxy)', async () => {
		nock(API).get('/auth/me').reply(502, '<html><body>Bad gateway</body></html>', { 'Content-Type': 'text/html' });
		nock(API).get('/auth/me').times(2).reply(200, '<html><body>Login</body></html>', { 'Content-Type': 'text/html' });
		const { error } = await probe({});
		expect(error!.message).toContain("NOT_ENVELOPE");
		expect(error!.message).toContain("the reply is not the service's JSON envelope: <html><body>Login</body></html>");
	});

	it('says so for an empty body', async () => {
		nock(API).get('/auth/me').reply(200, '');
		const { error } = await probe({});
		expect(error!.message).toContain('(empty body)');
	});

	it.each([
		[401, 'UNAUTHORIZED', 'Invalid API key', 'The API key was refused (missing, wrong, revoked or expired) (HTTP 401 UNAUTHORIZED): Invalid API key'],
		[403, 'FORBIDDEN', 'Calculator scope required', 'This API key may not do this (HTTP 403 FORBIDDEN): Calculator scope required'],
		[403, 'TIER_REQUIRED', 'Requires t3', 'This operation needs a higher key tier (HTTP 403 TIER_REQUIRED): Requires t3'],
		[404, 'NOT_FOUND', 'Invoice not found', 'Not found on this key’s account (HTTP 404 NOT_FOUND): Invoice not found'],
		[405, 'METHOD_NOT_ALLOWED', 'Use PUT', 'The service does not allow this method here (HTTP 405 METHOD_NOT_ALLOWED): Use PUT'],
		[409, 'CONFLICT', 'Invoice accepted', 'The service refused a conflicting change (HTTP 409 CONFLICT): Invoice accepted'],
		[400, 'BAD_REQUEST', 'Body is not JSON', 'The service could not read the request (HTTP 400 BAD_REQUEST): Body is not JSON'],
	])('maps %i %s to a clear error, sent once', async (status, code, message, expected) => {
		const scope = nock(API).get('/auth/me').reply(status, failure(code, message));
		const { error } = await probe({});
		expect(error!.message).toBe(expected);
		expect(error!.httpCode).toBe(String(status));
		expect(scope.isDone()).toBe(true);
		expect(fake.sleeps).toEqual([]);
	});

	it('maps a 500 after its retries, quoting the request id', async () => {
		nock(API).get('/auth/me').times(3).reply(500, failure('INTERNAL_ERROR', 'Unexpected', undefined, 'req_500'));
		const { error } = await probe({});
		expect(error!.message).toBe('The service had an internal error (HTTP 500 INTERNAL_ERROR): Unexpected');
		expect(error!.description).toContain('Request ID: req_500');
		expect(fake.sleeps).toEqual([500, 1000]);
	});
});

describe('rate limits', () => {
	it('waits Retry-After on 429 and tries again', async () => {
		nock(API).get('/auth/me').reply(429, failure('RATE_LIMIT_EXCEEDED', 'Too many requests'), { 'Retry-After': '7' });
		nock(API).get('/auth/me').reply(200, envelope({ ok: true }));
		const { output } = await probe({});
		expect(output![0].json.data).toEqual({ ok: true });
		expect(fake.sleeps).toEqual([7000]);
	});

	it('fails past the wait cap with the limit, the ISO reset time and what to do', async () => {
		const reset = fake.nowSeconds() + 1800;
		const scope = nock(API)
			.get('/auth/me')
			.reply(429, failure('RATE_LIMIT_EXCEEDED', 'Too many requests'), {
				'Retry-After': '1800',
				'X-RateLimit-Limit': '1000',
				'X-RateLimit-Remaining': '0',
				'X-RateLimit-Reset': String(reset),
			});
		const { error } = await probe({ requestOptions: { maxRateLimitWaitSeconds: 60 } });
		expect(error!.message).toContain('the key has used 1000 calls an hour');
		expect(error!.message).toContain(`the count restarts at ${new Date(reset * 1000).toISOString()}`);
		expect(error!.message).toContain('longer than the 60 s this node may wait');
		expect(error!.description).toContain('Max Rate-Limit Wait');
		expect(fake.sleeps).toEqual([]);
		scope.done();
	});

	it('stops after 5 growing waits when the service keeps answering 429 with a short Retry-After, saying so', async () => {
		const scope = nock(API)
			.get('/auth/me')
			.times(6)
			.reply(429, failure('RATE_LIMIT_EXCEEDED', 'Too many requests'), { 'Retry-After': '1' });
		const { error } = await probe({});
		expect(error!.message).toContain('the next call may be made in about 1 s');
		expect(error!.message).toContain('and the service still refused after 5 waits');
		expect(fake.sleeps).toEqual([1000, 2000, 4000, 8000, 16000]);
		scope.done();
	});

	it('paces from Remaining: with no calls left it waits for the reset instead of spending a 429', async () => {
		const reset = fake.nowSeconds() + 20;
		nock(API).get('/auth/me').reply(200, envelope({ n: 1 }), {
			'X-RateLimit-Limit': '100',
			'X-RateLimit-Remaining': '0',
			'X-RateLimit-Reset': String(reset),
		});
		nock(API).get('/auth/me').reply(200, envelope({ n: 2 }), {
			'X-RateLimit-Limit': '100',
			'X-RateLimit-Remaining': '99',
			'X-RateLimit-Reset': String(reset + 3600),
		});
		const { output } = await runNode({
			node: new ProbeNode(),
			// One at a time: the second call is asked for after the first reply's figures are known.
			parameters: { method: 'GET', path: '/auth/me', requestOptions: { concurrency: 1 } },
			credentials,
			items: [{}, {}],
		});
		expect(output!.map((o) => (o.json.data as { n: number }).n)).toEqual([1, 2]);
		expect(fake.sleeps).toEqual([20000]);
	});
});

describe('hostile rate-limit headers are clamped to the window they describe (an hour)', () => {
	const refused = failure('RATE_LIMIT_EXCEEDED', 'Too many requests');
	const HOUR_MS = 3600 * 1000;

	it('Retry-After: 1000000000 refuses this call, but the key is not parked past the hour: a call an hour later is sent', async () => {
		nock(API).get('/auth/me').reply(429, refused, { 'Retry-After': '1000000000' });
		const first = await probe({});
		expect(first.error!.message).toContain('the next call may be made in about 3600 s, longer than the 60 s this node may wait');
		fake.advance(HOUR_MS);
		const later = nock(API).get('/auth/me').reply(200, envelope({ ok: true }));
		const { output, error } = await probe({});
		expect(error).toBeUndefined();
		expect(output![0].json.data).toEqual({ ok: true });
		later.done();
	});

	it('X-RateLimit-Reset in epoch milliseconds with 0 calls left: read as ms, the next call waits the 20 s to the reset', async () => {
		const resetMs = (fake.nowSeconds() + 20) * 1000;
		nock(API).get('/auth/me').reply(200, envelope({ n: 1 }), { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(resetMs) });
		nock(API).get('/auth/me').reply(200, envelope({ n: 2 }), { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99', 'X-RateLimit-Reset': String(resetMs + HOUR_MS) });
		const { output, error } = await probe({});
		expect(error).toBeUndefined();
		expect(output![0].json.rateLimit).toEqual({ limit: 100, remaining: 0, reset: resetMs / 1000 });
		const second = await probe({});
		expect(second.error).toBeUndefined();
		expect(fake.sleeps).toEqual([20000]);
	});

	it('X-RateLimit-Reset as seconds from now (20) with 0 calls left: the next call waits 20 s instead of spending a 429', async () => {
		nock(API).get('/auth/me').reply(200, envelope({ n: 1 }), { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '20' });
		nock(API).get('/auth/me').reply(200, envelope({ n: 2 }));
		const { output } = await probe({});
		expect(output![0].json.rateLimit).toEqual({ limit: 100, remaining: 0, reset: fake.nowSeconds() + 20 });
		await probe({});
		expect(fake.sleeps).toEqual([20000]);
	});

	it('a 429 with no Retry-After and a reset years ahead waits for the window’s end (an hour), and says so', async () => {
		nock(API).get('/auth/me').reply(429, refused, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '33000000000' });
		const { error } = await probe({});
		const end = new Date((fake.nowSeconds() + 3600) * 1000).toISOString();
		expect(error!.message).toContain(`the count restarts at ${end} (in 3600 s), longer than the 60 s this node may wait`);
	});

	it('a reset a thousand years ahead with 0 calls left parks the key for one hour at most', async () => {
		nock(API).get('/auth/me').reply(200, envelope({ n: 1 }), { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '33000000000' });
		await probe({});
		const refusedLocally = await probe({});
		expect(refusedLocally.error!.message).toContain('(in 3600 s)');
		fake.advance(HOUR_MS);
		const later = nock(API).get('/auth/me').reply(200, envelope({ n: 2 }));
		const { error } = await probe({});
		expect(error).toBeUndefined();
		later.done();
	});

	it('Retry-After: 0 on every reply: the waits grow (1, 2, 4, 8, 16 s) and the item stops after 6 calls, saying so', async () => {
		const scope = nock(API).get('/auth/me').times(6).reply(429, refused, { 'Retry-After': '0' });
		const extra = nock(API).get('/auth/me').reply(429, refused, { 'Retry-After': '0' });
		const { error } = await probe({});
		expect(error!.message).toContain('and the service still refused after 5 waits');
		expect(fake.sleeps).toEqual([1000, 2000, 4000, 8000, 16000]);
		scope.done();
		expect(extra.isDone()).toBe(false);
	});

	it('Retry-After: 0 where the node does not wait (the trigger, a look, tool use): one call, not eleven', async () => {
		const scope = nock(API).get('/auth/me').reply(429, refused, { 'Retry-After': '0' });
		const extra = nock(API).get('/auth/me').reply(429, refused, { 'Retry-After': '0' });
		const { error } = await probe({ requestOptions: { maxRateLimitWaitSeconds: 0 } });
		expect(error!.message).toContain('this node answers at once instead of waiting');
		scope.done();
		expect(extra.isDone()).toBe(false);
	});
});

describe('retries', () => {
	it('retries a GET after a dropped connection with backoff', async () => {
		const server = await scriptedServer(['drop', { status: 200, body: envelope({ ok: 1 }) }]);
		try {
			const { output } = await probe({}, { credentials: { apiKey: KEY, baseUrl: server.baseUrl } });
			expect(output![0].json.data).toEqual({ ok: 1 });
			expect(server.seen.map((r) => r.url)).toEqual(['/api/v1/auth/me', '/api/v1/auth/me']);
			expect(fake.sleeps).toEqual([500]);
		} finally {
			await server.close();
		}
	});

	it('retries PUT and DELETE on 5xx and 408', async () => {
		nock(API).put('/invoices/7').reply(503, failure('INTERNAL_ERROR', 'busy'));
		nock(API).put('/invoices/7').reply(408, failure('TIMEOUT', 'slow'));
		nock(API).put('/invoices/7').reply(200, envelope({ id: 7 }));
		const { output } = await probe({ method: 'PUT', path: '/invoices/7', body: '{"notes":"x"}' });
		expect(output![0].json.data).toEqual({ id: 7 });
		expect(fake.sleeps).toEqual([500, 1000]);
	});

	it('never resends a POST without an Idempotency-Key', async () => {
		const scope = nock(API).post('/invoices').reply(500, failure('INTERNAL_ERROR', 'boom'));
		const { error } = await probe({ method: 'POST', path: '/invoices', body: '{"a":1}' });
		expect(error!.message).toContain('INTERNAL_ERROR');
		expect(fake.sleeps).toEqual([]);
		scope.done();
	});

	it('resends a POST with its Idempotency-Key, the same key every time', async () => {
		const keys: string[] = [];
		nock(API)
			.post('/invoices')
			.times(2)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return keys.length === 1 ? [502, failure('INTERNAL_ERROR', 'gateway')] : [201, envelope({ id: 9 })];
			});
		const { output } = await probe({ method: 'POST', path: '/invoices', body: '{"a":1}', idempotencyKey: 'row-42' });
		expect(output![0].json).toMatchObject({ data: { id: 9 }, statusCode: 201 });
		expect(keys).toEqual(['row-42', 'row-42']);
	});

	it('resends a read-only POST (preview) after a dropped connection', async () => {
		const server = await scriptedServer(['drop', { status: 200, body: envelope({ validation: { valid: true } }) }]);
		try {
			const { output } = await probe(
				{ method: 'POST', path: '/invoices/preview', body: '{}', readOnly: true },
				{ credentials: { apiKey: KEY, baseUrl: server.baseUrl } },
			);
			expect(output![0].json.data).toEqual({ validation: { valid: true } });
			expect(server.seen).toHaveLength(2);
		} finally {
			await server.close();
		}
	});

	it('gives up after 3 tries of a dropped connection and says the outcome', async () => {
		const server = await scriptedServer(['drop', 'drop', 'drop']);
		try {
			const { error } = await probe({}, { credentials: { apiKey: KEY, baseUrl: server.baseUrl } });
			expect(error!.message).toContain('the connection failed before a reply arrived (ECONNRESET)');
			expect(error!.description).toContain('Tried 3 times');
			expect(server.seen).toHaveLength(3);
			expect(fake.sleeps).toEqual([500, 1000]);
		} finally {
			await server.close();
		}
	});

	it('never resends a POST without a key after a dropped connection', async () => {
		const server = await scriptedServer(['drop', { status: 201, body: envelope({ id: 1 }) }]);
		try {
			const { error } = await probe(
				{ method: 'POST', path: '/invoices', body: '{"a":1}' },
				{ credentials: { apiKey: KEY, baseUrl: server.baseUrl } },
			);
			expect(error!.message).toContain('the connection failed before a reply arrived');
			expect(error!.description).toContain('may or may not have been carried out; it was not sent again');
			expect(server.seen).toHaveLength(1);
		} finally {
			await server.close();
		}
	});

	it.each([400, 401, 403, 404, 409, 422])('never retries %i', async (status) => {
		const scope = nock(API).delete('/invoices/1').reply(status, failure('X', 'no'));
		await probe({ method: 'DELETE', path: '/invoices/1' });
		expect(scope.isDone()).toBe(true);
		expect(fake.sleeps).toEqual([]);
	});

	it('reports a replayed create and names the key on a 409 for another body', async () => {
		nock(API).post('/invoices').reply(201, envelope({ id: 3 }), { 'Idempotent-Replayed': 'true' });
		const replay = await probe({ method: 'POST', path: '/invoices', body: '{"a":1}', idempotencyKey: 'k-1' });
		expect(replay.output![0].json.replayed).toBe(true);

		const scope = nock(API).post('/invoices').reply(409, failure('CONFLICT', 'Idempotency key reused with a different body'));
		const conflict = await probe({ method: 'POST', path: '/invoices', body: '{"a":2}', idempotencyKey: 'k-1' });
		expect(conflict.error!.message).toContain('Idempotency-Key "k-1" was already used with a different body');
		scope.done();
	});
});

describe('idempotency keys', () => {
	it('derives the same key for the same body in any key order, from the path and body only (any key of the account)', () => {
		const a = deriveIdempotencyKey('/invoices', { b: 1, a: { y: 2, x: [1, { q: 1, p: 2 }] } });
		const b = deriveIdempotencyKey('/invoices', { a: { x: [1, { p: 2, q: 1 }], y: 2 }, b: 1 });
		expect(a).toBe(b);
		expect(a).toMatch(/^n8n-sl-[0-9a-f]{64}$/);
		expect(a).not.toContain(KEY.slice(-32));
		expect(deriveIdempotencyKey('/invoices', { b: 2 })).not.toBe(deriveIdempotencyKey('/invoices', { b: 1 }));
		expect(deriveIdempotencyKey('/invoices/batch', { b: 1 })).not.toBe(deriveIdempotencyKey('/invoices', { b: 1 }));
		expect(canonicalJson({ b: [2, 1], a: null })).toBe('{"a":null,"b":[2,1]}');
	});

	// Changed on purpose: the released derivation hashed the API key's fingerprint too, so
	// a new key of the same account filed every row again. Rows filed under the released
	// derivation are still found for 24 hours (test/nodes-against-sandbox/exactlyOnce.test.ts).
	it('derives exactly the pinned key (a changed key would file re-run rows again), and no longer the released one', () => {
		const body = {
			policy_number: 'GL-2026-0042',
			insured_name: 'Acme Roofing LLC',
			state_code: 'TX',
			net_premium: 12500.5,
			effective_date: '2026-03-01',
			expiration_date: '2027-03-01',
			fees: [
				{ type: 'sl_tax', amount: 606.27 },
				{ type: 'stamping_fee', amount: 22.5 },
			],
			insured_address: { line1: '1 Main St', city: 'Austin', zip: '78701', type_id: 1 },
			note: undefined,
			é: 'accent',
			10: 'ten',
			9: 'nine',
		};
		expect(canonicalJson(body)).toBe(
			'{"10":"ten","9":"nine","effective_date":"2026-03-01","expiration_date":"2027-03-01","fees":[{"amount":606.27,"type":"sl_tax"},{"amount":22.5,"type":"stamping_fee"}],"insured_address":{"city":"Austin","line1":"1 Main St","type_id":1,"zip":"78701"},"insured_name":"Acme Roofing LLC","net_premium":12500.5,"policy_number":"GL-2026-0042","state_code":"TX","é":"accent"}',
		);
		// sha256 of "account-v2\n/invoices\n" + the canonical JSON above.
		expect(deriveIdempotencyKey('/invoices', body)).toBe(
			'n8n-sl-1cbf39eeb26b166c0b3d366b30426d4a0d7b056d8e20cc80708f136c0a67eeee',
		);
	});

	it('checks a caller key locally', () => {
		expect(idempotencyKeyProblem('has space')).toBe('Idempotency Key: must not contain spaces');
		expect(idempotencyKeyProblem('x'.repeat(256))).toBe('Idempotency Key: at most 255 characters (got 256)');
		expect(idempotencyKeyProblem('x'.repeat(255))).toBeUndefined();
	});
});

describe('credential checks before any call', () => {
	it('refuses plain http to a non-loopback host, with the reason', async () => {
		const { error } = await probe({}, { credentials: { apiKey: KEY, baseUrl: 'http://sl.example.com/api/v1' } });
		expect(error!.message).toContain('Base URL must use https');
		expect(error!.message).toContain('a redirected POST turns into a GET');
	});

	it('normalises the base URL', () => {
		expect(checkBaseUrl('https://a.example.com/')).toEqual({ ok: true, value: 'https://a.example.com/api/v1' });
		expect(checkBaseUrl(' https://a.example.com/api/v1/ ')).toEqual({ ok: true, value: 'https://a.example.com/api/v1' });
		expect(checkBaseUrl('http://127.0.0.1:8787')).toEqual({ ok: true, value: 'http://127.0.0.1:8787/api/v1' });
		expect(checkBaseUrl('http://localhost:8787/api/v1')).toEqual({ ok: true, value: 'http://localhost:8787/api/v1' });
		expect(checkBaseUrl('ftp://a')).toEqual({ ok: false, problem: 'Base URL must start with https:// (got "ftp:"); enter it as https://host/api/v1' });
	});

	it.each([
		['', 'API Key is empty'],
		['sltax_t4_0123456789abcdefghijklmnopqrstuv', 'API Key tier must be t1, t2 or t3'],
		['sltax_t2_0123456789ABCDEFghijklmnopqrstuv', 'and characters other than lowercase letters and digits'],
		['sltax_t2_0123456789abcdef', 'the part after the tier has 16 characters'],
		['sltax_t2_0123456789abcdefghijklmnopqrstuv\n', 'contains a space or line break'],
		['justakey', 'does not have the expected form'],
	])('explains a malformed key without echoing it (%#)', (key, message) => {
		const checked = checkApiKey(key);
		expect(checked.ok).toBe(false);
		const problem = checked.ok ? '' : checked.problem;
		expect(problem).toContain(message);
		if (key.length > 8) expect(problem).not.toContain(key.trim());
	});

	it('takes any prefix the operator chose, and masks such keys too', () => {
		const key = 'sl_live-2_t2_0123456789abcdefghijklmnopqrstuv';
		expect(checkApiKey(key)).toEqual({ ok: true, value: 't2' });
		expect(redactKeys(`bad ${key} here`)).toBe('bad [redacted API key] here');
		expect(checkApiKey('_t2_0123456789abcdefghijklmnopqrstuv')).toEqual({
			ok: false,
			problem: 'API Key has no prefix before the tier: expected <prefix>_<t1|t2|t3>_<32 lowercase letters and digits>',
		});
	});

	it('reads the tier from the key', () => {
		expect(checkApiKey('abc_t3_0123456789abcdefghijklmnopqrstuv')).toEqual({ ok: true, value: 't3' });
	});

	it('fails a node run with a bad key before any call', async () => {
		const { error } = await probe({}, { credentials: { apiKey: 'sltax_t2_short', baseUrl: BASE } });
		expect(error!.message).toContain('the part after the tier has 5 characters');
		expect(error!.message).not.toContain('sltax_t2_short');
	});

	it('gives a malformed credential its own code on the continue-on-fail item', async () => {
		const { output } = await probe({}, { credentials: { apiKey: 'sltax_t2_short', baseUrl: BASE }, continueOnFail: true });
		expect(output![0].json).toMatchObject({ code: 'INVALID_CREDENTIAL', description: 'Check the Surplus Lines API credential. No call was made.' });
	});
});

describe('the key never leaks', () => {
	it('is absent from errors and continue-on-fail items, even when the service echoes it', async () => {
		nock(API).get('/auth/me').reply(401, failure('UNAUTHORIZED', `Key ${KEY} is revoked`, { fields: { api_key: [`${KEY} revoked`] } }));
		const failed = await probe({});
		expect(JSON.stringify(failed.error)).not.toContain(KEY);
		expect(failed.error!.message).toContain('[redacted API key]');

		nock(API).get('/auth/me').reply(401, failure('UNAUTHORIZED', `Key ${KEY} is revoked`));
		const continued = await probe({}, { continueOnFail: true });
		expect(JSON.stringify(continued.output)).not.toContain(KEY);
		expect(continued.output![0]).toEqual({
			json: {
				error: 'The API key was refused (missing, wrong, revoked or expired) (HTTP 401 UNAUTHORIZED): Key [redacted API key] is revoked',
				description: expect.stringContaining('Request ID: req_fail1'),
				code: 'UNAUTHORIZED',
				httpStatus: 401,
				requestId: 'req_fail1',
			},
			pairedItem: { item: 0 },
		});
	});

	it('gives one error item per failing item and keeps the others', async () => {
		nock(API).get('/invoices/1').reply(200, envelope({ id: 1 }));
		nock(API).get('/invoices/2').reply(404, failure('NOT_FOUND', 'Invoice not found', undefined, 'req_404'));
		const { output } = await runNode({
			node: new ProbeNode(),
			parameters: { method: 'GET', path: '={{ "/invoices/" + $json.id }}' },
			credentials,
			items: [{ id: 1 }, { id: 2 }],
			continueOnFail: true,
		});
		expect(output!.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output![0].json.data).toEqual({ id: 1 });
		expect(output![1].json).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404, requestId: 'req_404' });
	});
});
