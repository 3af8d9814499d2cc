/**
 * The credential's Test button in the real n8n (POST /rest/credentials/test, what the editor
 * calls): what it says for a working key, a malformed key, a well-formed unknown key, plain http to
 * a non-loopback address (refused before the key is sent: 0.0.0.0 reaches the sandbox if sent), a
 * Base URL with a query, and a wrong address answering a web page with 200.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CREDENTIAL_TEST_MESSAGES } from '../../credentials/SurplusLinesApi.credentials';
import { checkApiKey, checkBaseUrl } from '../../nodes/shared/credentialRules';
import type { RestSession } from './n8n';

/** An imported credential of type surplusLinesApi; n8n tests the data sent with its id. */
const CREDENTIAL = { id: 'slE2eT2Credential', name: 'Surplus Lines sandbox (t2)', type: 'surplusLinesApi' };

function problem(checked: { ok: true } | { ok: false; problem: string }): string {
	if (checked.ok) throw new Error('expected a refusal');
	return checked.problem;
}

export async function checkCredentialTests(
	session: RestSession,
	sandboxBaseUrl: string,
	key: string,
): Promise<{ name: string; status: 'passed' | 'failed'; ms: number; detail?: string }> {
	const name = 'credential test messages';
	const start = Date.now();
	// A wrong address: a web page answering 200, as a login portal does.
	const portal = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end('<!doctype html><html><body>Sign in</body></html>');
	});
	await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
	try {
		const port = new URL(sandboxBaseUrl).port;
		const prefix = key.split('_').slice(0, -2).join('_');
		const cases: Array<[string, { apiKey: string; baseUrl: string }, 'OK' | 'Error', string]> = [
			['working key', { apiKey: key, baseUrl: sandboxBaseUrl }, 'OK', 'Connection successful!'],
			['malformed key', { apiKey: 'not-a-key', baseUrl: sandboxBaseUrl }, 'Error', problem(checkApiKey('not-a-key'))],
			['unknown key', { apiKey: `${prefix}_t2_${'z'.repeat(32)}`, baseUrl: sandboxBaseUrl }, 'Error', CREDENTIAL_TEST_MESSAGES.keyRefused],
			['http non-loopback', { apiKey: key, baseUrl: `http://0.0.0.0:${port}/api/v1` }, 'Error', problem(checkBaseUrl('http://0.0.0.0'))],
			['query', { apiKey: key, baseUrl: `${sandboxBaseUrl}?x=1` }, 'Error', problem(checkBaseUrl('https://a.example.com/?x=1'))],
			[
				'web page',
				{ apiKey: key, baseUrl: `http://127.0.0.1:${(portal.address() as AddressInfo).port}/api/v1` },
				'Error',
				CREDENTIAL_TEST_MESSAGES.notTheService,
			],
		];
		for (const [label, data, status, message] of cases) {
			const res = await session.request<{ data: { status: string; message: string } }>('POST', '/rest/credentials/test', {
				credentials: { ...CREDENTIAL, data },
			});
			assert.equal(res.status, 200, `${label}: POST /rest/credentials/test answered ${res.status}`);
			assert.deepEqual(res.body.data, { status, message }, label);
			console.log(`[e2e]         credential test, ${label}: ${status} "${message}"`);
		}
		console.log(`[e2e] passed  ${name}`);
		return { name, status: 'passed', ms: Date.now() - start };
	} catch (error) {
		return { name, status: 'failed', ms: Date.now() - start, detail: (error as Error).message };
	} finally {
		portal.close();
	}
}
