/**
 * The action nodes as tools: the description an assistant reads (through n8n's own tool
 * description), errors with a next step for a model, no rate-limit wait inside a tool call, and
 * the estimate's output for an assistant.
 */
import nock from 'nock';
import type { INode, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { SurplusLinesCalculator } from '../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { SurplusLinesReference } from '../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import { PACKAGE, runNode } from '../harness/engine';
import { useNockSuite } from '../helpers/nockSuite';
import { TEST_API, TEST_BASE, TEST_KEYS, envelope, failure } from '../helpers/serviceReplies';

const ACTION_NODES: INodeType[] = [new SurplusLinesCalculator(), new SurplusLinesReference(), new SurplusLinesInvoice(), new SurplusLinesDocument()];

/** The `...Tool` variant n8n generates from a `usableAsTool` node: same class, name ending in Tool. */
function toolVariant(node: INodeType): INodeType {
	const description = { ...node.description, name: `${node.description.name}Tool`, displayName: `${node.description.displayName} Tool` };
	delete description.usableAsTool;
	return Object.assign(Object.create(Object.getPrototypeOf(node) as object) as INodeType, node, { description });
}

/** Every resource and operation of a node, from its Operation options. */
function operationsOf(description: INodeTypeDescription): Array<[string, string]> {
	return description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => (p.displayOptions?.show?.resource as string[]).flatMap((resource) => (p.options as Array<{ value: string }>).map((o): [string, string] => [resource, o.value])));
}

/** The node's parameters as n8n completes them when it loads a workflow (defaults included). */
function loaded(description: INodeTypeDescription, parameters: INode['parameters']): INode {
	const node: INode = { id: '1', name: 'Tool', type: `${PACKAGE}.${description.name}`, typeVersion: 2, position: [0, 0], parameters };
	node.parameters = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) ?? {};
	return node;
}

describe('Tool Description: what an assistant reads about each operation', () => {
	it.each(ACTION_NODES.map((node) => [node.description.displayName, node] as const))('%s: one per operation, on the tool variant only', (_name, node) => {
		const tool = toolVariant(node).description;
		for (const [resource, operation] of operationsOf(node.description)) {
			const asTool = loaded(tool, { resource, operation });
			const text = String(asTool.parameters.toolDescription);
			// n8n's own reader: the text the MCP Server Trigger and the AI Agent hand to the model.
			expect(NodeHelpers.getToolDescriptionForNode(asTool, { description: tool } as INodeType)).toBe(text);
			expect(text.length).toBeGreaterThan(80);
			expect(text).not.toMatch(/click|run again|panel/i);
			expect(loaded(node.description, { resource, operation }).parameters).not.toHaveProperty('toolDescription');
		}
	});

	it('a description the user wrote stays, and n8n adds no Set Automatically switch of its own', () => {
		const tool = toolVariant(new SurplusLinesCalculator()).description;
		const written = loaded(tool, { resource: 'tax', operation: 'estimate', toolDescription: 'Our own words' });
		expect(NodeHelpers.getToolDescriptionForNode(written, { description: tool } as INodeType)).toBe('Our own words');
		// n8n's generator adds descriptionType only to nodes without a toolDescription parameter.
		expect(tool.properties.some((p) => p.name === 'toolDescription')).toBe(true);
	});

	it('says what the estimate returns, its inputs and formats, and what to do after an error', () => {
		const text = String(loaded(toolVariant(new SurplusLinesCalculator()).description, { resource: 'tax', operation: 'estimate' }).parameters.toolDescription);
		expect(text).toMatch(/two-letter code/);
		expect(text).toMatch(/YYYY-MM-DD/);
		expect(text).toMatch(/Returns .*disclaimer/);
		expect(text).toMatch(/An error names the input at fault/);
	});
});

const credentials = { apiKey: TEST_KEYS.t2, baseUrl: TEST_BASE };
const fakeClock = useNockSuite();

function estimateAsTool(parameters: Record<string, unknown>, continueOnFail = false) {
	return runNode({
		node: toolVariant(new SurplusLinesCalculator()),
		parameters: { resource: 'tax', operation: 'estimate', state: 'TX', premium: 12000, ...parameters },
		credentials,
		continueOnFail,
	});
}

describe('errors a model can act on', () => {
	it('a bad input: the fields at fault and the next step, none of the advice for a person', async () => {
		const { error } = await estimateAsTool({ state: 'ZZ', premium: -5 });
		expect(error!.message).toMatch(/^Invalid input, nothing was sent: State/);
		expect(error!.description).toMatch(/^State: .*\nPremium: .*\nNothing was sent to the service\. Call the tool again with the fields named above corrected\.$/);
		expect(error!.description).not.toMatch(/Fix the item|run again/);
	});

	it('with On Error: Continue the reply is the error item, with code and fields', async () => {
		const { output } = await estimateAsTool({ state: 'ZZ' }, true);
		expect(output![0].json).toMatchObject({ code: 'INVALID_INPUT', fields: [expect.stringMatching(/^State: /)] });
		expect(String(output![0].json.description)).toMatch(/Call the tool again/);
	});

	it('a key the service refuses: nothing the model can change, so it says to tell the user', async () => {
		nock(TEST_API).post('/calculator/estimate').reply(401, failure('UNAUTHORIZED', 'Invalid API key'));
		const { error } = await estimateAsTool({});
		expect(error!.description).toMatch(/changing the inputs will not help\. Tell the user/);
		expect(error!.description).not.toMatch(/API Key in the Surplus Lines API credential, or ask the operator/);
	});
});

