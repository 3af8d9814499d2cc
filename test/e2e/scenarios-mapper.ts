/**
 * Map Columns in the real n8n sheet rows as a CSV export gives them (every cell text,
 * the column names bordereaux use, spreadsheet forms of amounts and dates), filed by Create Many
 * with "Map Automatically", and previewed with "Map Each Column Manually" from expressions.
 */
import assert from 'node:assert/strict';

import type { IDataObject } from 'n8n-workflow';

import { api, type Scenario } from './context';
import { json } from './runData';

const mapColumns: Scenario = {
	name: 'map-columns',
	workflow: 'map-columns.json',
	async check(run, ctx) {
		const out = json(run, 'Map Automatically');
		assert.equal(out.length, 3, 'one output item per row, in row order');
		assert.deepEqual(
			out.slice(0, 2).map((i) => [i.policy_number, (i.state as { code: string }).code, i.net_premium, i.effective_date]),
			[
				['E2E-MAP-1', 'TX', 12000, '2026-03-01'],
				['E2E-MAP-2', 'CA', 8500.5, '2026-03-15'],
			],
		);
		assert.deepEqual(
			(out[0]._converted as Array<{ field: string; column?: string }>).map((c) => `${c.field} ← ${c.column}`).sort(),
			[
				'expiration_date ← Exp Date',
				'fees[0].amount ← Policy Fee',
				'insurers[0].percent ← Insurer 1 %',
				'net_premium ← Premium',
				'state_code ← State',
				'type_code ← Transaction Type',
			],
		);
		// Eff Date's dates read either way (03/01/2026): the order Exp Date proves (03/15/2027) is taken, and said.
		assert.match(
			String(((out[0]._columnRules as Array<{ field: string; rule: string }> | undefined) ?? []).find((r) => r.field === 'effective_date')?.rule),
			/month first \(column "Exp Date", row 3: "03\/15\/2027"\).*03\/01\/2026 is 2026-03-01/,
		);
		assert.equal(out[2].code, 'INVALID_INPUT');
		assert.deepEqual(out[2].fields, [
			'Column "Premium": Must be a number: a comma as the decimal mark is not read; write 1234.50 (got "1.234,50")',
			'Column "Eff Date": Must be a valid date: write the year with four digits (MM/DD/YYYY) (got "3/1/26")',
		]);

		// Rows are filed in parallel: the service numbers them as they arrive, so ids come from the output.
		const stored = await api(ctx, 'GET', `/invoices/${String(out[0].id)}`);
		assert.equal(stored.data.policy_number, 'E2E-MAP-1');
		const fees = (stored.data.fees as Array<{ type?: string; code?: string; amount: number }>).map((f) => [f.type ?? f.code, f.amount]);
		assert.deepEqual(fees.filter(([code]) => code === 'policy_fee_company' || code === 'sl_tax'), [['policy_fee_company', 150], ['sl_tax', 589.28]]);
		assert.equal(await invoiceCount(ctx), 2, 'two invoices, the bad row never sent');

		const previews = json(run, 'Preview Mapped Manually');
		assert.equal(previews.length, 3);
		assert.equal(previews[2].code, 'INVALID_INPUT', 'the same rules in manual mapping');
		assert.ok(previews[0].tax_calculation, `preview of row 1 computed taxes: ${JSON.stringify(previews[0]).slice(0, 300)}`);
	},
};

type Line = { code: string; sheet: number; computed: number | null; difference: number };
const linesOf = (item: IDataObject) =>
	((item._taxCheck as { lines: Line[] }).lines).map((l) => `${l.code}: ${l.sheet} / ${String(l.computed)} / ${l.difference}`);

/** How many invoices the sandbox holds for the run's account. */
async function invoiceCount(ctx: Parameters<NonNullable<Scenario['check']>>[1]): Promise<number> {
	const listed = await api(ctx, 'GET', '/invoices?per_page=100');
	return ((listed.data.invoices ?? listed.data) as unknown[]).length;
}

/**
 * A bordereau in a second convention (Lloyd's coverholder-style headers and transaction words),
 * read from disk as a CSV and filed by Create (version 2: Bill Taxes From Preview) with Map
 * Automatically and no expression; the tax check says where the sheet's own taxes are wrong, and
 * a Preview in the Fail mode turns those rows into error items.
 */
