/**
 * Invoice typeVersion 4 (issue 53): a sheet's tax figure that differs from the service's
 * computation refuses the row by default, naming the column, the sheet's and the computed figures
 * and the two ways out; a slashed date no column of the sheet proves the order of is refused. Saved
 * workflows keep their version: 3 files the sheet's figure with a warning, as before. Every run's
 * summary counts the rows whose taxes differ.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { API, BASE, KEYS, envelope, hintsOf, invoiceFor, listingReply, setupSuite } from './helpers';

setupSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

function runAt(typeVersion: number, parameters: IDataObject, items: IDataObject[]) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', inputMode: 'columns', columns: AUTO, ...parameters },
		items,
		credentials: { apiKey: KEYS.t2, baseUrl: BASE },
		settings: { typeVersion },
		continueOnFail: true,
	});
}

/** SL Tax 10 % high: 533.50 where TX computes 485.00 on 10,000. */
const ROW = {
	'Policy #': 'V4-1',
	'Insured Name': 'Gulf Coast Marina LLC',
	State: 'TX',
	Type: 'New',
	'Eff Date': '2026-03-01',
	'Exp Date': '2027-03-01',
	Premium: '10,000.00',
	'SL Tax': '533.50',
	'Total Taxes': '537.50',
};
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
const nothingFiledOn = (policy: string) =>
	nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 }).reply(200, listingReply([]));

describe('Invoice version 4', () => {
	it('offers versions 1 to 4 and adds version 4 to new workflows', () => {
		const { description } = new SurplusLinesInvoice();
		expect(description.version).toEqual([1, 2, 3, 4]);
		expect(description.defaultVersion).toBe(4);
	});

	it('shows each version its own default for Sheet Tax Check', () => {
		const options = new SurplusLinesInvoice().description.properties.filter((p) => p.name === 'options');
		const checks = options.flatMap((o) => (o.options ?? []) as unknown as IDataObject[]).filter((o) => o.name === 'sheetTaxCheck');
		const byVersion = checks.map((c) => [JSON.stringify((c.displayOptions as IDataObject).show), c.default]);
		expect(byVersion).toEqual(expect.arrayContaining([['{"@version":[1,2,3]}', 'whenPreviewed'], ['{"@version":[{"_cnd":{"gte":4}}]}', 'fail']]));
	});

	it('Create, default settings: a wrong sheet tax refuses the row naming the column, both figures and the two ways out; nothing filed', async () => {
		const preview = nock(API).post('/invoices/preview').reply(200, previewReply);
		const trap = nock(API).post('/invoices').reply(201, envelope({}));
		const result = await runAt(4, { operation: 'create' }, [ROW]);
		preview.done();
		expect(trap.isDone()).toBe(false);
		nock.cleanAll();
		const json = result.output![0].json;
		expect(json.code).toBe('TAX_CHECK_FAILED');
		expect(json.fields).toEqual([
			'Tax check: Surplus Lines Tax (column "SL Tax"): sheet 533.50, computed 485.00 for TX on 2026-03-01, difference 48.50',
			'Tax check: Total Taxes and Fees (column "Total Taxes"): sheet 537.50, computed 489.00 for TX on 2026-03-01, difference 48.50',
		]);
		expect(String(json.description ?? JSON.stringify(json))).toContain('Two ways out');
		expect(hintsOf(result.run).map((h) => h.message)).toEqual(
			expect.arrayContaining([expect.stringContaining('1 row whose sheet taxes differ from the computation: 1 refused (TAX_CHECK_FAILED)')]),
		);
	});

	it('Create, version 3 as saved: filed with the sheet’s figure and a warning, and the summary counts it', async () => {
		nothingFiledOn('V4-1');
		nock(API).post('/invoices/preview').reply(200, previewReply);
		nock(API)
			.post('/invoices')
			.reply(201, (_uri, sent) => envelope(invoiceFor(sent as IDataObject, 71)));
		const result = await runAt(3, { operation: 'create' }, [ROW]);
		expect(result.output![0].json).toMatchObject({ id: 71, outcome: 'filed' });
		expect((result.output![0].json._taxCheck as IDataObject).differences).toBe(2);
		expect(hintsOf(result.run).map((h) => h.message)).toEqual(
			expect.arrayContaining([expect.stringContaining('1 row whose sheet taxes differ from the computation: 1 filed at the sheet\'s figures, each listed in _taxCheck')]),
		);
	});

	it('a slashed date no column proves the order of is refused before any call, naming its column', async () => {
		const trap = nock(API).post(/.*/).reply(500, {});
		const rows = [{ ...ROW, 'SL Tax': '', 'Total Taxes': '', 'Eff Date': '03/04/2026', 'Exp Date': '2027-03-04' }];
		const { output } = await runAt(4, { operation: 'create' }, rows);
		expect(trap.isDone()).toBe(false);
		nock.cleanAll();
		expect(JSON.stringify(output![0].json)).toContain('column \\"Eff Date\\" (03/04/2026): the date reads both ways (2026-03-04 or 2026-04-03)');
	});

	it('the refusal’s way out, Dates in the Sheet, reads the same row in the order chosen (Check Sheet, no call)', async () => {
		const rows = [{ ...ROW, 'SL Tax': '', 'Total Taxes': '', 'Eff Date': '03/04/2026', 'Exp Date': '03/04/2027' }];
		const { output } = await runAt(4, { operation: 'checkSheet', sheetDateOrder: 'dayFirst' }, rows);
		expect(output![0].json).toMatchObject({ result: 'would be sent', body: { effective_date: '2026-04-03', expiration_date: '2027-04-03' } });
	});
});