describe('rate limit inside a tool call', () => {
	it('answers at once with when to try again, where the node outside tool use waits', async () => {
		const fake = fakeClock();
		const limited = () =>
			nock(TEST_API).post('/calculator/estimate').reply(429, failure('RATE_LIMIT_EXCEEDED', 'Too many requests'), { 'Retry-After': '40' });
		limited();
		const second = nock(TEST_API).post('/calculator/estimate').reply(200, envelope({ state: { code: 'TX' }, input: {}, line_items: [] }));
		const { error } = await estimateAsTool({});
		expect(error!.message).toMatch(/RATE_LIMIT_EXCEEDED.*answers at once instead of waiting/);
		expect(error!.context?.surplusLines).toMatchObject({ extra: { retry_after_seconds: 40, retry_at: new Date((fake.nowSeconds() + 40) * 1000).toISOString() } });
		expect(error!.description).toMatch(/Call again after the time given \(retry_at\)/);
		expect(fake.sleeps).toEqual([]);
		expect(second.isDone()).toBe(false);
	});

	it('a wait the user set on the tool is kept', async () => {
		const fake = fakeClock();
		nock(TEST_API).post('/calculator/estimate').reply(429, failure('RATE_LIMIT_EXCEEDED', 'Too many requests'), { 'Retry-After': '5' });
		nock(TEST_API).post('/calculator/estimate').reply(200, envelope({ state: { code: 'TX' }, input: {}, line_items: [] }));
		const { error } = await estimateAsTool({ requestOptions: { maxRateLimitWaitSeconds: 10 } });
		expect(error).toBeUndefined();
		expect(fake.sleeps).toEqual([5000]);
	});
});

describe('the estimate for an assistant', () => {
	it('keeps each line with its rate, the totals, notes and the disclaimer; drops what only a sheet needs', async () => {
		nock(TEST_API)
			.post('/calculator/estimate')
			.reply(
				200,
				envelope({
					state: { id: 44, code: 'TX', name: 'Texas' },
					input: { premium: 12000, policy_fees: 0, effective_date: '2025-06-01' },
					tax_base: 12000,
					line_items: [
						{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 4.85, rate_type: 'percentage', amount: 582, unrounded_amount: 582 },
						{ name: 'Stamping Fee', code: 'stamping_fee', rate: 0.04, rate_type: 'percentage', amount: 4.8, unrounded_amount: 4.8 },
					],
					rounding_rule: 'standard',
					total_taxes_and_fees: 586.8,
					total_due: 12586.8,
					fee_breakdown: null,
					special_notes: 'Stamping fee goes to SLTX.',
					calculated_at: '2026-11-22T12:00:00Z',
					disclaimer: 'Estimate only.',
				}),
			);
		const { output } = await estimateAsTool({ output: 'assistant' });
		expect(output![0].json).toEqual({
			state: 'TX',
			state_name: 'Texas',
			effective_date: '2025-06-01',
			premium: 12000,
			policy_fees: 0,
			tax_base: 12000,
			lines: [
				{ code: 'sl_tax', name: 'Surplus Lines Tax', rate: 4.85, rate_type: 'percentage', amount: 582 },
				{ code: 'stamping_fee', name: 'Stamping Fee', rate: 0.04, rate_type: 'percentage', amount: 4.8 },
			],
			total_taxes_and_fees: 586.8,
			total_due: 12586.8,
			special_notes: 'Stamping fee goes to SLTX.',
			disclaimer: 'Estimate only.',
		});
	});
});

describe('the preview for an assistant', () => {
	const body = { policy_number: 'POL-1', insured_name: 'Acme', state_code: 'FL', net_premium: 1200, effective_date: '2026-01-01', expiration_date: '2027-01-01', type_code: 'NEW' };
	const reply = {
		validation: { valid: true, errors: [], warnings: ['w1'] },
		tax_calculation: {
			state: { code: 'FL', name: 'Florida' },
			input: { premium: 1200, policy_fees: 0, effective_date: '2026-01-01' },
			tax_base: 1200,
			line_items: [{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 4.94, rate_type: 'percentage', amount: 59.28, unrounded_amount: 59.28 }],
			total_taxes_and_fees: 59.28,
			total_due: 1259.28,
			disclaimer: 'Estimate only.',
		},
		invoice: { ...body, status: 'new' },
	};
	const preview = (node: INodeType, simplify: boolean) =>
		runNode({
			node,
			parameters: { resource: 'invoice', operation: 'preview', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}', simplify },
			items: [body],
			credentials,
			settings: { typeVersion: 2 },
		});

	it('Simplify: the verdict and the tax lines, without the invoice echoed back', async () => {
		nock(TEST_API).post('/invoices/preview', body).reply(200, envelope(reply));
		const { output } = await preview(new SurplusLinesInvoice(), true);
		expect(output![0].json).toEqual({
			valid: true,
			errors: [],
			warnings: ['w1'],
			state: 'FL',
			state_name: 'Florida',
			effective_date: '2026-01-01',
			premium: 1200,
			policy_fees: 0,
			tax_base: 1200,
			lines: [{ code: 'sl_tax', name: 'Surplus Lines Tax', rate: 4.94, rate_type: 'percentage', amount: 59.28 }],
			total_taxes_and_fees: 59.28,
			total_due: 1259.28,
			disclaimer: 'Estimate only.',
		});
	});

	it('in tool use the whole reply comes without the note about Create’s switch; outside tool use with it', async () => {
		nock(TEST_API).post('/invoices/preview', body).times(2).reply(200, envelope(reply));
		const asTool = await preview(toolVariant(new SurplusLinesInvoice()), false);
		expect(asTool.output![0].json.invoice).toMatchObject({ policy_number: 'POL-1' });
		expect(asTool.output![0].json).not.toHaveProperty('_taxWarning');
		const asNode = await preview(new SurplusLinesInvoice(), false);
		expect(String(asNode.output![0].json._taxWarning)).toMatch(/Bill Taxes From Preview/);
	});
});
