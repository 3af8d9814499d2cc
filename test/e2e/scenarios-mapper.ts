/**
 * Map Columns in the real n8n sheet rows as a CSV export gives them (every cell text,
 * the column names bordereaux use, spreadsheet forms of amounts and dates), filed by Create Many
 * with "Map Automatically", and previewed with "Map Each Column Manually" from expressions.
 */
import assert from 'node:assert/strict';

import { api, type Scenario } from './context';
import { json } from './runData';

const mapColumns: Scenario = {
	name: 'map-columns',
	workflow: 'map-columns.json',
	async check(run, ctx) {
		const out = json(run, 'Map Automatically');
		assert.equal(out.length, 3, 'one output item per row, in row order');
		assert.deepEqual(
			out.slice(0, 2).map((i) => [i.id, i.policy_number, (i.state as { code: string }).code, i.net_premium, i.effective_date]),
			[
				[1001, 'E2E-MAP-1', 'TX', 12000, '2026-03-01'],
				[1002, 'E2E-MAP-2', 'CA', 8500.5, '2026-03-15'],
			],
		);
		assert.deepEqual(
			(out[0]._converted as Array<{ field: string; column?: string }>).map((c) => `${c.field} ← ${c.column}`).sort(),
			[
				'effective_date ← Eff Date',
				'expiration_date ← Exp Date',
				'fees[0].amount ← Policy Fee',
				'insurers[0].percent ← Insurer 1 %',
				'net_premium ← Premium',
				'state_code ← State',
				'type_code ← Transaction Type',
			],
		);
		assert.equal(out[2].code, 'INVALID_INPUT');
		assert.deepEqual(out[2].fields, [
			'net_premium (column "Premium"): Must be a number: a comma as the decimal mark is not read; write 1234.50 (got "1.234,50")',
			'effective_date (column "Eff Date"): Must be a valid date: write the year with four digits (MM/DD/YYYY) (got "3/1/26")',
		]);

		const stored = await api(ctx, 'GET', '/invoices/1001');
		assert.equal(stored.data.policy_number, 'E2E-MAP-1');
		const fees = (stored.data.fees as Array<{ type?: string; code?: string; amount: number }>).map((f) => [f.type ?? f.code, f.amount]);
		assert.deepEqual(fees.filter(([code]) => code === 'policy_fee_company' || code === 'sl_tax'), [['policy_fee_company', 150], ['sl_tax', 589.28]]);
		assert.equal((await api(ctx, 'GET', '/invoices/1003')).status, 404, 'two invoices, the bad row never sent');

		const previews = json(run, 'Preview Mapped Manually');
		assert.equal(previews.length, 3);
		assert.equal(previews[2].code, 'INVALID_INPUT', 'the same rules in manual mapping');
		assert.ok(previews[0].tax_calculation, `preview of row 1 computed taxes: ${JSON.stringify(previews[0]).slice(0, 300)}`);
	},
};

export const MAPPER_SCENARIOS: Scenario[] = [mapColumns];
