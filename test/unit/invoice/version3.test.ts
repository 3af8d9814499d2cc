/**
 * Invoice typeVersion 3: every item shows the service's `filed` (true once the invoice was sent to
 * the state) as `sent_to_state`, so a row filed with the service reads `outcome: "filed"` beside
 * `sent_to_state: false`, not beside `filed: false`. Workflows saved with versions 1 and 2 keep
 * `filed`, which their IF nodes read; the panel's words and the tools' descriptions follow the version.
 */
import nock from 'nock';
import type { IDataObject, INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { PACKAGE, runNode } from '../../harness/engine';
import { API, BASE, KEYS, envelope, invoiceFor, jsonParams, listingReply, row, setupSuite } from './helpers';

setupSuite();

function runAt(typeVersion: number, parameters: IDataObject, items: IDataObject[] = [{}]) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', billTaxesFromPreview: false, ...parameters },
		items,
		credentials: { apiKey: KEYS.t2, baseUrl: BASE },
		settings: { typeVersion },
	});
}

/**
 * The policy's listing each create reads before filing (Idempotency derived and Look for Rows
 * Already Filed on, the defaults): nothing filed on it yet.
 */
function nothingFiledOn(policyNumber: string) {
	return nock(API).get('/invoices').query({ policy_number: policyNumber, page: 1, per_page: 100 }).reply(200, listingReply([]));
}

/** Answers every create with the invoice the body makes, status new and not yet sent to the state. */
function answerCreates(firstId: number) {
	let id = firstId;
	return nock(API)
		.post('/invoices')
		.reply(201, (_uri, sent) => envelope(invoiceFor(sent as IDataObject, id++)))
		.persist();
}

describe('Invoice version 3: the service’s filed shown as sent_to_state', () => {
	it('offers versions 1 to 3 (and 4, version4.test.ts)', () => {
		const { description } = new SurplusLinesInvoice();
		expect(description.version).toEqual(expect.arrayContaining([1, 2, 3]));
	});

	it('Create, whole invoice: sent_to_state in filed’s place beside outcome filed', async () => {
		const listing = nothingFiledOn('POL-100');
		answerCreates(3001);
		const { output, error } = await runAt(3, jsonParams('create'), [row()]);
		expect(error).toBeUndefined();
		listing.done();
		const json = output![0].json;
		expect(json).toMatchObject({ id: 3001, status: 'new', sent_to_state: false, outcome: 'filed' });
		expect(json).not.toHaveProperty('filed');
		// The field keeps its place among the service's fields (after status, before fees).
		const keys = Object.keys(json);
		expect(keys.indexOf('sent_to_state')).toBe(keys.indexOf('status') + 1);
	});

	it('Create, simplified: sent_to_state, no filed', async () => {
		nothingFiledOn('POL-100');
		answerCreates(3002);
		const { output } = await runAt(3, jsonParams('create', { simplify: true }), [row()]);
		expect(output![0].json).toMatchObject({ id: 3002, status: 'new', sent_to_state: false, outcome: 'filed' });
		expect(output![0].json).not.toHaveProperty('filed');
	});

	it('Create Many: every row’s item shows sent_to_state', async () => {
		const listings = [nothingFiledOn('POL-1'), nothingFiledOn('POL-2')];
		answerCreates(3010);
		const rows = [row({ policy_number: 'POL-1' }), row({ policy_number: 'POL-2' })];
		const { output, error } = await runAt(3, jsonParams('createMany'), rows);
		expect(error).toBeUndefined();
		for (const listing of listings) listing.done();
		expect(output!.map((o) => [o.json.outcome, o.json.sent_to_state, 'filed' in o.json])).toEqual([
			['filed', false, false],
			['filed', false, false],
		]);
	});

	it('Get, Get Many and Update show sent_to_state as the service reports it', async () => {
		const sent = invoiceFor(row(), 77, { status: 'sent', filed: true });
		nock(API).get('/invoices/77').reply(200, envelope(sent));
		nock(API).get('/invoices').query(true).reply(200, listingReply([sent]));
		nock(API).put('/invoices/77').reply(200, envelope(sent));
		const got = await runAt(3, { operation: 'get', invoiceId: '77', simplify: true });
		const listed = await runAt(3, { operation: 'getAll', policyNumber: 'POL-100', returnAll: true });
		const updated = await runAt(3, { operation: 'update', invoiceId: '77', inputMode: 'json', invoiceJson: '{"insured_name":"Acme Roofing Inc"}' });
		for (const { output } of [got, listed, updated]) {
			expect(output![0].json.sent_to_state).toBe(true);
			expect(output![0].json).not.toHaveProperty('filed');
		}
	});

	it.each([1, 2])('a workflow saved with version %i keeps filed, which its IF nodes read', async (version) => {
		nothingFiledOn('POL-100');
		answerCreates(3020);
		const { output } = await runAt(version, jsonParams('create', { simplify: true }), [row()]);
		expect(output![0].json).toMatchObject({ filed: false, outcome: 'filed' });
		expect(output![0].json).not.toHaveProperty('sent_to_state');
	});
});

/** The node's parameters as n8n completes them for a node of this version (defaults included). */
function loaded(description: INodeTypeDescription, typeVersion: number, parameters: INode['parameters']): INode {
	const node: INode = { id: '1', name: 'Invoice', type: `${PACKAGE}.${description.name}`, typeVersion, position: [0, 0], parameters };
	node.parameters = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) ?? {};
	return node;
}

function simplifyWords(typeVersion: number): string {
	const { properties } = new SurplusLinesInvoice().description;
	const node = loaded(new SurplusLinesInvoice().description, typeVersion, { resource: 'invoice', operation: 'get' });
	const shown = properties.filter((p) => p.name === 'simplify' && NodeHelpers.displayParameter(node.parameters, p, node, new SurplusLinesInvoice().description));
	expect(shown).toHaveLength(1);
	return String(shown[0].description);
}

function toolWords(typeVersion: number, operation: string): string {
	const description = { ...new SurplusLinesInvoice().description, name: 'surplusLinesInvoiceTool' };
	return String(loaded(description, typeVersion, { resource: 'invoice', operation }).parameters.toolDescription);
}

describe('The panel and the tools say the version’s word', () => {
	it('Simplify lists filed up to version 2 and sent_to_state from version 3', () => {
		expect(simplifyWords(2)).toMatch(/type, status, filed, state/);
		expect(simplifyWords(3)).toMatch(/type, status, sent_to_state \(true once the service has sent the invoice to the state\), state/);
	});

	it.each(['get', 'getAll', 'create'])('the %s tool names the field its version returns', (operation) => {
		expect(toolWords(2, operation)).toMatch(/\bfiled( \(true once sent\)| false|, state)/);
		expect(toolWords(2, operation)).not.toContain('sent_to_state');
		expect(toolWords(3, operation)).toContain('sent_to_state');
		expect(toolWords(3, operation)).not.toMatch(/\bfiled( \(true once sent\)| false|, state)/);
	});
});
