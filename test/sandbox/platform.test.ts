import axios from 'axios';
import { KEYS, keyByName } from './index';
import { isLoopback } from './control';
import { client, useSandbox, type Row } from './testkit';

describe('auth, envelope, errors, reference lists', () => {
	let clock = new Date('2026-03-01T15:20:00Z');
	const kit = useSandbox({ now: () => clock });
	beforeEach(() => {
		clock = new Date('2026-03-01T15:20:00Z');
	});

	it('seeded keys have the documented form', () => {
		for (const k of KEYS) expect(k.key).toMatch(new RegExp(`^sltax_${k.tier}_[a-z0-9]{32}$`));
		expect(() => keyByName('nope')).toThrow(/No sandbox key named/);
	});

	it('GET /auth/me: tier, rate limit, features, scopes, with rate-limit headers', async () => {
		const res = await kit().api('t2').get('/auth/me');
		kit().conforms(res, 'GET', '/auth/me');
		expect(res.data.data).toEqual({
			key_name: 't2',
			tier: 't2',
			rate_limit: { limit: 1000, remaining: 999, reset: 1772380800 }, // 2026-03-01T16:00:00Z
			account: {
				mode: 'test',
				features: ['idempotency', 'carrier_lookup', 'lob_name', 'transaction_effective_date', 'filing', 'coverage_warnings'],
				calculator_enabled: true,
			},
			scopes: ['invoices', 'documents', 'calculator'],
		});
		expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining'], res.headers['x-ratelimit-reset']]).toEqual(['1000', '999', '1772380800']);
		expect(res.data.meta).toEqual({ timestamp: '2026-03-01T15:20:00.000Z', request_id: expect.stringMatching(/^req_[0-9a-f]{16}$/), response_time_ms: expect.any(Number) });
		const legacy = (await kit().api('legacy-t2').get('/auth/me')).data.data;
		expect([legacy.account.features, legacy.scopes]).toEqual([[], ['invoices', 'documents', 'calculator']]);
		expect((await kit().api('t2-no-calculator').get('/auth/me')).data.data.scopes).toEqual(['invoices', 'documents']);
		expect((await kit().api('calculator-off-t2').get('/auth/me')).data.data.account.calculator_enabled).toBe(false);
		expect((await kit().api('live-t2').get('/auth/me')).data.data.account.mode).toBe('live');
		expect((await kit().api('t3').get('/auth/me')).data.data.rate_limit.limit).toBe(5000);
	});

	it('401 UNAUTHORIZED for missing, malformed, unknown and revoked keys, without rate-limit headers', async () => {
		const cases: Array<[string | null, string]> = [
			[null, "Missing Authorization header; send 'Authorization: Bearer <API_KEY>'"],
			['sltax_t2_short', 'Invalid API key'],
			[`sltax_t2_${'0'.repeat(32)}`, 'Invalid API key'],
			[keyByName('revoked').key, 'API key has been revoked'],
		];
		for (const [key, message] of cases) {
			const res = await client(kit().sb.baseUrl, key).get('/auth/me');
			kit().conforms(res, 'GET', '/auth/me');
			expect([res.status, res.data.success, res.data.error.code, res.data.error.message]).toEqual([401, false, 'UNAUTHORIZED', message]);
			expect(res.headers['x-ratelimit-limit']).toBeUndefined();
		}
		const basic = await axios.get(`${kit().sb.baseUrl}/auth/me`, { headers: { Authorization: 'Basic abc' }, validateStatus: () => true });
		expect(basic.status).toBe(401);
	});

	it('POST /auth/token checks a key', async () => {
		const ok = await kit().api('t1').post('/auth/token', { api_key: keyByName('t3').key });
		kit().conforms(ok, 'POST', '/auth/token');
		expect(ok.data.data).toEqual({ valid: true, key_name: 't3', tier: 't3' });
		const bad = await kit().api('t1').post('/auth/token', { api_key: keyByName('revoked').key });
		expect([bad.status, bad.data.error.code]).toEqual([401, 'UNAUTHORIZED']);
		const missing = await kit().api('t1').post('/auth/token', {});
		expect([missing.status, missing.data.error.details.fields]).toEqual([422, { api_key: ['This field is required'] }]);
	});

	it('rate limit: fixed clock-hour window, 429 with Retry-After, restarts at the hour', async () => {
		await kit().control('/rate-limit', { limits: { t1: 3 } });
		const t1 = kit().api('t1');
		const remaining: string[] = [];
		for (let i = 0; i < 3; i++) remaining.push((await t1.get('/lobs')).headers['x-ratelimit-remaining']);
		expect(remaining).toEqual(['2', '1', '0']);
		const limited = await t1.get('/lobs');
		kit().conforms(limited, 'GET', '/lobs');
		expect([limited.status, limited.data.error.code, limited.headers['retry-after'], limited.headers['x-ratelimit-remaining']]).toEqual([429, 'RATE_LIMIT_EXCEEDED', '2400', '0']); // 40 min to 16:00
		expect((await kit().api('t2').get('/lobs')).status).toBe(200); // per key
		clock = new Date('2026-03-01T16:00:00Z');
		const next = await t1.get('/lobs');
		expect([next.status, next.headers['x-ratelimit-remaining'], next.headers['x-ratelimit-reset']]).toEqual([200, '2', '1772384400']);
	});

	it('rate limit window settable by the control endpoint', async () => {
		const res = await kit().control('/rate-limit', { window_seconds: 60, limits: { t2: 1 } });
		expect(res.data.data).toEqual({ window_seconds: 60, limits: { t1: 100, t2: 1, t3: 5000 } });
		await kit().api('t2').get('/lobs');
		const limited = await kit().api('t2').get('/lobs');
		expect([limited.status, limited.headers['retry-after'], limited.headers['x-ratelimit-reset']]).toEqual([429, '60', '1772378460']);
		const bad = await client(kit().sb.baseUrl.replace('/api/v1', ''), null).post('/_sandbox/rate-limit', { window_seconds: 0, limits: { t9: 1 } });
		expect(bad.data.error.details.fields).toEqual({ window_seconds: ['Must be a positive integer'], 'limits.t9': ['Must be a positive integer for t1, t2 or t3'] });
	});

	it('400 bad JSON or empty body, 413 oversized, 404 unknown path, 405 wrong method', async () => {
		const api = kit().api('t2');
		const notJson = await api.post('/invoices', '{"policy_number":', { headers: { 'Content-Type': 'application/json' }, transformRequest: [(d: string) => d] });
		kit().conforms(notJson, 'POST', '/invoices');
		expect([notJson.status, notJson.data.error.code]).toEqual([400, 'BAD_REQUEST']);
		expect(notJson.data.error.message).toMatch(/^Request body is not valid JSON/);
		const empty = await api.post('/invoices');
		expect([empty.status, empty.data.error.message]).toEqual([400, 'Request body is empty; send a JSON object']);
		expect((await api.post('/invoices', [1, 2])).data.error.message).toBe('Request body must be a JSON object');
		const big = await api.post('/invoices', { notes: 'x'.repeat(1024 * 1024) });
		kit().conforms(big, 'POST', '/invoices');
		expect([big.status, big.data.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
		expect((await api.get('/invoices')).data.data.pagination.total).toBe(0);
		const unknown = await api.get('/nothing/here');
		expect([unknown.status, unknown.data.error.code, unknown.headers['x-ratelimit-limit']]).toEqual([404, 'NOT_FOUND', '1000']);
		expect((await axios.get(kit().sb.baseUrl.replace('/api/v1', '/elsewhere'), { validateStatus: () => true })).data.error.code).toBe('NOT_FOUND');
		const wrong = await api.delete('/lobs');
		expect([wrong.status, wrong.data.error.code, wrong.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'GET']);
		expect((await api.put('/invoices/preview', {})).status).toBe(405);
	});

	it('reference lists: states, fee types, document types, companies, lobs, coverages', async () => {
		const api = kit().api('t1');
		const states = await api.get('/reference/states');
		kit().conforms(states, 'GET', '/reference/states');
		expect(states.data.data.states).toHaveLength(51);
		expect(states.data.data.states.find((s: Row) => s.code === 'DC')).toEqual({ id: 9, code: 'DC', name: 'District of Columbia', efile: false });
		expect(states.data.data.states.filter((s: Row) => s.efile)).toHaveLength(26);
		const fees = await api.get('/reference/fee-types');
		kit().conforms(fees, 'GET', '/reference/fee-types');
		expect(fees.data.data.fee_types).toHaveLength(25);
		expect(fees.data.data.fee_types.find((f: Row) => f.code === 'slas_fee')).toEqual({ code: 'slas_fee', category: 'Tax', accepted_by: ['invoices'], alias_of: 'clearinghouse_fee' });
		const docs = await api.get('/reference/document-types');
		kit().conforms(docs, 'GET', '/reference/document-types');
		expect(docs.data.data.document_types.filter((d: Row) => d.sent_to_state).map((d: Row) => d.code)).toEqual(['declaration_page', 'sl2_form', 'declinations_form', 'lloyds_syndicates', 'policy_endorsement', 'ecp_form']);
		const byName = await api.get('/companies/search', { params: { q: 'lone star' } });
		kit().conforms(byName, 'GET', '/companies/search');
		expect(byName.data.data.companies).toEqual([{ id: 304, name: 'Lone Star Specialty Underwriters', naic: '90004' }]);
		expect((await api.get('/companies/search', { params: { q: 'AA-1129999' } })).data.data.companies.map((c: Row) => c.id)).toEqual([306]);
		expect((await api.get('/companies/search')).data.error.details.fields).toEqual({ q: ['This field is required'] });
		const lobs = await api.get('/lobs');
		kit().conforms(lobs, 'GET', '/lobs');
		expect(lobs.data.data.lobs[0]).toEqual({ id: 1, name: 'General Liability' });
		const cov = await api.get('/coverages');
		kit().conforms(cov, 'GET', '/coverages');
		expect(cov.data.data.coverages.map((c: Row) => c.code)).toEqual(['GL', 'PROP', 'PL', 'XS', 'IM', 'WIND', 'FLOOD', 'EQ']);
		expect(Object.keys(cov.data.data.coverages[0])).toEqual(['code', 'title']);
	});

	it('serves openapi.json (OpenAPI 3.0, this base URL) and the local interactive reference', async () => {
		const doc = (await axios.get(`${kit().sb.baseUrl}/openapi.json`)).data;
		expect(doc.openapi).toBe('3.0.3');
		expect(doc.servers).toEqual([{ url: kit().sb.baseUrl }]);
		expect(Object.keys(doc.paths)).toHaveLength(15);
		const page = await axios.get(`${kit().sb.baseUrl}/docs`);
		expect(page.headers['content-type']).toMatch(/text\/html/);
		expect(page.data).toContain('/api/v1/openapi.json');
		expect(page.data).not.toMatch(/https?:\/\/(?!127)/);
		const bundle = await axios.get(`${kit().sb.baseUrl}/docs/swagger-ui-bundle.js`);
		expect([bundle.status, bundle.headers['content-type']]).toEqual([200, 'application/javascript; charset=utf-8']);
	});

	it('control endpoints refuse non-loopback callers', () => {
		expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true]);
		expect(['10.0.0.5', '::ffff:192.168.1.2', undefined].map(isLoopback)).toEqual([false, false, false]);
	});
});
