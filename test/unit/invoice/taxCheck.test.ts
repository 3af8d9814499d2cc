/**
 * The tax check: a row's own tax figures compared line by line with the preview's computation,
 * in Preview and Create, inside n8n's engine with the service mocked by nock.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { asSent, API, BASE, KEYS, envelope, invoiceFor, listingReply, setupSuite } from './helpers';

setupSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

/**
 * The policy's listing a version 2 Create reads before filing (the look first, on every account):
 * version 2 reads Idempotency from Options (derived unless set), so the main panel's Off below
 * does not apply there; version 1 reads it, and files without looking.
 */
function nothingFiledOn(policyNumber: string) {
	return nock(API).get('/invoices').query({ policy_number: policyNumber, page: 1, per_page: 100 }).reply(200, listingReply([]));
}

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
const previewOf = (tax: object) => envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: tax, invoice: null });
const previewReply = previewOf(TAX);
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
				{ code: 'total_due', name: 'Total Due', column: 'Total Due', sheet: 10489, computed: 10489, difference: 0 },
			],
			differences: 1,
		});
		expect(json._warnings).toEqual([WARNING]);
		// The Lloyd's word is read and said: Original Premium is a new policy.
		expect(json._converted).toEqual(expect.arrayContaining([{ field: 'type_code', from: 'Original Premium', to: 'NEW', why: 'Original Premium: new policy', column: 'Transaction Type' }]));
	});

	it('Create with Bill Taxes From Preview (version 2) uses its preview: no second preview, the sheet’s lines kept and the difference said', async () => {
		const listing = nothingFiledOn('CR-2026-001');
		const preview = nock(API).post('/invoices/preview', asSent(SENT)).reply(200, previewReply);
		const create = nock(API).post('/invoices', asSent(SENT)).reply(201, envelope(invoiceFor(SENT, 41)));
		const { output, error } = await runInvoice(2, { operation: 'create' }, [ROW]);
		expect(error).toBeUndefined();
		// One preview, the policy's listing and the create: any other call would fail the run.
		listing.done();
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
		nothingFiledOn('CR-2026-001');
		nock(API).post('/invoices').reply(201, envelope(invoiceFor(SENT, 42)));
		const { output } = await runInvoice(2, { operation: 'create', options: { sheetTaxCheck: 'fail', sheetTaxTolerance: 20 } }, [ROW]);
		expect(output![0].json.id).toBe(42);
		expect(output![0].json._warnings).toBeUndefined();
		expect((output![0].json._taxCheck as IDataObject).differences).toBe(0);
	});

	it('version 1 without Bill Taxes From Preview: by default no preview is spent; "Previewing When Needed" spends one', async () => {
		const create = nock(API).post('/invoices', asSent(SENT)).times(2).reply(201, envelope(invoiceFor(SENT, 43)));
		const quiet = await runInvoice(1, { operation: 'create' }, [ROW]);
		expect(quiet.output![0].json._taxCheck).toBeUndefined();
		const preview = nock(API).post('/invoices/preview', asSent(SENT)).reply(200, previewReply);
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

/** ROW with an explicit 0 in its SL Tax column and no total. */
const ZERO_ROW: IDataObject = { ...ROW, 'SL Tax': '0' };
delete ZERO_ROW['Total Due'];

describe('a 0 in a tax column', () => {
	it('Bill Taxes From Preview keeps it: 0 is filed, and the item says what the preview computed', async () => {
		const preview = nock(API).post('/invoices/preview').reply(200, previewReply);
		const listing = nothingFiledOn('CR-2026-001');
		let filed: IDataObject | undefined;
		const create = nock(API)
			.post('/invoices', (b: IDataObject) => ((filed = b), true))
			.reply(201, (_uri, b) => envelope(invoiceFor(b as IDataObject, 51)));
		const { output } = await runInvoice(2, { operation: 'create' }, [ZERO_ROW]);
		preview.done();
		listing.done();
		create.done();
		expect(filed!.fees).toEqual([
			{ type: 'sl_tax', amount: 0 },
			{ type: 'stamping_fee', amount: 4 },
		]);
		expect(output![0].json._warnings).toEqual([
			'Surplus Lines Tax (sl_tax): the row gives 0 and 0 is filed; the preview computed 485.00 for TX. Bill Taxes From Preview keeps a tax the row gives: leave the cell empty (or the line out) to bill the computed amount',
			'Tax check: Surplus Lines Tax (column "SL Tax"): sheet 0.00, computed 485.00 for TX on 2026-03-01, difference -485.00',
		]);
	});

	it('a 0 in a fee column that is not a tax still sends no line', async () => {
		let filed: IDataObject | undefined;
		nothingFiledOn('CR-2026-001');
		nock(API)
			.post('/invoices', (b: IDataObject) => ((filed = b), true))
			.reply(201, (_uri, b) => envelope(invoiceFor(b as IDataObject, 52)));
		await runInvoice(2, { operation: 'create', billTaxesFromPreview: false }, [{ ...ZERO_ROW, 'SL Tax': '485', 'Broker Fee': '0' }]);
		expect(filed!.fees).toEqual([
			{ type: 'sl_tax', amount: 485 },
			{ type: 'stamping_fee', amount: 4 },
		]);
	});
});

describe('the tax check counts a pass-through twin as its tax', () => {
	// FL on 2026-03-01: 4.94%, 0.06%, flat 4, FIGA 1% of 10,000. The calculation adds the sent
	// filing_fee to total_due as a fee and its flat_fee line as a tax.
	const FL_TAX = {
		state: { id: 10, code: 'FL', name: 'Florida' },
		input: { premium: 10000, policy_fees: 4, effective_date: '2026-03-01' },
		line_items: [
			{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 4.94, rate_type: 'percentage', amount: 494 },
			{ name: 'Service Fee', code: 'service_fee', rate: 0.06, rate_type: 'percentage', amount: 6 },
			{ name: 'Filing Fee', code: 'flat_fee', rate: 4, rate_type: 'flat', amount: 4 },
			{ name: 'FIGA Assessment', code: 'figa', rate: 1, rate_type: 'percentage', amount: 100 },
		],
		total_taxes_and_fees: 604,
		total_due: 10608,
	};
	const FL_ROW = {
		'Policy Number': 'SG-FL',
		'Insured Name': 'Sunshine Docks LLC',
		State: 'FL',
		'Transaction Type': 'New',
		'Eff Date': '03/01/2026',
		'Exp Date': '03/01/2027',
		Premium: '10000',
		'SL Tax': '494',
		'Service Fee': '6',
		'FIGA Assessment': '100',
		'Filing Fee': '4',
		'Total Taxes': '604',
		'Total Due': '10604',
	};

	it('a correct FL row with a Filing Fee column passes in Fail mode, Total Due included', async () => {
		nock(API).post('/invoices/preview').reply(200, previewOf(FL_TAX));
		nothingFiledOn('SG-FL');
		let filed: IDataObject | undefined;
		nock(API)
			.post('/invoices', (b: IDataObject) => ((filed = b), true))
			.reply(201, (_uri, b) => envelope(invoiceFor(b as IDataObject, 71)));
		const { output } = await runInvoice(2, { operation: 'create', options: { sheetTaxCheck: 'fail' } }, [FL_ROW], true);
		expect(output![0].json.id).toBe(71);
		const check = output![0].json._taxCheck as IDataObject;
		expect(check.differences).toBe(0);
		expect(check.lines).toEqual(
			expect.arrayContaining([
				{ code: 'flat_fee', name: 'Filing Fee', column: 'Filing Fee', sheet: 4, computed: 4, difference: 0 },
				{ code: 'total_due', name: 'Total Due', column: 'Total Due', sheet: 10604, computed: 10604, difference: 0 },
			]),
		);
		// Filed with the row's own code; the preview's flat_fee is not added beside its twin.
		expect(filed!.fees).toEqual(expect.arrayContaining([{ type: 'filing_fee', amount: 4 }]));
		expect((filed!.fees as IDataObject[]).some((f) => f.type === 'flat_fee')).toBe(false);
	});
});
