/**
 * A state's taxes as the calculator states them (each line's rate and kind, the rounding rule,
 * which fees are taxed), learned from estimates, and a row's tax lines computed from them: what
 * lets Create Many tax a whole sheet with a few calls (batchTaxes.ts). How the figures combine is
 * assumed (nodes/shared/service.ts), so nothing computed here is used before a preview of the
 * service has confirmed it for the row's group.
 *
 * Fee rules are learned per code, not per category. The probe (every code at 1) says, per
 * category, whether all its codes are taxed, none, or some; where some are (TX: the vehicle crime
 * fee is zeroed and untaxed), where a warning names a code, or where the fees' total is short,
 * the codes involved are unsettled, and one more estimate learns each of them that the sheet's
 * rows in that state and rate period carry: each at its own power of two dollars, so the taxed
 * sum of each category and the fees' total read back as the set of codes taxed and counted
 * (group testing in one call). Its cost grows with the state and period, never with the rows.
 *
 * Why a row still gets its own preview (batchTaxes.ts), and whether that is learned per group:
 * - its sheet taxes differ from the computation (Sheet Tax Check): not learned, by design; a
 *   refusal rests on the service's own figure, so one preview per wrong row;
 * - a fee code whose rule the second estimate could not read (its figures are not a set of the
 *   codes sent: a cap, a share of a fee): not learned, the model would guess; the reason names
 *   the code and the state;
 * - a fee code the calculator does not take (a tax code is fine: it is the billed tax): cannot
 *   be learned, the calculator refuses it; the row validation keeps such rows out already;
 * - its state, date or premium is not one to group (no two-letter state, no valid date, a
 *   premium of 0 the preview refuses): the preview's own reply is the row's verdict;
 * - its group's confirmation did not match (the assumptions failed there): the safety net, each
 *   row then previewed, and the run says which group and why;
 * - its state could not be estimated, or the key has no calculator: every row of it previewed,
 *   the run's warning names the cost.
 * Rows on a rounding tie are not previewed one by one: the group's confirmation checks their
 * rates, and one preview per run, rounding rule and sign (of a row where half up and half to
 * even differ, when there is one) checks the rounding at a tie; a tie the service rounds
 * otherwise makes those rows previewed, and the run says so. Ties stay rare (a half cent exactly).
 * Changes and returned premiums are each a set of their own in the group, confirmed apart.
 */
import type { IDataObject } from 'n8n-workflow';

import { CALCULATOR_FEE_CODES, FEE_CODES, type FeeCategory } from '../shared/rules';
import {
	FLAT_CHARGE_SKIPPED_ON,
	ROUNDING_DECIMALS,
	UNROUNDED_DECIMALS,
	feeCodeProbeAmount,
	feeTypeName,
} from '../shared/service';

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
	/** Codes learned one by one (learnCodes): in the tax base, and in the fees' total. */
	codeRules: Map<string, CodeRule>;
	/** Codes whose rule is not known yet, and why: learned on demand, else their rows are previewed. */
	unsettled: Map<string, string>;
}

