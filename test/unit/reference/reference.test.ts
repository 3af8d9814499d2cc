import nock from 'nock';

import { SurplusLinesReference } from '../../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import { SurplusLinesCalculator } from '../../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { loadOptions, runNode } from '../../harness/engine';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, TEST_BASE, TEST_KEYS, envelope, failure } from '../../helpers/serviceReplies';

const node = new SurplusLinesReference();
const credentials = { apiKey: TEST_KEYS.t2, baseUrl: TEST_BASE };

function run(resource: string, operation: string, parameters: Record<string, unknown> = {}, extra: { continueOnFail?: boolean; apiKey?: string } = {}) {
	return runNode({
		node,
		parameters: { resource, operation, ...parameters },
		credentials: { ...credentials, apiKey: extra.apiKey ?? credentials.apiKey },
		continueOnFail: extra.continueOnFail,
	});
}

const fakeClock = useNockSuite();

describe('Account', () => {
	it('Get Key Info returns /auth/me and the rate-limit figures of this reply', async () => {
		const me = {
			key_name: 'ops',
			tier: 't2',
			rate_limit: { limit: 1000, remaining: 990, reset: 1795352400 },
			account: { mode: 'test', features: ['idempotency'], calculator_enabled: true },
			scopes: ['invoices', 'documents', 'calculator'],
		};
		nock(TEST_API, { reqheaders: { authorization: `Bearer ${TEST_KEYS.t2}` } })
			.get('/auth/me')
			.reply(200, envelope(me, 'req_me'), { 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '989', 'X-RateLimit-Reset': '1795352400' });
		const { output } = await run('account', 'getKeyInfo');
		expect(output![0].json).toEqual({
			...me,
			rate_limit_now: { limit: 1000, remaining: 989, reset: 1795352400, reset_at: '2026-11-22T13:00:00.000Z' },
			request_id: 'req_me',
		});
	});

	it('Check Key sends the credential’s key in the body and never outputs it', async () => {
		const scope = nock(TEST_API).post('/auth/token', { api_key: TEST_KEYS.t2 }).reply(200, envelope({ valid: true, key_name: 'ops', tier: 't2' }, 'req_tok'));
		const { output } = await run('account', 'checkKey');
		expect(output![0].json).toEqual({ valid: true, checked: 'service', key_name: 'ops', tier: 't2', request_id: 'req_tok' });
		expect(JSON.stringify(output)).not.toContain(TEST_KEYS.t2);
		scope.done();
	});

	it('Check Key answers valid: false on 401 instead of failing', async () => {
		nock(TEST_API).post('/auth/token').reply(401, failure('UNAUTHORIZED', 'API key has been revoked', undefined, 'req_401'));
		const { output, error } = await run('account', 'checkKey');
		expect(error).toBeUndefined();
		expect(output![0].json).toEqual({ valid: false, checked: 'service', reason: 'API key has been revoked', request_id: 'req_401' });
	});

	it('Check Key answers valid: false for a key of the wrong form without a call, naming no part of it', async () => {
		const { output } = await run('account', 'checkKey', {}, { apiKey: 'sltax_t9_SECRETSECRET' });
		expect(output![0].json).toEqual({ valid: false, checked: 'locally', reason: 'API Key tier must be t1, t2 or t3: expected <prefix>_<t1|t2|t3>_<32 lowercase letters and digits>' });
		expect(JSON.stringify(output)).not.toContain('SECRET');
	});

	// A 5xx is resent only for a POST marked read-only: this shows Check Key is. (A socket error from
	// nock's replyWithError can surface after the test under load, so a 503 stands in for it.)
	it('Check Key is resent after a 503 (it creates nothing): 2 calls', async () => {
		nock(TEST_API)
			.post('/auth/token')
			.reply(503, failure('INTERNAL_ERROR', 'unavailable'))
			.post('/auth/token')
			.reply(200, envelope({ valid: true, key_name: 'ops', tier: 't2' }));
		const { output } = await run('account', 'checkKey');
		expect(output![0].json.valid).toBe(true);
		expect(fakeClock().sleeps).toEqual([500]);
	});

	it('Check Key still fails on other errors, as a continue-on-fail item with code and request id', async () => {
		nock(TEST_API).post('/auth/token').reply(422, failure('VALIDATION_ERROR', 'Validation failed', { fields: { api_key: ['This field is required'] } }, 'req_422'));
		const { output } = await run('account', 'checkKey', {}, { continueOnFail: true });
		expect(output![0].json).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['api_key: This field is required'], requestId: 'req_422' });
	});
});

