/**
 * The tax check: a row's own tax figures compared line by line with the preview's computation,
 * in Preview and Create, inside n8n's engine with the service mocked by nock.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { API, BASE, KEYS, envelope, invoiceFor, meReply, setupSuite } from './helpers';

setupSuite();
beforeEach(() => nock(API).get('/auth/me').reply(200, meReply()).persist());

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

function runInvoice(typeVersion: number, parameters: IDataObject, items: IDataObject[], continueOnFail = false) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', inputMode: 'columns', columns: AUTO, idempotency: 'off', ...parameters },
		items,
		credentials: { apiKey: KEYS.t2, baseUrl: BASE },
		settings: { typeVersion },
		continueOnFail,
	});
}

/** A Lloyd's-style row whose broker figured SL tax on the wrong rate; stamping fee and total right. */
const ROW = {
	'Certificate Reference': 'CR-2026-001',
	'Insured Full Name': 'Gulf Coast Marina LLC',
	'Location of Risk State': 'TX',
	'Transaction Type': 'Original Premium',
	'Risk Inception Date': '03/01/2026',
	'Risk Expiry Date': '03/01/2027',
	'Gross Premium Paid this time': '10,000.00',
	'SL Tax': '500.00',
	'Stamping Fee': '4.00',
	'Total Due': '10489.00',
};

// TX on 2026-03-01: 4.85% and 0.04% of 10,000.
const TAX = {
	state: { id: 44, code: 'TX', name: 'Texas' },
	input: { premium: 10000, policy_fees: 0, effective_date: '2026-03-01' },
	line_items: [
		{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 0.0485, rate_type: 'percentage', amount: 485 },
		{ name: 'Stamping Fee', code: 'stamping_fee', rate: 0.0004, rate_type: 'percentage', amount: 4 },
	],
	total_taxes_and_fees: 489,
	total_due: 10489,
};
const previewReply = envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: TAX, invoice: null });
const SENT = {
	policy_number: 'CR-2026-001',
	insured_name: 'Gulf Coast Marina LLC',
	state_code: 'TX',
	net_premium: 10000,
	effective_date: '2026-03-01',
	expiration_date: '2027-03-01',
	type_code: 'NEW',
	fees: [
		{ type: 'sl_tax', amount: 500 },
		{ type: 'stamping_fee', amount: 4 },
	],
};
const WARNING = 'Tax check: Surplus Lines Tax (column "SL Tax"): sheet 500.00, computed 485.00 for TX on 2026-03-01, difference 15.00';

