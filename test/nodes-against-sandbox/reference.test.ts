/** The Reference node in n8n's engine against the local sandbox. */
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { SurplusLinesReference } from '../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import { loadOptions, runNode } from '../harness/engine';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { KEYS, keyByName } from '../sandbox';
import { client, invoiceBody } from '../sandbox/testkit';

const node = new SurplusLinesReference();
const sb = useSandboxSuite();

function run(resource: string, operation: string, parameters: Record<string, unknown> = {}, key = 't1') {
	return runNode({
		node,
		parameters: { resource, operation, ...parameters },
		credentials: { apiKey: keyByName(key).key, baseUrl: sb.baseUrl },
		continueOnFail: true,
	});
}


it('Get Key Info: tier, account, scopes and the calls left after this one', async () => {
	const { output } = await run('account', 'getKeyInfo', {}, 't2-no-calculator');
	const json = output![0].json;
	expect(json).toMatchObject({
		key_name: 't2-no-calculator',
		tier: 't2',
		account: { mode: 'test', calculator_enabled: true },
		scopes: ['invoices', 'documents'],
		rate_limit_now: { limit: 1000, remaining: 999 },
	});
	expect(new Date(String((json.rate_limit_now as { reset_at: string }).reset_at)).getUTCMinutes()).toBe(0);
});

it('Check Key: valid for a working key, and the key never appears in the output', async () => {
	const { output } = await run('account', 'checkKey', {}, 't3');
	expect(output![0].json).toMatchObject({ valid: true, checked: 'service', key_name: 't3', tier: 't3' });
	const text = JSON.stringify(output);
	for (const key of KEYS) expect(text).not.toContain(key.key);
});

it('Check Key: a revoked key is answered valid: false (not an error item)', async () => {
	const { output } = await run('account', 'checkKey', {}, 'revoked');
	expect(output![0].json).toMatchObject({ valid: false, checked: 'service', reason: 'API key has been revoked' });
	expect(output![0].json.error).toBeUndefined();
});

it('reference lists: one item per row', async () => {
	const count = async (operation: string, extra = {}) => (await run('referenceData', operation, extra)).output!.length;
	expect(await count('getStates')).toBe(51);
	expect(await count('getLinesOfBusiness')).toBe(6);
	const invoiceOnly = (await run('referenceData', 'getFeeTypes', { acceptedBy: 'invoices' })).output!.length;
	const calculator = (await run('referenceData', 'getFeeTypes', { acceptedBy: 'calculator' })).output!.length;
	expect([invoiceOnly, calculator]).toEqual([25, 15]);
	const docTypes = (await run('referenceData', 'getDocumentTypes')).output!.map((i) => i.json);
	expect(docTypes.filter((t) => t.sent_to_state).map((t) => t.code).sort()).toEqual(
		['declaration_page', 'declinations_form', 'ecp_form', 'lloyds_syndicates', 'policy_endorsement', 'sl2_form'],
	);
	expect((await run('referenceData', 'getCoverages')).output!.map((i) => i.json.code)).toEqual(expect.arrayContaining(['GL', 'PROP', 'WIND']));
});

it('Company Search by name and by NAIC', async () => {
	const byName = (await run('company', 'search', { query: 'specialty', returnAll: true })).output!.map((i) => i.json.id);
	expect(byName).toEqual([301, 304]);
	const byNaic = (await run('company', 'search', { query: 'AA-1129999', returnAll: true })).output!.map((i) => i.json.name);
	expect(byNaic).toEqual(["Syndicate 9999 at Lloyd's"]);
});

it('shared dropdown feeders from the sandbox: document types, lines of business, coverages, invoice search', async () => {
	const credentials = { apiKey: keyByName('t2').key, baseUrl: sb.baseUrl };
	await client(sb.baseUrl, credentials.apiKey).post('/invoices', invoiceBody({ policy_number: 'POL-77' }));
	const host = new SurplusLinesDocument();
	const methods = (await import('../../nodes/shared/methods/loadOptions')).loadOptions;
	const withAll = { ...host, description: host.description, methods: { ...host.methods, loadOptions: methods } };
	const base = { node: withAll as never, parameters: { resource: 'document', operation: 'attach' }, credentials };
	const types = (await loadOptions({ ...base, kind: 'loadOptions', method: 'getDocumentTypes' })) as Array<{ value: string; description: string }>;
	expect(types.find((t) => t.value === 'sl2_form')!.description).toBe('Goes to the state with the filing');
	expect(types.find((t) => t.value === 'quote')!.description).toBe('Kept for the operator only');
	expect(await loadOptions({ ...base, kind: 'loadOptions', method: 'getLinesOfBusiness' })).toContainEqual({ name: 'Homeowners', value: 6 });
	expect(await loadOptions({ ...base, kind: 'loadOptions', method: 'getCoverages' })).toContainEqual(expect.objectContaining({ value: 'FLOOD' }));
	const found = (await loadOptions({ ...base, kind: 'listSearch', method: 'searchInvoices', filter: 'POL-77' })) as { results: Array<{ name: string; value: string }> };
	expect(found.results).toEqual([{ name: '#1001 · POL-77 · New 2026-03-01 · new', value: '1001' }]);
});