interface CodeRule {
	taxed: boolean;
	counted: boolean;
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
	const unsettled = new Map<string, string>();
	const unsettle = (code: string, why: string) => {
		if (!unsettled.has(code)) unsettled.set(code, why);
	};
	for (const [category, field] of BASE_CATEGORIES) {
		const value = Number(breakdown[field]);
		if (value === FEE_CODES[category].length) taxed.add(category);
		// Neither all of the category nor none of it: which codes are taxed is learned per code.
		else if (value !== 0)
			for (const code of FEE_CODES[category])
				unsettle(code, `is in a category partly taxed in ${state}`);
	}
	const warnings = Array.isArray(reply.warnings) ? reply.warnings.map(String) : [];
	for (const code of CALCULATOR_FEE_CODES)
		if (warnings.some((w) => new RegExp(`\\b${code}\\b`).test(w)))
			unsettle(code, `is named by a warning of the ${state} estimate`);
	// A fee left out of the total (TX zeroes its vehicle crime fee): which one is learned per code.
	const total = Number(breakdown.total_fees ?? CALCULATOR_FEE_CODES.length);
	if (total !== CALCULATOR_FEE_CODES.length)
		for (const code of CALCULATOR_FEE_CODES)
			unsettle(code, `may be left out of the fees' total in ${state}`);
	const model: TaxModel = { ...rates, state, date, taxed, codeRules: new Map(), unsettled };
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

/** The estimate that learns the codes' rules: each code at its own power of two dollars. */
export function codesBody(state: string, date: string, codes: readonly string[]): IDataObject {
	return {
		state,
		premium: PROBE_PREMIUM,
		effective_date: date,
		fees: codes.map((type, bit) => ({ type, amount: feeCodeProbeAmount(bit) })),
	};
}

/** The codes whose bits are set in a sum of codesBody's amounts; undefined when it is no such sum. */
function codesIn(
	value: unknown,
	codes: readonly string[],
	allowed: readonly string[],
): Set<string> | undefined {
	const sum = Number(value ?? 0);
	if (!Number.isInteger(sum) || sum < 0 || sum >= feeCodeProbeAmount(codes.length))
		return undefined;
	const set = new Set(
		codes.filter((_, bit) => Math.floor(sum / feeCodeProbeAmount(bit)) % 2 === 1),
	);
	return [...set].every((code) => allowed.includes(code)) ? set : undefined;
}

/** The model with `codes` left unsettled, saying why their rule could not be learned. */
export function unlearned(model: TaxModel, codes: readonly string[], why: string): TaxModel {
	const unsettled = new Map(model.unsettled);
	for (const code of codes)
		unsettled.set(
			code,
			`has a rule of its own in ${model.state} that could not be learned (${why})`,
		);
	return { ...model, unsettled };
}

/**
 * The model with the rules of `codes` (codesBody's estimate) learned: each code taxed or not,
 * counted in the fees' total or not. Where the reply is not a set of the codes sent, or its rates
 * are not the model's, the codes stay unsettled and the reason says why.
 */
export function learnCodes(
	model: TaxModel,
	codes: readonly string[],
	reply: IDataObject,
): TaxModel {
	const fail = (why: string) => unlearned(model, codes, why);
	const rates = readRates(reply);
	if (!rates || !sameRates(rates, model)) return fail('the estimate gives other rates');
	const breakdown = (reply.fee_breakdown ?? {}) as IDataObject;
	const taxedCodes = new Set<string>();
	for (const [category, field] of BASE_CATEGORIES) {
		const set = codesIn(breakdown[field], codes, FEE_CODES[category]);
		if (!set) return fail(`${field} is not a sum of the fees sent`);
		for (const code of set) taxedCodes.add(code);
	}
	const counted = codesIn(breakdown.total_fees, codes, codes);
	if (!counted) return fail('total_fees is not a sum of the fees sent');
	const taxedSum = codes.reduce(
		(sum, code, bit) => sum + (taxedCodes.has(code) ? feeCodeProbeAmount(bit) : 0),
		0,
	);
	if (Math.abs(Number(reply.tax_base) - PROBE_PREMIUM - taxedSum) > 1e-9)
		return fail('its tax base is not the premium and the taxed fees');
	const unsettled = new Map(model.unsettled);
	const codeRules = new Map(model.codeRules);
	for (const code of codes) {
		codeRules.set(code, { taxed: taxedCodes.has(code), counted: counted.has(code) });
		unsettled.delete(code);
	}
	return { ...model, codeRules, unsettled };
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
	// Fees of the codes learned one by one (model.codeRules), apart from their category.
	let taxedApart = 0;
	let countedApart = 0;
	for (const fee of Array.isArray(body.fees) ? (body.fees as IDataObject[]) : []) {
		const code = String(fee.type);
		const category = CATEGORY_OF.get(code);
		if (!category) return { unsure: `its fee code ${code} is not one the calculator states` };
		const unsettled = model.unsettled.get(code);
		if (unsettled) return { unsure: `${feeTypeName(code)} (${code}) ${unsettled}` };
		const amount = Number(fee.amount) || 0;
		const rule = model.codeRules.get(code);
		if (!rule) sums[category] += amount;
		else {
			if (rule.taxed) taxedApart += amount;
			if (rule.counted) countedApart += amount;
		}
	}
	const base =
		premium + taxedApart + [...model.taxed].reduce((sum, category) => sum + sums[category], 0);
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
	const fees =
		sums.policy_fee + sums.inspection_fee + sums.broker_fee + sums.pass_through + countedApart;
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