describe('tax check', () => {
	it('Preview compares the sheet’s figures line by line, and says where they differ', async () => {
		const preview = nock(API).post('/invoices/preview', SENT).reply(200, previewReply);
		const { output, error } = await runInvoice(1, { operation: 'preview' }, [ROW]);
		expect(error).toBeUndefined();
		preview.done();
		const json = output![0].json;
		expect(json._taxCheck).toEqual({
			state: 'TX',
			date: '2026-03-01',
			tolerance: 0.01,
			lines: [
				{ code: 'sl_tax', name: 'Surplus Lines Tax', column: 'SL Tax', sheet: 500, computed: 485, difference: 15 },
				{ code: 'stamping_fee', name: 'Stamping Fee', column: 'Stamping Fee', sheet: 4, computed: 4, difference: 0 },
				{ code: 'total_due', name: 'Total Due', sheet: 10489, computed: 10489, difference: 0 },
			],
			differences: 1,
		});
		expect(json._warnings).toEqual([WARNING]);
		// The Lloyd's word is read and said: Original Premium is a new policy.
		expect(json._converted).toEqual(expect.arrayContaining([{ field: 'type_code', from: 'Original Premium', to: 'NEW', why: 'Original Premium: new policy', column: 'Transaction Type' }]));
	});

	it('Create with Bill Taxes From Preview (version 2) uses its preview: no extra call, the sheet’s lines kept and the difference said', async () => {
		const preview = nock(API).post('/invoices/preview', SENT).reply(200, previewReply);
		const create = nock(API).post('/invoices', SENT).reply(201, envelope(invoiceFor(SENT, 41)));
		const { output, error } = await runInvoice(2, { operation: 'create' }, [ROW]);
		expect(error).toBeUndefined();
		preview.done();
		create.done();
		expect(output![0].json.id).toBe(41);
		expect(output![0].json._warnings).toEqual([WARNING]);
		expect((output![0].json._taxCheck as IDataObject).differences).toBe(1);
	});

	it('the Fail option makes a difference over the tolerance an error item, and nothing is filed', async () => {
		const preview = nock(API).post('/invoices/preview').reply(200, previewReply);
		const trap = nock(API).post('/invoices').reply(201, envelope({}));
		const { output } = await runInvoice(2, { operation: 'create', options: { sheetTaxCheck: 'fail' } }, [ROW], true);
		preview.done();
		expect(trap.isDone()).toBe(false);
		expect(output![0].json).toMatchObject({
			code: 'TAX_CHECK_FAILED',
			policy_number: 'CR-2026-001',
			fields: [WARNING],
		});
		expect(String(output![0].json.error)).toMatch(/differ from the service's computation by more than 0\.01, nothing was filed/);
	});

	it('within the tolerance is not a difference', async () => {
		nock(API).post('/invoices/preview').reply(200, previewReply);
		nock(API).post('/invoices').reply(201, envelope(invoiceFor(SENT, 42)));
		const { output } = await runInvoice(2, { operation: 'create', options: { sheetTaxCheck: 'fail', sheetTaxTolerance: 20 } }, [ROW]);
		expect(output![0].json.id).toBe(42);
		expect(output![0].json._warnings).toBeUndefined();
		expect((output![0].json._taxCheck as IDataObject).differences).toBe(0);
	});

	it('version 1 without Bill Taxes From Preview: by default no preview is spent; "Previewing When Needed" spends one', async () => {
		const create = nock(API).post('/invoices', SENT).times(2).reply(201, envelope(invoiceFor(SENT, 43)));
		const quiet = await runInvoice(1, { operation: 'create' }, [ROW]);
		expect(quiet.output![0].json._taxCheck).toBeUndefined();
		const preview = nock(API).post('/invoices/preview', SENT).reply(200, previewReply);
		const checked = await runInvoice(1, { operation: 'create', options: { sheetTaxCheck: 'always' } }, [ROW]);
		preview.done();
		create.done();
		expect(checked.output![0].json._warnings).toEqual([WARNING]);
	});

	it('a row without tax figures is not checked, and Off checks nothing', async () => {
		const plain: IDataObject = { ...ROW };
		for (const column of ['SL Tax', 'Stamping Fee', 'Total Due']) delete plain[column];
		nock(API).post('/invoices/preview').times(2).reply(200, previewReply);
		const unchecked = await runInvoice(1, { operation: 'preview' }, [plain]);
		expect(unchecked.output![0].json._taxCheck).toBeUndefined();
		const off = await runInvoice(1, { operation: 'preview', options: { sheetTaxCheck: 'off' } }, [ROW]);
		expect(off.output![0].json._taxCheck).toBeUndefined();
		expect(off.output![0].json._warnings).toBeUndefined();
	});

	it('a return premium written unsigned is compared with its negative taxes and total; a tax the state does not levy is named', async () => {
		const row = { ...ROW, 'Transaction Type': 'Return Premium', 'Gross Premium Paid this time': '1000', 'SL Tax': '48.50', 'Stamping Fee': '0.40', 'Fire Marshal Tax': '1.00', 'Total Due': '', 'Total Taxes and Fees': '48.90' };
		const tax = {
			...TAX,
			line_items: [
				{ name: 'Surplus Lines Tax', code: 'sl_tax', amount: -48.5 },
				{ name: 'Stamping Fee', code: 'stamping_fee', amount: -0.4 },
			],
			total_taxes_and_fees: -48.9,
		};
		const preview = nock(API)
			.post('/invoices/preview', (b: IDataObject) => b.net_premium === -1000 && b.type_code === 'ENDORSEMENT')
			.reply(200, envelope({ validation: { valid: true, errors: [] }, tax_calculation: tax }));
		const { output } = await runInvoice(1, { operation: 'preview' }, [row]);
		preview.done();
		expect((output![0].json._taxCheck as { lines: IDataObject[] }).lines.map((l) => [l.code, l.sheet, l.computed, l.difference])).toEqual([
			['sl_tax', -48.5, -48.5, 0],
			['stamping_fee', -0.4, -0.4, 0],
			['fire_marshal', -1, null, -1],
			// The total is never sent; written unsigned on a return, it is read as the premium was.
			['total_taxes_and_fees', -48.9, -48.9, 0],
		]);
		expect(output![0].json._warnings).toEqual([
			'Tax check: Fire Marshal Tax (column "Fire Marshal Tax"): sheet -1.00, the service computes no fire_marshal for TX on 2026-03-01, difference -1.00',
		]);
	});
});
