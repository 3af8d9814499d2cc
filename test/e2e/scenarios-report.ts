/**
 * The report example (issue 45), run as shipped in the real n8n: a "Premium & Tax Detail" CSV with
 * title lines, one row per charge, subtotals, a page-break header, a blank row and a grand total,
 * read by Extract From File from Starting Line 4 and filed by Create with Map Automatically and
 * Sheet Tax Check = fail. Each transaction is filed once with its premium, fees and taxes; every
 * other row comes out saying what it was.
 */
import assert from 'node:assert/strict';

import type { IDataObject } from 'n8n-workflow';

import { api, type Scenario } from './context';
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
		assert.match(String(results[1].Note), /charge of row 1's filing/);
	},
};