describe('Reference Data', () => {
	const lists: Array<[string, string, string, object[]]> = [
		['getStates', '/reference/states', 'states', [{ id: 1, code: 'AL', name: 'Alabama', efile: true }, { id: 9, code: 'DC', name: 'District of Columbia', efile: false }]],
		['getDocumentTypes', '/reference/document-types', 'document_types', [{ code: 'sl2_form', name: 'SL-2 Form', sent_to_state: true }]],
		['getLinesOfBusiness', '/lobs', 'lobs', [{ id: 1, name: 'General Liability' }, { id: 2, name: 'Commercial Property' }]],
		['getCoverages', '/coverages', 'coverages', [{ code: 'GL', title: 'General Liability' }]],
	];
	it.each(lists)('%s gives one item per row of %s', async (operation, path, key, rows) => {
		nock(TEST_API).get(path).reply(200, envelope({ [key]: rows }));
		const { output } = await run('referenceData', operation);
		expect(output!.map((i) => i.json)).toEqual(rows);
		expect(output!.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('Get Fee Types narrows to the codes the calculator takes', async () => {
		const rows = [
			{ code: 'broker_fee', category: 'Broker Fee', accepted_by: ['calculator', 'invoices'], alias_of: null },
			{ code: 'sl_tax', category: 'Tax', accepted_by: ['invoices'], alias_of: null },
		];
		nock(TEST_API).get('/reference/fee-types').twice().reply(200, envelope({ fee_types: rows }));
		expect((await run('referenceData', 'getFeeTypes', { acceptedBy: 'calculator' })).output!.map((i) => i.json.code)).toEqual(['broker_fee']);
		expect((await run('referenceData', 'getFeeTypes')).output!.map((i) => i.json.code)).toEqual(['broker_fee', 'sl_tax']);
	});

	it('reads a list given as the bare array too (tolerant reader)', async () => {
		nock(TEST_API).get('/lobs').reply(200, envelope([{ id: 3, name: 'Professional Liability' }]));
		const { output } = await run('referenceData', 'getLinesOfBusiness');
		expect(output!.map((i) => i.json)).toEqual([{ id: 3, name: 'Professional Liability' }]);
	});
});

describe('Company', () => {
	it('Search sends q and returns companies up to the limit', async () => {
		const companies = [
			{ id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001' },
			{ id: 304, name: 'Lone Star Specialty Underwriters', naic: '90004' },
		];
		const scope = nock(TEST_API).get('/companies/search').query({ q: 'Specialty' }).reply(200, envelope({ companies }));
		const { output } = await run('company', 'search', { query: ' Specialty ', returnAll: false, limit: 1 });
		expect(output!.map((i) => i.json)).toEqual([companies[0]]);
		scope.done();
	});

	it('Search refuses an empty query without a call', async () => {
		const { error } = await run('company', 'search', { query: '  ' });
		expect(error!.message).toBe('Invalid input, nothing was sent: Name or NAIC Code: This field is required');
	});

	it('the shared searchCompanies locator lists name and NAIC', async () => {
		nock(TEST_API).get('/companies/search').query({ q: '90003' }).reply(200, envelope({ companies: [{ id: 303, name: 'Gulf Coast Surplus Lines Insurance Company', naic: '90003' }] }));
		// Any node can host the shared method; the calculator is used here only as a host.
		const host = { ...new SurplusLinesCalculator(), methods: { listSearch: (await import('../../../nodes/shared/methods/listSearch')).listSearch } };
		const result = await loadOptions({ node: host as never, parameters: {}, credentials, kind: 'listSearch', method: 'searchCompanies', filter: '90003' });
		expect(result).toEqual({ results: [{ name: 'Gulf Coast Surplus Lines Insurance Company (NAIC 90003)', value: '303' }] });
	});
});
