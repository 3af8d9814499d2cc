/**
 * The credential test it applies exactly the nodes' rules, refuses before
 * the key is sent what the nodes refuse, and says what is wrong. Run through n8n-core's RoutingNode
 * as n8n's credentials tester runs it (test/harness/credentialTest.ts).
 */
import nock from 'nock';

import { CREDENTIAL_TEST_MESSAGES } from '../../credentials/SurplusLinesApi.credentials';
import { checkBaseUrl } from '../../nodes/shared/credentials';
import { testCredential } from '../harness/credentialTest';
import { runNode } from '../harness/engine';
import { ProbeNode } from '../harness/probeNode';
import { useNockSuite } from '../helpers/nockSuite';

const KEY = 'sltax_t2_0123456789abcdefghijklmnopqrstuv';
const UNKNOWN_KEY = 'sltax_t2_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz';
const meta = { timestamp: '2026-11-22T12:00:00Z', request_id: 'req_1', response_time_ms: 2 };

useNockSuite();

/** Answers every request to `origin` and counts them, so a test can say nothing was sent. */
function listen(origin: string, reply: () => [number, unknown, Record<string, string>?]) {
	const seen: Array<{ path: string; authorization?: string }> = [];
	nock(origin)
		.persist()
		.get(/.*/)
		.reply(function (path) {
			seen.push({ path, authorization: this.req.headers.authorization as string | undefined });
			return reply();
		});
	return seen;
}

describe('credential test', () => {
	it('passes a working key and sends it to the normalised address, as the nodes do', async () => {
		const seen = listen('https://sl.example.com', () => [200, { success: true, data: { key_name: 'ops', tier: 't2' }, meta }]);
		const result = await testCredential({ apiKey: KEY, baseUrl: ' https://sl.example.com/ ' });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(seen).toEqual([{ path: '/api/v1/auth/me', authorization: `Bearer ${KEY}` }]);
	});

	it('refuses a malformed key before anything is sent, saying what is wrong', async () => {
		const seen = listen('https://sl.example.com', () => [200, {}]);
		const result = await testCredential({ apiKey: 'not-a-key', baseUrl: 'https://sl.example.com/api/v1' });
		expect(result).toEqual({
			status: 'Error',
			message: 'API Key does not have the expected form: expected <prefix>_<t1|t2|t3>_<32 lowercase letters and digits>',
		});
		expect(seen).toEqual([]);
	});

	it('says a well-formed key was refused by the service (401)', async () => {
		const seen = listen('https://sl.example.com', () => [
			401,
			{ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid API key' }, meta },
		]);
		const result = await testCredential({ apiKey: UNKNOWN_KEY, baseUrl: 'https://sl.example.com' });
		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.keyRefused });
		expect(seen.length).toBeGreaterThan(0);
		expect(result.message).not.toContain(UNKNOWN_KEY);
	});

	it.each([
		['a non-loopback plain http address', 'http://sl.example.com/api/v1', 'http://sl.example.com'],
		['http://0.0.0.0, which every node refuses', 'http://0.0.0.0:8787/api/v1', 'http://0.0.0.0:8787'],
	])('refuses %s before the key is sent', async (_name, baseUrl, origin) => {
		const seen = listen(origin, () => [200, { success: true, data: {}, meta }]);
		const result = await testCredential({ apiKey: KEY, baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'Base URL must use https: the service redirects plain http, and a redirected POST turns into a GET, so an invoice would silently not be sent. Plain http is allowed only for a local sandbox (127.0.0.1 or localhost).',
		);
		expect(seen).toEqual([]);
	});

	it('fails on a non-service page answering 200 (a login portal at a wrong address)', async () => {
		listen('https://portal.example.com', () => [200, '<!doctype html><html><body>Sign in</body></html>', { 'content-type': 'text/html' }]);
		const result = await testCredential({ apiKey: KEY, baseUrl: 'https://portal.example.com' });
		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.notTheService });
	});

	it('fails on JSON that is not the service envelope', async () => {
		listen('https://other.example.com', () => [200, { ok: true, user: 'x' }]);
		const result = await testCredential({ apiKey: KEY, baseUrl: 'https://other.example.com' });
		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.notTheService });
	});

	it('does not follow a redirect (the nodes do not), and says the address is not the service', async () => {
		const seen = listen('https://old.example.com', () => [301, '', { location: 'https://new.example.com/api/v1/auth/me' }]);
		const target = listen('https://new.example.com', () => [200, { success: true, data: {}, meta }]);
		const result = await testCredential({ apiKey: KEY, baseUrl: 'https://old.example.com/api/v1' });
		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.notTheService });
		expect(seen).toHaveLength(1);
		expect(target).toEqual([]);
	});

	it('says when the hourly limit stopped the check', async () => {
		listen('https://sl.example.com', () => [429, { success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'limit' }, meta }, { 'retry-after': '60' }]);
		const result = await testCredential({ apiKey: KEY, baseUrl: 'https://sl.example.com' });
		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.rateLimited });
	});

	it('fails on any other service error', async () => {
		listen('https://sl.example.com', () => [404, { success: false, error: { code: 'NOT_FOUND', message: 'no route' }, meta }]);
		const result = await testCredential({ apiKey: KEY, baseUrl: 'https://sl.example.com/v2' });
		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.serviceError });
	});
});

