import { clean, roundCents, roundDollars, sum } from '../money';
import { feeType, type FeeLine } from '../reference/feeTypes';
import type { StateRow } from '../reference/catalog';
import { ratesInForce, type LineCode, type StateRates } from './rates';

// Line item names come from the description's list, not from the rate file's research labels.
const LINE_NAMES: Record<LineCode, string> = {
	sl_tax: 'Surplus Lines Tax',
	stamping_fee: 'Stamping Fee',
	fire_marshal: 'Fire Marshal Tax',
	figa: 'FIGA Assessment',
	service_fee: 'Service Fee',
	surcharge: 'State Surcharge',
	regulatory_fee: 'Regulatory Fee',
	slas_fee: 'SLAS/Clearinghouse Fee',
	municipal_tax: 'Municipal Tax',
	flat_fee: 'Filing Fee',
};

export const DISCLAIMER =
	'Estimate only. Figures use the rates the service holds for the effective date and may differ from ' +
	'the amounts the state or its stamping office assesses. The licensed broker remains responsible for the filing.';

export const TX_VEHICLE_CRIME_WARNING =
	'vehicle_crime_fee does not apply to Texas surplus lines; its amount was set to 0 and excluded from tax';
export const KY_MUNICIPAL_NOTE =
	'Kentucky municipal premium tax depends on the locality of the risk address and is not included; add it separately.';

export interface LineItem {
	name: string;
	code: LineCode;
	rate: number;
	rate_type: 'percentage' | 'flat';
	amount: number;
	unrounded_amount: number;
}

export interface FeeBreakdown {
	policy_fees_taxable: number;
	inspection_fees_taxable: number;
	broker_fees_taxable: number;
	non_taxable_fees: number;
	total_fees: number;
	total_taxable_fees: number;
}

export interface CalculatorResult {
	state: { id: number; code: string; name: string };
	input: { premium: number; policy_fees: number; effective_date: string };
	tax_base: number;
	line_items: LineItem[];
	rounding_rule: StateRates['rounding_rule'];
	total_taxes_and_fees: number;
	total_due: number;
	fee_breakdown: FeeBreakdown | null;
	special_notes: string | null;
	calculated_at: string;
	disclaimer: string;
	warnings?: string[];
}

export interface EstimateInput {
	rates: StateRates;
	state: StateRow;
	premium: number;
	policyFees: number;
	/** null when the caller sent no fees[]: policyFees then stands for all policy fees. */
	fees: readonly FeeLine[] | null;
	effectiveDate: string;
	/** false for endorsements and cancellations: a per-policy flat charge is not billed on a change. */
	flatCharges: boolean;
	now: Date;
}

interface Base {
	taxBase: number;
	feesTotal: number;
	breakdown: FeeBreakdown | null;
	warnings: string[];
}

function taxBase(input: EstimateInput): Base {
	const flags = input.rates.tax_base;
	if (input.fees === null) {
		const taxable = flags.policy_fees ? input.policyFees : 0;
		return { taxBase: input.premium + taxable, feesTotal: input.policyFees, breakdown: null, warnings: [] };
	}
	const warnings: string[] = [];
	const totals = { policy: 0, inspection: 0, broker: 0, passThrough: 0 };
	for (const fee of input.fees) {
		const category = feeType(fee.type)?.category;
		let amount = fee.amount;
		if (fee.type === 'vehicle_crime_fee' && input.state.code === 'TX') {
			amount = 0;
			if (!warnings.includes(TX_VEHICLE_CRIME_WARNING)) warnings.push(TX_VEHICLE_CRIME_WARNING);
		}
		if (category === 'Policy Fee') totals.policy += amount;
		else if (category === 'Inspection Fee') totals.inspection += amount;
		else if (category === 'Broker Fee') totals.broker += amount;
		else if (category === 'Pass-through') totals.passThrough += amount;
		// Tax codes (only possible on invoice previews) are the billed taxes themselves, not fees.
	}
	const policy = flags.policy_fees ? totals.policy : 0;
	const inspection = flags.inspection_fees ? totals.inspection : 0;
	const broker = flags.broker_fees ? totals.broker : 0;
	const totalFees = totals.policy + totals.inspection + totals.broker + totals.passThrough;
	const taxable = policy + inspection + broker;
	return {
		taxBase: input.premium + taxable,
		feesTotal: totalFees,
		warnings,
		breakdown: {
			policy_fees_taxable: roundCents(policy),
			inspection_fees_taxable: roundCents(inspection),
			broker_fees_taxable: roundCents(broker),
			non_taxable_fees: roundCents(totalFees - taxable),
			total_fees: roundCents(totalFees),
			total_taxable_fees: roundCents(taxable),
		},
	};
}

function rounder(rule: StateRates['rounding_rule']): (n: number) => number {
	if (rule === 'whole_dollar') return roundDollars;
	if (rule === 'no_rounding') return clean;
	return roundCents;
}

export function estimate(input: EstimateInput): CalculatorResult {
	const base = taxBase(input);
	const round = rounder(input.rates.rounding_rule);
	const warnings = [...base.warnings];
	const notes: string[] = [];
	const lineItems: LineItem[] = [];
	for (const item of ratesInForce(input.rates, input.effectiveDate)) {
		if (item.rate === null) {
			// Only KY municipal_tax today: the rate depends on where the risk is.
			notes.push(input.state.code === 'KY' ? KY_MUNICIPAL_NOTE : `${item.code} depends on locality; not included.`);
			warnings.push(`${item.code} was not calculated: its rate depends on the locality of the risk`);
			continue;
		}
		// A zero rate marks the end of a charge (e.g. FL FIGA from 2026-10-01): no line at all.
		if (item.rate === 0) continue;
		if (item.rate_type === 'flat' && !input.flatCharges) continue;
		const unrounded = item.rate_type === 'flat' ? item.rate : (base.taxBase * item.rate) / 100;
		lineItems.push({
			name: LINE_NAMES[item.code],
			code: item.code,
			rate: item.rate,
			rate_type: item.rate_type,
			// Float noise first (10,250 × 4.85% = 497.12499999…), so a true half cent rounds up.
			amount: round(clean(unrounded)),
			unrounded_amount: clean(unrounded),
		});
	}
	const totalTaxes = roundCents(sum(lineItems.map((l) => l.amount)));
	const result: CalculatorResult = {
		state: { id: input.state.id, code: input.state.code, name: input.state.name },
		input: { premium: input.premium, policy_fees: roundCents(base.feesTotal), effective_date: input.effectiveDate },
		tax_base: roundCents(base.taxBase),
		line_items: lineItems,
		rounding_rule: input.rates.rounding_rule,
		total_taxes_and_fees: totalTaxes,
		total_due: roundCents(input.premium + base.feesTotal + totalTaxes),
		fee_breakdown: base.breakdown,
		special_notes: notes.length ? notes.join(' ') : null,
		calculated_at: input.now.toISOString(),
		disclaimer: DISCLAIMER,
	};
	if (warnings.length) result.warnings = warnings;
	return result;
}
