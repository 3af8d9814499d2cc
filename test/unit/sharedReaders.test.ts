/**
 * One way to read numbers and text in every node the Calculator reads
 * amounts like the Invoice node, and text fields of every node refuse objects and lists by name
 * instead of sending "[object Object]".
 */
import nock from 'nock';

import { SurplusLinesCalculator } from '../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { SurplusLinesReference } from '../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import type { INodeType } from 'n8n-workflow';
import { runNode } from '../harness/engine';
import { useNockSuite } from '../helpers/nockSuite';
import { TEST_API, TEST_BASE, TEST_KEYS, byId, envelope } from '../helpers/serviceReplies';

useNockSuite();
const credentials = { apiKey: TEST_KEYS.t2, baseUrl: TEST_BASE };

const run = (node: INodeType, parameters: Record<string, object | string | number>, items?: object[]) =>
	runNode({ node, parameters, credentials, continueOnFail: true, items: items as never });

const ESTIMATE = { state: { code: 'TX', name: 'Texas' }, tax_base: 1200.5, line_items: [], total_taxes_and_fees: 0, total_due: 1200.5 };

describe('Calculator amounts use the shared reader', () => {
	const estimate = (premium: string, fees: Record<string, object | string> = { policyFees: '={{ "$1,000.00" }}' }) =>
		run(new SurplusLinesCalculator(), { resource: 'tax', operation: 'estimate', state: '={{ "texas" }}', premium, ...fees });

	it('"1200.5" (accepted by the Invoice node) is accepted here too; "$1,000.00" and a state name are read', async () => {
		const scope = nock(TEST_API).post('/calculator/estimate', { state: 'TX', premium: 1200.5, policy_fees: 1000 }).reply(200, envelope(ESTIMATE));
		const { output } = await estimate('={{ "1200.5" }}');
		expect(output![0].json.code).toBeUndefined();
		scope.done();
	});

	it('"0x10", "1e3" and "1.234,50" are refused with the field, before any call', async () => {
		const trap = nock(TEST_API).post(/.*/).reply(200, envelope(ESTIMATE));
		const { output } = await estimate('={{ "0x10" }}', {
			feesMode: 'itemized',
			fees: { fee: [{ type: 'broker_fee', amount: '={{ "1e3" }}' }, { type: 'inspection_fee', amount: '={{ "1.234,50" }}' }] },
		});
		expect(output![0].json.fields).toEqual([
			'Premium: Must be a number: hexadecimal, octal and binary forms are not read (got "0x10")',
			'fees[0].amount: Must be a number: write the amount in plain digits, without an exponent (got "1e3")',
			'fees[1].amount: Must be a number: a comma as the decimal mark is not read; write 1234.50 (got "1.234,50")',
		]);
		expect(trap.isDone()).toBe(false);
	});
});

describe('text fields refuse objects and lists, with the field named', () => {
	it('Document Attach: a docUUID or file name given as an object is not sent as "[object Object]"', async () => {
		const trap = nock(TEST_API).put(/.*/).reply(201, envelope({}));
		const { output } = await run(
			new SurplusLinesDocument(),
			{
				resource: 'document',
				operation: 'attach',
				invoiceId: byId(1001),
				docUUID: '={{ $json.doc }}',
				documentType: 'declaration_page',
				additionalFields: { filename: '={{ $json.names }}' },
			},
			[{ doc: { id: 'dec-1' }, names: ['a.pdf'] }],
		);
		expect(output![0].json.fields).toEqual(['docUUID: Must be a string, not an object', 'File Name: Must be a string, not a list']);
		expect(trap.isDone()).toBe(false);
	});

	it('Document Get: the document reference given as an object is refused', async () => {
		const trap = nock(TEST_API).get(/.*/).reply(200, envelope({}));
		const { output } = await run(
			new SurplusLinesDocument(),
			{ resource: 'document', operation: 'get', invoiceId: byId(1001), referenceType: 'docUUID', document: '={{ $json.doc }}' },
			[{ doc: { id: 'dec-1' } }],
		);
		expect(output![0].json.fields).toEqual(['Document: Must be a string, not an object']);
		expect(trap.isDone()).toBe(false);
	});

	it('Reference company search: a query given as a list is refused', async () => {
		const trap = nock(TEST_API).get(/.*/).reply(200, envelope({ companies: [] }));
		const { output } = await run(new SurplusLinesReference(), { resource: 'company', operation: 'search', query: '={{ $json.q }}' }, [{ q: ['Specialty'] }]);
		expect(output![0].json.fields).toEqual(['Name or NAIC Code: Must be a string, not a list']);
		expect(trap.isDone()).toBe(false);
	});
});
