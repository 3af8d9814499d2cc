/**
 * The assistants' filing tool (examples/surplus-lines-filing-tool-for-ai-assistants.json) cannot
 * undo filings (issue 54): its File invoice node, run in n8n's engine with the arguments a model
 * sends (`$fromAI` reads them from the tool call's item), refuses a cancellation and a returned
 * premium before any call, and files a New transaction as before. No tool on that server returns
 * text stored at the service.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { API, BASE, KEYS, envelope, invoiceFor, listingReply, setupSuite } from './invoice/helpers';

setupSuite();

const example = JSON.parse(readFileSync(join(__dirname, '../../examples/surplus-lines-filing-tool-for-ai-assistants.json'), 'utf8')) as {
	nodes: Array<{ name: string; type: string; typeVersion: number; parameters: IDataObject }>;
};
const fileInvoice = example.nodes.find((node) => node.name === 'File invoice')!;
const ARGS = { policy_number: 'POL-MCP-1', transaction_type: 'NEW', insured_name: 'Harbor Marine Repair', state: 'TX', net_premium: 12000, effective_date: '2026-01-01', expiration_date: '2027-01-01' };

const call = (args: IDataObject) =>
	runNode({
		node: new SurplusLinesInvoice(),
		parameters: { ...fileInvoice.parameters, billTaxesFromPreview: false },
		items: [args],
		credentials: { apiKey: KEYS.t2, baseUrl: BASE },
		continueOnFail: true,
		settings: { typeVersion: fileInvoice.typeVersion },
	});

describe('the assistants’ filing tool', () => {
	it.each([
		['a cancellation', { transaction_type: 'CANCELLATION', net_premium: -12000 }],
		['a cancellation in other words', { transaction_type: ' cancel ', net_premium: 0 }],
		['an endorsement returning premium', { transaction_type: 'ENDORSEMENT', net_premium: -500 }],
	])('refuses %s before any call', async (_what, args) => {
		const { output } = await call({ ...ARGS, ...args });
		expect(output![0].json.id).toBeUndefined();
		expect(output![0].json).toMatchObject({ code: 'INVALID_INPUT' });
		expect(String(output![0].json.error)).toMatch(/^Invalid input, nothing was sent/);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('files a New transaction as before', async () => {
		nock(API).get('/invoices').query(true).reply(200, listingReply([]));
		nock(API).post('/invoices').reply(201, (_uri, body) => envelope(invoiceFor(body as IDataObject, 1002)));
		const { output } = await call(ARGS);
		expect(output![0].json).toMatchObject({ id: 1002, outcome: 'filed' });
	});

	it('offers no delete, update or read-by-id tool (no text stored at the service reaches the model that files)', () => {
		const tools = example.nodes.filter((node) => node.type.endsWith('Tool'));
		expect(tools.map((node) => [node.name, node.parameters.operation])).toEqual([
			['Preview invoice', 'preview'],
			['File invoice', 'create'],
		]);
	});
});
