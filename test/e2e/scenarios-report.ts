/**
 * The report example (issue 45), run as shipped in the real n8n: a "Premium & Tax Detail" CSV with
 * title lines, one row per charge, subtotals, a page-break header, a blank row and a grand total,
 * read by Extract From File from Starting Line 4 and filed by Create with Map Automatically and
 * Sheet Tax Check = fail. Each transaction is filed once with its premium, fees and taxes; every
 * other row comes out saying what it was.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';

import ExcelJS from 'exceljs';
import type { IDataObject } from 'n8n-workflow';

import { api, type Scenario } from './context';
import { EXAMPLE_FILES_DIR } from './n8n';
import { json } from './runData';

/** The report's 21 rows from the header on: the filings' rows and what each other row is. */
const OUTCOMES = [
	'filed', 'charge', 'charge', 'charge', 'left_out',
	'filed', 'charge', 'left_out', 'charge', 'charge', 'left_out',
	'filed', 'charge', 'charge', 'left_out',
	'filed', 'charge', 'charge', 'left_out',
	'left_out', 'left_out',
];

export const exampleReport: Scenario = {
	name: 'example: premium and tax detail report',
	workflow: 'file-a-premium-and-tax-detail-report.json',
	compat: true,
	example: true,
	async execute(cli) {
		return [await cli.run()];
	},
	async check(run, ctx) {
		assert.equal(json(run, 'Extract Rows From Line 4').length, 21, 'Starting Line 4: the header is line 4, counted from 1');
		const results = json(run, 'Result per Row');
		assert.deepEqual(results.map((r) => r.Outcome), OUTCOMES, 'every row comes out with its outcome, in the sheet order');
		const listed = await api(ctx, 'GET', '/invoices?per_page=100');
		const stored = (listed.data.invoices ?? listed.data) as IDataObject[];
		assert.equal(stored.length, 4, 'one invoice per transaction, none for a charge, total, header or blank row');
		const first = stored.find((i) => i.policy_number === 'RPT-1001' && (i.type as { name: string }).name === 'New');
		assert.ok(first, 'the first transaction is filed');
		const fees = Object.fromEntries((first.fees as Array<{ type: string; amount: number }>).map((f) => [f.type, f.amount]));
		assert.deepEqual([first.net_premium, fees], [2000, { policy_fee_company: 100, sl_tax: 101.85, stamping_fee: 0.84 }]);
		// Numbered as the file shows it (issue 55): the header is line 4, the first transaction line 5.
		assert.match(String(results[1].Note), /charge of row 5's filing/);
		// The results workbook beside the report: one row per source row, with its outcome.
		const workbook = new ExcelJS.Workbook();
		await workbook.xlsx.readFile(join(ctx.userFolder, EXAMPLE_FILES_DIR, 'premium-and-tax-detail-report-results.xlsx'));
		const outcomes: unknown[] = [];
		workbook.getWorksheet('Results')?.eachRow((row, n) => {
			if (n > 1) outcomes.push((row.values as unknown[])[4]);
		});
		assert.deepEqual(outcomes, OUTCOMES, 'the results workbook shows every source row\'s outcome');
	},
};

/**
 * The report as n8n's own Extract From File gives it: with its defaults (the title is the header)
 * each row is refused once for the sheet, with the Starting Line or Range to set; the XLSX read
 * from Range 3 is read as the CSV from Starting Line 4.
 */
export const reportAsExtracted: Scenario = {
	name: 'report: title lines and the XLSX as Extract From File reads them',
	workflow: 'report-read.json',
	check(run) {
		const csv = json(run, 'Check CSV As Extracted');
		assert.equal(csv.length, 24, 'the title line is the header: every other line is an item');
		assert.match(String((csv[0].reasons as string[])[0]), /The header is on line 4 of the file: set Extract From File's Starting Line to 4/);
		for (const row of csv.slice(1)) assert.match(String((row.reasons as string[])[0]), /said once, on row \d+ \(item 0\)/);
		const xlsx = json(run, 'Check XLSX As Extracted');
		assert.match(String((xlsx[0].reasons as string[])[0]), /set Extract From File's Range option/);
		const ranged = json(run, 'Check XLSX From Range 3');
		const results = ranged.map((r) => String(r.result));
		assert.equal(results.filter((r) => r === 'would be sent').length, 4, 'four transactions from the workbook');
		assert.deepEqual(
			(ranged[0]._charges as IDataObject[]).map((c) => c.as),
			['net_premium', 'fee_policy_fee_company', 'fee_sl_tax', 'fee_stamping_fee'],
		);
	},
};