describe('Base URL forms', () => {
	it.each([
		['https://a.example.com/', 'https://a.example.com/api/v1'],
		[' https://a.example.com/api/v1/ ', 'https://a.example.com/api/v1'],
		['https://a.example.com:8443/sl', 'https://a.example.com:8443/sl/api/v1'],
		['http://127.0.0.1:8787', 'http://127.0.0.1:8787/api/v1'],
		['http://127.4.5.6:8787', 'http://127.4.5.6:8787/api/v1'],
		['http://localhost:8787/api/v1', 'http://localhost:8787/api/v1'],
		['http://[::1]:8787/api/v1', 'http://[::1]:8787/api/v1'],
	])('accepts %s as %s', (raw, value) => {
		expect(checkBaseUrl(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['https://a.example.com/api/v1?x=1', 'Base URL must not have a query (?…)'],
		['https://a.example.com/api/v1?', 'Base URL must not have a query (?…)'],
		['https://a.example.com/api/v1#frag', 'Base URL must not have a fragment (#…)'],
		['https://user:secret@a.example.com/api/v1', 'Base URL must not carry a user name or password'],
		['https://user@a.example.com/api/v1', 'Base URL must not carry a user name or password'],
		['http://0.0.0.0/api/v1', 'Base URL must use https'],
		['http://localhost.example.com/api/v1', 'Base URL must use https'],
		['http://127.0.0.1.example.com/api/v1', 'Base URL must use https'],
		['ftp://a.example.com', 'Base URL must start with https:// (got "ftp:")'],
		['a.example.com/api/v1', 'is not a valid URL'],
		['   ', 'Base URL is empty'],
	])('refuses %s with the reason', (raw, reason) => {
		const checked = checkBaseUrl(raw);
		expect(checked.ok).toBe(false);
		expect(checked.ok ? '' : checked.problem).toContain(reason);
		expect(checked.ok ? '' : checked.problem).not.toContain('secret');
	});

	it('stops a node before any call on a Base URL with a fragment', async () => {
		const seen = listen('https://a.example.com', () => [200, { success: true, data: {}, meta }]);
		const { error } = await runNode({
			node: new ProbeNode(),
			parameters: { method: 'GET', path: '/invoices/1' },
			credentials: { apiKey: KEY, baseUrl: 'https://a.example.com/api/v1#frag' },
		});
		expect(error?.message).toContain('Base URL must not have a fragment');
		expect(seen).toEqual([]);
	});
});
