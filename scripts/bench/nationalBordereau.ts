/**
 * Issue 47's national bordereau, one row at a time from a small table of the sandbox's rates:
 * the 50 states and DC, a month each from 2025-10 to 2026-09 (AL, KS, MT and IA change rates on
 * 2026-01-01, LA on 2026-07-01), every calculator fee code on some rows (each policy fee kind,
 * inspection, broker, a pass-through), each row with the state's tax lines as the calculator
 * computes them, and every 100th row's SL Tax 12.34 too high. The pass-through codes that share a
 * column with a tax code (filing_fee, clearinghouse_fee, fire_marshall_tax) are left out: the tax
 * check reads them as that tax, so on a sheet they are tax figures, not fees.
 * `nationalRow` reads nothing outside its arguments: the n8n bench runs its source in a Code node.
 */
import { loadRates } from '../../test/sandbox/calculator/rates';

type Item = [code: string, rate: number | null, flat: 0 | 1, from: string | null];
export interface NationalTable {
	states: Array<{ code: string; rounding: string; base: [boolean, boolean, boolean]; items: Item[] }>;
}

/** The sandbox's rates (test/sandbox/data/sl-rates.json), as small as nationalRow needs them. */
export function nationalTable(): NationalTable {
	return {
		states: loadRates().map((s) => ({
			code: s.code,
			rounding: s.rounding_rule,
			base: [s.tax_base.policy_fees, s.tax_base.inspection_fees, s.tax_base.broker_fees],
			items: s.items.map((i): Item => [i.code, i.rate, i.rate_type === 'flat' ? 1 : 0, i.effective_from]),
		})),
	};
}

export function nationalRow(i: number, table: NationalTable): Record<string, unknown> {
	const POLICY = ['policy_fee_company', 'policy_fee_broker', 'technology_fee', 'acca_dues', 'reinstatement_fee', 'equipment_charge', 'assessment_fee', 'vehicle_crime_fee', 'other'];
	const CODES = [...POLICY, 'inspection_fee', 'broker_fee', 'fslso_service'];
	const state = table.states[i % table.states.length];
	const round = Math.floor(i / table.states.length);
	const month = round % 12;
	const date = month < 3 ? `2025-${String(month + 10)}-01` : `2026-${String(month - 2).padStart(2, '0')}-01`;
	const premium = 1000 + ((i * 7919) % 90000) / 100;
	const fees = [
		{ type: 'policy_fee_company', amount: 150 },
		{ type: CODES[round % CODES.length], amount: 25 + (i % 7) * 5 },
	].filter((f, n, all) => all.findIndex((g) => g.type === f.type) === n);
	let taxable = 0;
	for (const fee of fees) {
		if (fee.type === 'vehicle_crime_fee' && state.code === 'TX') continue;
		const kind = POLICY.includes(fee.type) ? 0 : fee.type === 'inspection_fee' ? 1 : fee.type === 'broker_fee' ? 2 : -1;
		if (kind >= 0 && state.base[kind as 0 | 1 | 2]) taxable += fee.amount;
	}
	const base = premium + taxable;
	const clean = (n: number) => Math.round(n * 1e6) / 1e6;
	const decimals = state.rounding === 'whole_dollar' ? 0 : state.rounding === 'standard' ? 2 : null;
	const roundTo = (n: number) => (decimals === null ? n : Math.sign(n) * (Math.round(Number(`${Math.abs(n)}e${decimals}`)) / 10 ** decimals));
	const inForce = new Map<string, Item>();
	for (const item of state.items) {
		if (item[3] !== null && item[3] > date) continue;
		const current = inForce.get(item[0]);
		if (!current || (current[3] ?? '') <= (item[3] ?? '')) inForce.set(item[0], item);
	}
	const lines: Array<{ type: string; amount: number }> = [];
	for (const code of [...new Set(state.items.map((item) => item[0]))]) {
		const item = inForce.get(code);
		if (!item || item[1] === null || item[1] === 0) continue;
		const amount = roundTo(clean(item[2] ? item[1] : (base * item[1]) / 100));
		lines.push({ type: code, amount: code === 'sl_tax' && i % 100 === 37 ? Math.round((amount + 12.34) * 100) / 100 : amount });
	}
	return {
		policy_number: `NAT-${i}`,
		insured_name: `Insured ${i}`,
		state_code: state.code,
		net_premium: premium,
		effective_date: date,
		expiration_date: `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`,
		fees: [...fees, ...lines],
	};
}
