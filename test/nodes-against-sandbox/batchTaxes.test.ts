/**
 * Issue 39 in n8n's engine against the sandbox: Create Many's Bill Taxes From Preview and Sheet
 * Tax Check at batch cost give every row the lines and the verdict Create with a preview gives
 * it (every state of the sandbox's rates; new, renewal, endorsement, cancellation; fees of every
 * kind; each rounding rule), find a rate change inside the sheet's dates, fall back to a preview
 * per row where the calculator disagrees with the preview or is not on the key, and say how.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { sandboxCalls } from '../helpers/sandboxCalls';
import { runInvoiceOn, useSandboxSuite } from '../helpers/sandboxSuite';

const sb = useSandboxSuite();
const { control, remaining } = sandboxCalls(sb);

const RATES = JSON.parse(readFileSync(resolve(__dirname, '../sandbox/data/sl-rates.json'), 'utf8')) as Array<{ code: string; rounding_rule: string }>;
const JSON_BODY = { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' };
const CHECKED = { sheetTaxCheck: 'fail' };

const row = (policy: string, state: string, overrides: IDataObject = {}): IDataObject => ({
	policy_number: policy,
	insured_name: `${policy} Storage LLC`,
	state_code: state,
	net_premium: 12345.67,
	effective_date: '2026-03-01',
	expiration_date: '2027-03-01',
	...overrides,
});

/** Every state: each transaction type, fees of every kind, dates across rate changes, a wrong and a right SL Tax. */
function everyStateSheet(): IDataObject[] {
	const rows: IDataObject[] = [];
	RATES.forEach(({ code }, n) => {
		const p = `BT-${code}`;
		rows.push(
			row(`${p}-1`, code, {
				net_premium: 10250 + n,
				effective_date: '2023-06-15',
				expiration_date: '2024-06-15',
				fees: [
					{ type: 'policy_fee_company', amount: 150 },
					{ type: 'inspection_fee', amount: 75.5 },
					{ type: 'broker_fee', amount: 50 },
					{ type: 'fslso_service', amount: 25 },
				],
			}),
			row(`${p}-2`, code, { type_code: 'RENEWAL', net_premium: 999.99 + n, effective_date: '2024-02-01', expiration_date: '2025-02-01', fees: [{ type: 'sl_tax', amount: 1.23 }] }),
			row(`${p}-3`, code, { type_code: 'ENDORSEMENT', net_premium: 500 + n, effective_date: '2025-07-01', fees: [{ type: 'technology_fee', amount: 20 }] }),
			row(`${p}-4`, code, { type_code: 'CANCELLATION', net_premium: -(400.4 + n), effective_date: '2026-11-01', expiration_date: '2027-11-01' }),
			row(`${p}-5`, code, { net_premium: 3333.33, effective_date: '2026-03-01', fees: [{ type: 'vehicle_crime_fee', amount: 10 }] }),
		);
	});
	return rows;
}

type Items = INodeExecutionData[] | undefined;

/** What decides a row: its verdict (error code) or the fees stored and the check's lines. */
function verdicts(items: Items): IDataObject[] {
	return (items ?? []).map((item) => {
		const json = item.json;
		if (json.error !== undefined) return { error: (json.code ?? json.error) as string, message: json.message };
		const fees = ((json.fees ?? []) as IDataObject[]).map((f) => `${String(f.type)} ${String(f.amount)}`).sort();
		return { fees, taxCheck: json._taxCheck ?? null, warnings: json._warnings ?? null };
	});
}

const hintsOf = (run: Awaited<ReturnType<typeof runInvoiceOn>>['run']) =>
	Object.values(run.data.resultData.runData).flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string; type?: string }>);

async function createEach(keyName: string, rows: IDataObject[]) {
	return await runInvoiceOn(sb, keyName, { operation: 'create', ...JSON_BODY, options: CHECKED }, rows, 2);
}

async function createMany(keyName: string, rows: IDataObject[], options: IDataObject = { billTaxesFromPreview: true, ...CHECKED }) {
	return await runInvoiceOn(sb, keyName, { operation: 'createMany', ...JSON_BODY, options }, rows, 2);
}

