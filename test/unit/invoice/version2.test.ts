/**
 * Invoice typeVersion 2: Create bills the preview's taxes unless switched off; a
 * workflow saved with typeVersion 1 loads and runs as before (no preview unless its option is on).
 * Any invoice created or previewed without a Surplus Lines Tax line says so on its item and once
 * over the output.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode, type NodeRun } from '../../harness/engine';
import { asSent, API, BASE, KEYS, envelope, invoiceFor, listingReply, row, setupSuite } from './helpers';

setupSuite();

/**
 * The policy's listing each Create reads before filing (Idempotency derived and Look for Rows
 * Already Filed on, the defaults of every version): nothing filed on it yet.
 */
function nothingFiledOn(policyNumber: string) {
	return nock(API).get('/invoices').query({ policy_number: policyNumber, page: 1, per_page: 100 }).reply(200, listingReply([]));
}

/** The Create node of a workflow saved by the package's first release (typeVersion 1). */
const SAVED_V1_NODE = {
	parameters: {
		resource: 'invoice',
		operation: 'create',
		inputMode: 'json',
		invoiceJson: '={{ JSON.stringify($json) }}',
		options: {},
	},
	type: 'n8n-nodes-surplus-lines.surplusLinesInvoice',
	typeVersion: 1,
};

function runCreate(typeVersion: number, parameters: IDataObject, items: IDataObject[]) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters,
		items,
		credentials: { apiKey: KEYS.t2, baseUrl: BASE },
		settings: { typeVersion },
	});
}

function hintsOf(run: NodeRun) {
	return Object.values(run.run.data.resultData.runData).flatMap((runs) => runs[0].hints ?? []);
}

const taxLines = [
	{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 0.0485, rate_type: 'percentage', amount: 58.2 },
	{ name: 'Stamping Fee', code: 'stamping_fee', rate: 0.0018, rate_type: 'percentage', amount: 2.16 },
];
const previewReply = envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: { line_items: taxLines }, invoice: null });

describe('Invoice versions', () => {
	it('keeps versions 1 and 2 on offer for saved workflows (version3.test.ts: new ones get 3)', () => {
		const { description } = new SurplusLinesInvoice();
		expect(description.version).toEqual(expect.arrayContaining([1, 2]));
	});

	it('version 2: Create previews and bills the tax lines without being asked', async () => {
		const body = row({ state_code: 'FL' });
		const billed = { ...asSent(body), fees: [{ type: 'sl_tax', amount: 58.2 }, { type: 'stamping_fee', amount: 2.16 }] };
		const preview = nock(API).post('/invoices/preview', asSent(body)).reply(200, previewReply);
		const listing = nothingFiledOn('POL-100');
		const create = nock(API).post('/invoices', billed).reply(201, envelope(invoiceFor(billed, 2001)));
		const result = await runCreate(2, { ...SAVED_V1_NODE.parameters }, [body]);
		expect(result.error).toBeUndefined();
		expect(result.output![0].json.fees).toEqual(billed.fees);
		expect(result.output![0].json._taxWarning).toBeUndefined();
		expect(hintsOf(result)).toEqual([]);
		preview.done();
		listing.done();
		create.done();
	});

	it('version 2 switched off: no preview, and the item says the invoice went without a tax line', async () => {
		const body = row({ state_code: 'FL', fees: [{ type: 'policy_fee_company', amount: 150 }] });
		const listing = nothingFiledOn('POL-100');
		const create = nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(body, 2002, { state: { id: 10, code: 'FL', name: 'Florida' } })));
		const result = await runCreate(2, { ...SAVED_V1_NODE.parameters, billTaxesFromPreview: false }, [body]);
		expect(result.error).toBeUndefined();
		expect(result.output![0].json._taxWarning).toBe(
			'Filed without a Surplus Lines Tax (sl_tax) line: every state levies surplus lines tax, and FL gets none from this invoice. Turn on Bill Taxes From Preview, or add the tax lines Preview or the Calculator gives, then Update the invoice.',
		);
		expect(hintsOf(result)).toEqual([
			expect.objectContaining({ type: 'warning', location: 'outputPane', message: expect.stringContaining('no Surplus Lines Tax line') }),
		]);
		listing.done();
		create.done();
	});

	it('a workflow saved with typeVersion 1 runs as version 1: no preview, the invoice filed as given', async () => {
		const body = row({ state_code: 'FL' });
		const preview = nock(API).post('/invoices/preview').reply(200, previewReply);
		const listing = nothingFiledOn('POL-100');
		const create = nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(body, 2003)));
		const result = await runCreate(SAVED_V1_NODE.typeVersion, SAVED_V1_NODE.parameters, [body]);
		expect(result.error).toBeUndefined();
		expect(result.output![0].json).toMatchObject({ id: 2003, fees: [] });
		// Only the warning is new: the filing is what version 1 always did.
		expect(result.output![0].json._taxWarning).toContain('Filed without a Surplus Lines Tax (sl_tax) line');
		expect(preview.isDone()).toBe(false);
		listing.done();
		create.done();
	});

	it('version 1 with its Bill Taxes From Preview option still bills the taxes', async () => {
		const body = row();
		const billed = { ...asSent(body), fees: [{ type: 'sl_tax', amount: 58.2 }, { type: 'stamping_fee', amount: 2.16 }] };
		nock(API).post('/invoices/preview', asSent(body)).reply(200, previewReply);
		const listing = nothingFiledOn('POL-100');
		const create = nock(API).post('/invoices', billed).reply(201, envelope(invoiceFor(billed, 2004)));
		const result = await runCreate(1, { ...SAVED_V1_NODE.parameters, options: { billTaxesFromPreview: true } }, [body]);
		expect(result.error).toBeUndefined();
		listing.done();
		create.done();
	});

	it('no warning on a zero-premium change or when the tax line was sent', async () => {
		const zero = row({ type_code: 'ENDORSEMENT', net_premium: 0 });
		const taxed = row({ policy_number: 'POL-101', fees: [{ type: 'sl_tax', amount: 58.2 }] });
		nothingFiledOn('POL-100');
		nothingFiledOn('POL-101');
		nock(API)
			.post('/invoices')
			.times(2)
			.reply(201, (_uri, sent) => envelope(invoiceFor(sent as IDataObject, 2005)));
		const result = await runCreate(1, SAVED_V1_NODE.parameters, [zero, taxed]);
		expect(result.output!.map((o) => o.json._taxWarning)).toEqual([undefined, undefined]);
	});
});

describe('Preview says when the fees carry no tax line', () => {
	it('names each computed line missing from the fees, with its amount', async () => {
		const body = row({ state_code: 'FL', fees: [{ type: 'stamping_fee', amount: 2.16 }] });
		nock(API).post('/invoices/preview', body).reply(200, previewReply);
		const result = await runCreate(2, { resource: 'invoice', operation: 'preview', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' }, [body]);
		expect(result.output![0].json._taxWarning).toBe(
			'The fees carry no tax line; the preview computes Surplus Lines Tax (sl_tax) 58.2 for FL. Create files the invoice without them unless Bill Taxes From Preview is on or they are added to the fees.',
		);
		expect(hintsOf(result)).toHaveLength(1);
	});

	it('says nothing when the fees carry the surplus lines tax', async () => {
		const body = row({ fees: [{ type: 'sl_tax', amount: 58.2 }] });
		nock(API).post('/invoices/preview', body).reply(200, previewReply);
		const result = await runCreate(2, { resource: 'invoice', operation: 'preview', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' }, [body]);
		expect(result.output![0].json._taxWarning).toBeUndefined();
		expect(hintsOf(result)).toEqual([]);
	});
});