const coverholderBordereau: Scenario = {
	name: 'bordereau-coverholder',
	workflow: 'bordereau-coverholder.json',
	async check(run, ctx) {
		assert.equal(json(run, 'Extract Rows From CSV').length, 5, 'five rows read from the CSV on disk');
		const filed = json(run, 'File Rows');
		assert.deepEqual(filed.map((i) => (typeof i.id === 'number' ? 'filed' : i.code)), ['filed', 'filed', 'filed', 'filed', 'INVALID_INPUT']);
		assert.equal(new Set(filed.slice(0, 4).map((i) => i.id)).size, 4, 'four distinct invoices');
		// TX 2026: 4.85% and 0.04%; row 2's broker used the stamping rate of before 2024 (0.075%).
		assert.deepEqual(linesOf(filed[0]), ['sl_tax: 485 / 485 / 0', 'stamping_fee: 4 / 4 / 0', 'total_taxes_and_fees: 489 / 489 / 0']);
		assert.equal(filed[0]._warnings, undefined, 'right taxes, nothing to say');
		assert.deepEqual(filed[1]._warnings, [
			'Tax check: Stamping Fee (column "Stamping Fee Amount"): sheet 15.00, computed 8.00 for TX on 2026-03-01, difference 7.00',
			'Tax check: Total Taxes and Fees (column "Total Taxes and Fees"): sheet 985.00, computed 978.00 for TX on 2026-03-01, difference 7.00',
		]);
		// FL: 4.94% of 5,000 is 247.00; the sheet's total (with service fee, filing fee, FIGA) is right.
		assert.deepEqual(filed[2]._warnings, [
			'Tax check: Surplus Lines Tax (column "Surplus Lines Tax Amount"): sheet 250.00, computed 247.00 for FL on 2026-03-15, difference 3.00',
		]);
		// "Return Premium" written unsigned: filed as a negative endorsement, its taxes too.
		assert.deepEqual(linesOf(filed[3]), ['sl_tax: -48.5 / -48.5 / 0', 'stamping_fee: -0.4 / -0.4 / 0', 'total_taxes_and_fees: -48.9 / -48.9 / 0']);
		const said = (filed[3]._converted as Array<{ field: string; from: unknown; to: unknown; why?: string }>).map((c) => `${c.field}: ${String(c.from)} → ${String(c.to)}${c.why ? ` (${c.why})` : ''}`);
		assert.ok(said.includes('type_code: Return Premium → ENDORSEMENT (Return Premium: return premium endorsement)'), said.join('; '));
		assert.ok(said.includes('net_premium: 1000.00 → -1000 (Return Premium returns premium: an unsigned amount is filed negative)'), said.join('; '));
		assert.equal(filed[4].policy_number, 'LCR-26-005', 'the refused row is named');
		assert.match(String((filed[4].fields as string[])[0]), /^Column "Transaction Type": "AE" is an audit endorsement, which cannot be filed as an invoice/);

		// The service holds the four rows with the headers read as the service's fields.
		const first = await api(ctx, 'GET', `/invoices/${String(filed[0].id)}`);
		assert.deepEqual(
			[first.data.policy_number, first.data.insured_name, (first.data.state as { code: string }).code, first.data.effective_date, first.data.expiration_date, first.data.net_premium],
			['LCR-26-001', 'Gulf Coast Marina LLC', 'TX', '2026-03-01', '2027-03-01', 10000],
		);
		const feesOf = async (id: unknown) =>
			Object.fromEntries(((await api(ctx, 'GET', `/invoices/${String(id)}`)).data.fees as Array<{ type: string; amount: number }>).map((f) => [f.type, f.amount]));
		assert.deepEqual(await feesOf(filed[1].id), { sl_tax: 970, stamping_fee: 15 }, 'the sheet’s own lines are filed as sent (and said to differ)');
		assert.deepEqual(await feesOf(filed[2].id), { sl_tax: 250, service_fee: 3, flat_fee: 4, figa: 50 }, 'lines the sheet lacks are billed from the preview');
		const endorsement = await api(ctx, 'GET', `/invoices/${String(filed[3].id)}`);
		assert.deepEqual([(endorsement.data.type as { name: string }).name, endorsement.data.net_premium], ['Endorsement', -1000]);
		assert.equal(await invoiceCount(ctx), 4, 'the audit row was never sent');

		const checked = json(run, 'Check Sheet Taxes');
		assert.deepEqual(checked.map((i) => i.code ?? (i._taxCheck as { differences: number }).differences), [0, 'TAX_CHECK_FAILED', 'TAX_CHECK_FAILED', 0, 'INVALID_INPUT']);
		assert.equal(checked[1].policy_number, 'LCR-26-002');
		assert.deepEqual(checked[1].fields, filed[1]._warnings, 'the Fail mode lists the same differences');
	},
};

export const MAPPER_SCENARIOS: Scenario[] = [mapColumns, coverholderBordereau];