describe('Create Many taxes at batch cost', () => {
	it('gives every row the lines and verdict Create gives it, over every state of the sandbox', async () => {
		const rows = everyStateSheet();
		const single = await createEach('t3', rows);
		expect(single.error).toBeUndefined();
		sb.reset();
		const many = await createMany('t3', rows);
		expect(many.error).toBeUndefined();
		const [a, b] = [verdicts(single.output), verdicts(many.output)];
		expect(b).toHaveLength(rows.length);
		for (let n = 0; n < rows.length; n++) expect({ row: n + 1, ...b[n] }).toEqual({ row: n + 1, ...a[n] });
		// Each rounding rule was computed, and the wrong SL Tax rows refused by their own preview.
		const rules = new Set(RATES.map((r) => r.rounding_rule));
		expect([...rules].sort()).toEqual(expect.arrayContaining(['standard', 'whole_dollar']));
		const refused = b.filter((v) => v.error !== undefined);
		expect(refused.length).toBeGreaterThanOrEqual(RATES.length);
		const from = (many.output ?? []).map((i) => String(i.json._taxesFrom ?? ''));
		// Rows computed from their group's estimate (the others had their own preview, each said).
		expect(from.filter((f) => f.startsWith('computed from')).length).toBeGreaterThanOrEqual(30);
		expect(from.filter((f) => f.startsWith('its own preview') || f.startsWith('computed from') || f === '').length).toBe(rows.length);
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toMatch(/groups \(state and rate period\)/);
	});

	it('finds a rate change inside the sheet’s dates (TX stamping fee from 2024-01-01) with few calls', async () => {
		const months = Array.from({ length: 24 }, (_, m) => `${2023 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-10`);
		// Premiums that fall on no rounding tie: every row is computed, none needs its own preview.
		const rows = months.flatMap((date, m) => [0, 1].map((k) => row(`RC-${m}-${k}`, 'TX', { net_premium: 2000.37 + m * 10 + k, effective_date: date })));
		const single = await createEach('t3', rows);
		sb.reset();
		const before = await remaining('t3');
		const many = await createMany('t3', rows);
		const spent = before - (await remaining('t3')) - 1;
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		const from = (many.output ?? []).map((i) => String(i.json._taxesFrom));
		expect(from.filter((f) => /in force on 2023-01-10 to 2023-12-10/.test(f)).length).toBe(23);
		expect(from.filter((f) => /in force on 2024-01-10 to 2024-12-10/.test(f)).length).toBe(23);
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toMatch(/^Taxes of 48 rows: 2 groups/);
		// One batch, the estimates that find the change (log2 of 24 dates), a preview per period.
		expect(spent).toBeLessThanOrEqual(1 + 2 + 5 + 2 + 1);
	});

	it('rows on a rounding tie are confirmed as a set of their own, not previewed one by one', async () => {
		// 1,010 + 20k dollars at TX's 4.85% fall on a half cent: 48.985, 49.955...
		const rows = [...Array.from({ length: 10 }, (_, k) => row(`TIE-${k}`, 'TX', { net_premium: 1010 + 20 * k })), row('TIE-P1', 'TX', { net_premium: 1234.56 }), row('TIE-P2', 'TX', { net_premium: 2345.67 })];
		const single = await createEach('t3', rows);
		sb.reset();
		const many = await createMany('t3', rows);
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		const from = (many.output ?? []).map((i) => String(i.json._taxesFrom));
		expect(from.filter((f) => /^computed from the TX rates .*, rows on a rounding tie, confirmed by the preview of row \d+$/.test(f))).toHaveLength(9);
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toMatch(/1 calculator estimates, 2 previews confirming a group\. 3 calls in all\.$/);
	});

	it('a group whose estimate does not match its preview is previewed row by row, and says so', async () => {
		const rows = [0, 1, 2, 3].map((n) => row(`SK-${n}`, 'NY', { net_premium: 5000 + n }));
		const single = await createEach('t3', rows);
		sb.reset();
		await control('/calculator', { rate_offset: { NY: 0.5 } });
		const many = await createMany('t3', rows);
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		const from = (many.output ?? []).map((i) => String(i.json._taxesFrom));
		expect(from.filter((f) => f === 'its own preview (its group did not match its preview)')).toHaveLength(3);
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toMatch(/Previewed row by row: the NY rates in force on 2026-03-01: the computation did not match the preview of row 4 \(sl_tax: computed/);
	});

	it('a key without the calculator previews each row, with a warning naming the cost', async () => {
		const rows = [row('NC-1', 'TX'), row('NC-2', 'FL', { fees: [{ type: 'sl_tax', amount: 5 }] }), row('NC-3', 'CA')];
		const single = await createEach('t2', rows);
		sb.reset();
		const many = await createMany('t2-no-calculator', rows);
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		expect(verdicts(many.output)[1].error).toBe('TAX_CHECK_FAILED');
		const [warning] = hintsOf(many.run).filter((h) => h.type === 'warning' && /calculator is not available/.test(h.message));
		expect(warning.message).toMatch(/3 rows come from a preview per row: 3 calls of the key's hourly limit/);
		const from = (many.output ?? []).filter((i) => i.json.error === undefined).map((i) => i.json._taxesFrom);
		expect(from).toEqual(['its own preview (the calculator is not available to this key)', 'its own preview (the calculator is not available to this key)']);
	});

	it('with neither option Create Many files as before: no tax line, no call but the batch', async () => {
		const rows = [row('OFF-1', 'TX', { fees: [{ type: 'sl_tax', amount: 1 }] })];
		const before = await remaining('t3');
		const many = await createMany('t3', rows, {});
		// The account check and the batch, as before the options existed.
		expect(before - (await remaining('t3')) - 1).toBe(2);
		expect(verdicts(many.output)[0].fees).toEqual(['sl_tax 1']);
		expect(many.output?.[0].json._taxesFrom).toBeUndefined();
	});
});
