/**
 * A state's taxes as the calculator states them (each line's rate and kind, the rounding rule,
 * which fee categories are taxed), learned from one estimate, and a row's tax lines computed from
 * them: what lets Create Many tax a whole sheet with a few calls (batchTaxes.ts). How the figures
 * combine is assumed (nodes/shared/service.ts), so nothing computed here is used before a preview
 * of the service has confirmed it for the row's group.
 */
import type { IDataObject } from 'n8n-workflow';

import { CALCULATOR_FEE_CODES, FEE_CODES, type FeeCategory } from '../../shared/rules';
import {
	FLAT_CHARGE_SKIPPED_ON,
	ROUNDING_DECIMALS,
	UNROUNDED_DECIMALS,
	feeTypeName,
} from '../../shared/service';

interface RateLine {
	code: string;
	name: string;
	rate: number;
	flat: boolean;
}

/** The lines and rounding in force on a date: what two dates are compared on. */
export interface StateRates {
	lines: RateLine[];
	rounding: string;
}

export interface TaxModel extends StateRates {
	state: string;
	/** The date of the estimate it was learned from. */
	date: string;
	/** Fee categories in the tax base. */
	taxed: Set<FeeCategory>;
	/** Fee codes the state treats otherwise than their category (a warning named them). */
	ruledCodes: Set<string>;
}

const BASE_CATEGORIES: ReadonlyArray<[FeeCategory, string]> = [
	['policy_fee', 'policy_fees_taxable'],
	['inspection_fee', 'inspection_fees_taxable'],
	['broker_fee', 'broker_fees_taxable'],
];

const CATEGORY_OF = new Map<string, FeeCategory>(
	(Object.entries(FEE_CODES) as Array<[FeeCategory, readonly string[]]>).flatMap(
		([category, codes]) => codes.map((code): [string, FeeCategory] => [code, category]),
	),
);

/** The probe estimate: a round premium and every fee code the calculator takes, 1 each. */
const PROBE_PREMIUM = 1000;

export function probeBody(state: string, date: string): IDataObject {
	return {
		state,
		premium: PROBE_PREMIUM,
		effective_date: date,
		fees: CALCULATOR_FEE_CODES.map((type) => ({ type, amount: 1 })),
	};
}

/** Half up on the magnitude (a returned premium rounds to minus the same figure). */
function roundTo(value: number, decimals: number): number {
	const shifted = Math.round(Number(`${Math.abs(value)}e${decimals}`));
	const result = Math.sign(value) * Number(`${shifted}e-${decimals}`);
	return result === 0 ? 0 : result;
}

export const cents = (value: number) => roundTo(value, 2);

/** Lines and rounding of a calculator result or a preview's `tax_calculation`; undefined when unreadable. */
export function readRates(tax: IDataObject | undefined): StateRates | undefined {
	const rounding = String(tax?.rounding_rule ?? '');
	if (!tax || !(rounding in ROUNDING_DECIMALS) || !Array.isArray(tax.line_items)) return undefined;
	const lines: RateLine[] = [];
	for (const item of tax.line_items as IDataObject[]) {
		const rate = Number(item.rate);
		if (!Number.isFinite(rate) || !['percentage', 'flat'].includes(String(item.rate_type)))
			return undefined;
		lines.push({
			code: String(item.code),
			name: feeTypeName(String(item.code), item.name),
			rate,
			flat: item.rate_type === 'flat',
		});
	}
	return { lines, rounding };
}

export function sameRates(a: StateRates, b: StateRates): boolean {
	const key = (r: StateRates) =>
		JSON.stringify([r.rounding, r.lines.map((l) => [l.code, l.rate, l.flat])]);
	return key(a) === key(b);
}

/** What the rates say in words, for the item and the run's summary. */
export function describeRates(rates: StateRates): string {
	return rates.lines
		.map((l) => `${l.code} ${l.flat ? `${l.rate.toFixed(2)} flat` : `${l.rate}%`}`)
		.join(', ');
}

/** The model a probe estimate gives, or why it cannot be used (the state's rows are then previewed). */
export function learnModel(
	state: string,
	date: string,
	reply: IDataObject,
): TaxModel | { problem: string } {
	const rates = readRates(reply);
	if (!rates) return { problem: `the estimate for ${state} on ${date} gives no rate for a line` };
	const breakdown = (reply.fee_breakdown ?? {}) as IDataObject;
	const taxed = new Set<FeeCategory>();
	const ruledCodes = new Set<string>();
	for (const [category, field] of BASE_CATEGORIES) {
		const value = Number(breakdown[field]);
		if (value === FEE_CODES[category].length) taxed.add(category);
		// Neither all of the category nor none of it: its codes have rules of their own.
		else if (value !== 0) for (const code of FEE_CODES[category]) ruledCodes.add(code);
	}
	const warnings = Array.isArray(reply.warnings) ? reply.warnings.map(String) : [];
	for (const code of CALCULATOR_FEE_CODES)
		if (warnings.some((w) => new RegExp(`\\b${code}\\b`).test(w))) ruledCodes.add(code);
	const model: TaxModel = { ...rates, state, date, taxed, ruledCodes };
	// The estimate's own figures must follow from its rates and tax base as assumed.
	const base = Number(reply.tax_base);
	const items = reply.line_items as IDataObject[];
	const off = items.find((item, n) => {
		const line = rates.lines[n];
		return Math.abs(lineAmount(model, line, base).amount - Number(item.amount)) > 1e-9;
	});
	if (off)
		return {
			problem: `the estimate for ${state} on ${date} does not follow from its own rates (${String(off.code)})`,
		};
	return model;
}

