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
import { estimate } from '../sandbox/calculator/estimate';
import { World } from '../sandbox/world';

const sb = useSandboxSuite();
const { control, remaining, storedUnder } = sandboxCalls(sb);

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
		// The batch; the estimate of 2023-01-10 and the preview of a 2024-12-10 row (its rates differ,
		// and it confirms 2024); 2024-01-10, a new year, estimated first and a 2023-12-10 row's preview
		// (the old rates: it confirms 2023); the account check; one read of the account's listing
		// before filing (48 policies on an empty account: one page, not a listing per policy).
		expect(spent).toBe(7);
		expect(hint.message).toMatch(/ Calls: 4 in all, 2 calculator estimates, 2 previews confirming a group, 0 rows' own previews\.$/);
	});

	it('finds a rate change off a new year or half-year by halving (FL FIGA ends on 2026-10-01)', async () => {
		const months = Array.from({ length: 12 }, (_, m) => `2026-${String(m + 1).padStart(2, '0')}-10`);
		const rows = months.map((date, m) => row(`FG-${m}`, 'FL', { net_premium: 3000.37 + m * 10, effective_date: date }));
		const single = await createEach('t3', rows);
		sb.reset();
		const many = await createMany('t3', rows);
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		const from = (many.output ?? []).map((i) => String(i.json._taxesFrom));
		expect(from.filter((f) => /in force on 2026-01-10 to 2026-09-10/.test(f))).toHaveLength(8);
		expect(from.filter((f) => /in force on 2026-10-10 to 2026-12-10/.test(f))).toHaveLength(2);
	});

	it('rows on a rounding tie are confirmed as a set of their own, not previewed one by one', async () => {
		// 1,010 + 20k dollars at TX's 4.85% fall on a half cent: 48.985, 49.955...
		const rows = [...Array.from({ length: 10 }, (_, k) => row(`TIE-${k}`, 'TX', { net_premium: 1010 + 20 * k })), row('TIE-P1', 'TX', { net_premium: 1234.56 }), row('TIE-P2', 'TX', { net_premium: 2345.67 })];
		const single = await createEach('t3', rows);
		sb.reset();
		const many = await createMany('t3', rows);
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		const from = (many.output ?? []).map((i) => String(i.json._taxesFrom));
		expect(from.filter((f) => /^computed from the TX rates .*, rows on a rounding tie, confirmed by the preview of row 13 and the rounding at a tie by the preview of row \d+$/.test(f))).toHaveLength(9);
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toMatch(/ Calls: 3 in all, 1 calculator estimates, 2 previews confirming a group, 0 rows' own previews\.$/);
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
		expect(hint.message).toMatch(/Previewed row by row: the NY rates in force on 2026-03-01: the computation did not match the preview of row 5 \(sl_tax: computed/);
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

	it('with neither option Create Many files as before: no tax line, no call but the policy’s listing and the batch', async () => {
		const rows = [row('OFF-1', 'TX', { fees: [{ type: 'sl_tax', amount: 1 }] })];
		const before = await remaining('t3');
		const many = await createMany('t3', rows, {});
		// The policy's listing (the look first, on every account) and the batch, as without the
		// options: no account check, no calculator, no preview.
		expect(before - (await remaining('t3')) - 1).toBe(2);
		expect(verdicts(many.output)[0].fees).toEqual(['sl_tax 1']);
		expect(many.output?.[0].json._taxesFrom).toBeUndefined();
	});
});

/**
 * Issue 47's bordereau: 1,000 rows in six states on one date, each with a policy fee (TX rows
 * also with the vehicle crime fee TX neither taxes nor counts) and the state's tax lines as the
 * calculator gives them, 10 with an SL Tax 5.00 too high.
 */
function sixStateBordereau(): IDataObject[] {
	const world = new World(() => new Date());
	const STATES = ['TX', 'NY', 'CA', 'IL', 'WA', 'GA'];
	const POLICY_FEES = ['policy_fee_company', 'policy_fee_broker', 'technology_fee'];
	return Array.from({ length: 1000 }, (_, i) => {
		const state = STATES[i % STATES.length];
		const premium = 1000 + ((i * 7919) % 90000) / 100;
		const fees = [{ type: POLICY_FEES[Math.floor(i / 6) % 3], amount: 150 }];
		if (state === 'TX' && i % 4 === 0) fees.push({ type: 'vehicle_crime_fee', amount: 20 });
		const { rates, row: stateRow } = world.state(state)!;
		const computed = estimate({ rates, state: stateRow, premium, policyFees: 0, fees, effectiveDate: '2026-03-01', flatCharges: true, now: new Date() });
		const lines = computed.line_items.map((l) => ({ type: l.code, amount: l.code === 'sl_tax' && i % 100 === 37 ? Math.round((l.amount + 5) * 100) / 100 : l.amount }));
		return row(`SIX-${i}`, state, { net_premium: premium, fees: [...fees, ...lines] });
	});
}

describe('Create Many taxes: fee rules learned per code (issue 47)', () => {
	it('the six-state bordereau: 10 refused, 990 stored once with their lines, at most 40 calls', async () => {
		const rows = sixStateBordereau();
		const before = await remaining('t3');
		const many = await createMany('t3', rows, CHECKED);
		const spent = before - (await remaining('t3')) - 1;
		expect(many.error).toBeUndefined();
		// Two batches, an estimate and a confirmation per state (and rows on a tie), TX's fee codes, the 10, the account check,
		// one read of the account's listing before filing (990 policies on an empty account: one page).
		expect(spent).toBeLessThanOrEqual(40);
		const items = many.output ?? [];
		const refused = items.filter((i) => i.json.code === 'TAX_CHECK_FAILED').map((i) => String(i.json.message));
		expect(refused).toHaveLength(10);
		const filed = items.filter((i) => i.json.error === undefined);
		expect(filed).toHaveLength(990);
		// No filed row needed a preview of its own: each is computed, or is its group's confirmation.
		expect(filed.map((i) => String(i.json._taxesFrom)).filter((f) => !/^computed from|^its own preview, which confirmed (its group|the rounding at a tie)$/.test(f))).toEqual([]);
		const policies = filed.map((i) => String(i.json.policy_number));
		expect(new Set(policies).size).toBe(990);
		// Each stored once, with the sheet's tax lines as sent.
		const stored = await storedUnder('t3', policies.filter((_, n) => n % 50 === 0));
		expect(stored).toHaveLength(20);
		for (const invoice of stored) expect(((invoice.fees ?? []) as IDataObject[]).some((f) => f.type === 'sl_tax')).toBe(true);
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toMatch(/ Calls: \d+ in all, 7 calculator estimates \(1 of them learning fee codes one by one\), \d+ previews confirming a group, 10 rows' own previews \(10: its sheet taxes differ from the computation\)\./);
	});

	it('TX rows with the vehicle crime fee are computed per code and match Create’s preview', async () => {
		const fees = (...list: Array<[string, number]>) => list.map(([type, amount]) => ({ type, amount }));
		const rows = [
			row('VC-1', 'TX', { net_premium: 2000.37, fees: fees(['vehicle_crime_fee', 20], ['policy_fee_company', 150]) }),
			row('VC-2', 'TX', { net_premium: 3000.41, fees: fees(['technology_fee', 35]) }),
			row('VC-3', 'TX', { net_premium: 4000.43, fees: fees(['vehicle_crime_fee', 15], ['inspection_fee', 80], ['sl_tax', 9.99]) }),
			row('VC-4', 'TX', { net_premium: 5000.47, fees: fees(['policy_fee_broker', 60], ['fslso_service', 5]) }),
		];
		const single = await createEach('t3', rows);
		sb.reset();
		const before = await remaining('t3');
		const many = await createMany('t3', rows);
		const spent = before - (await remaining('t3')) - 1;
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		const from = (many.output ?? []).map((i) => String(i.json._taxesFrom ?? i.json.code));
		expect(from.filter((f) => f.startsWith('computed from the TX rates'))).toHaveLength(2);
		expect(from).toContain('TAX_CHECK_FAILED');
		// The batch, the probe, the estimate learning the four codes, the confirmation, VC-3's own preview, the account check,
		// and the listing of each policy filed, looked at first (VC-1, VC-2, VC-4: fewer than 10; VC-3, refused, is not).
		expect(spent).toBe(9);
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toBe(
			"Taxes of 4 rows: 1 groups (state and rate period). Calls: 4 in all, 2 calculator estimates (1 of them learning fee codes one by one), 1 previews confirming a group, 1 rows' own previews (1: its sheet taxes differ from the computation).",
		);
	});

	it('a row whose figures the model cannot give still gets its own preview, and the summary says why', async () => {
		const rows = [row('ZP-1', 'NY', { net_premium: 0 }), row('ZP-2', 'NY', { net_premium: 1500.5 })];
		const single = await createEach('t3', rows);
		sb.reset();
		const many = await createMany('t3', rows);
		expect(verdicts(many.output)).toEqual(verdicts(single.output));
		const [hint] = hintsOf(many.run).filter((h) => h.message.startsWith('Taxes of'));
		expect(hint.message).toMatch(/1 rows' own previews \(1: its state, date or premium is not one to group\)\./);
	});
});