function lineAmount(
	model: StateRates,
	line: RateLine,
	base: number,
): { amount: number; tie?: { odd: boolean } } {
	const unrounded = roundTo(line.flat ? line.rate : (base * line.rate) / 100, UNROUNDED_DECIMALS);
	const decimals = ROUNDING_DECIMALS[model.rounding];
	if (decimals === null || decimals === undefined) return { amount: unrounded };
	const amount = roundTo(unrounded, decimals);
	// Half a cent (or dollar) away either way: a figure a service may round the other way (half
	// up, half to even); odd says whether half to even would give another figure.
	const scaled = Math.abs(unrounded) * 10 ** decimals;
	if (Math.abs(scaled - Math.floor(scaled) - 0.5) >= 1e-4) return { amount };
	return { amount, tie: { odd: Math.round(Math.abs(amount) * 10 ** decimals) % 2 === 1 } };
}

/** `tie`: a line falls half a unit between two roundings (odd: half up and half to even differ). */
export type Computed =
	| { taxCalculation: IDataObject; tie?: { code: string; odd: boolean } }
	| { unsure: string };

/**
 * The row's tax lines and totals, shaped as the preview's `tax_calculation` (what the tax check
 * and the billing read), or why this row needs its own preview.
 */
export function computeTaxes(model: TaxModel, body: IDataObject): Computed {
	const premium = Number(body.net_premium);
	const sums: Record<FeeCategory, number> = {
		policy_fee: 0,
		inspection_fee: 0,
		broker_fee: 0,
		pass_through: 0,
		tax: 0,
	};
	for (const fee of Array.isArray(body.fees) ? (body.fees as IDataObject[]) : []) {
		const code = String(fee.type);
		const category = CATEGORY_OF.get(code);
		if (!category) return { unsure: `its fee code ${code} is not one the calculator states` };
		if (model.ruledCodes.has(code))
			return { unsure: `${feeTypeName(code)} (${code}) has a rule of its own in ${model.state}` };
		sums[category] += Number(fee.amount) || 0;
	}
	const base = premium + [...model.taxed].reduce((sum, category) => sum + sums[category], 0);
	const change = FLAT_CHARGE_SKIPPED_ON.includes(String(body.type_code));
	const lineItems: IDataObject[] = [];
	let tie: { code: string; odd: boolean } | undefined;
	for (const line of model.lines) {
		if (line.flat && change) continue;
		const { amount, tie: atTie } = lineAmount(model, line, base);
		if (atTie && !tie?.odd) tie = { code: line.code, odd: atTie.odd };
		lineItems.push({ name: line.name, code: line.code, rate: line.rate, amount });
	}
	const taxes = cents(lineItems.reduce((sum, l) => sum + Number(l.amount), 0));
	const fees = sums.policy_fee + sums.inspection_fee + sums.broker_fee + sums.pass_through;
	return {
		taxCalculation: {
			state: { code: model.state },
			input: { premium, effective_date: body.effective_date },
			tax_base: cents(base),
			line_items: lineItems,
			rounding_rule: model.rounding,
			total_taxes_and_fees: taxes,
			total_due: cents(premium + fees + taxes),
		},
		...(tie ? { tie } : {}),
	};
}

/** Where a computation and the service's figures differ (undefined: they agree to the cent). */
export function taxDifference(computed: IDataObject, served: IDataObject): string | undefined {
	const lines = (tax: IDataObject) =>
		new Map(
			(Array.isArray(tax.line_items) ? (tax.line_items as IDataObject[]) : []).map((l) => [
				String(l.code),
				Number(l.amount),
			]),
		);
	const mine = lines(computed);
	const theirs = lines(served);
	for (const code of new Set([...mine.keys(), ...theirs.keys()])) {
		const [a, b] = [mine.get(code), theirs.get(code)];
		if (a === undefined || b === undefined || Math.abs(a - b) > 1e-9)
			return `${code}: computed ${a ?? 'none'}, the preview ${b ?? 'none'}`;
	}
	for (const total of ['total_taxes_and_fees', 'total_due']) {
		if (Math.abs(Number(computed[total]) - Number(served[total])) > 1e-9)
			return `${total}: computed ${String(computed[total])}, the preview ${String(served[total])}`;
	}
	return undefined;
}
