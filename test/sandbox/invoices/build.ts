import { ratesInForce, type StateRates } from '../calculator/rates';
import { TX_VEHICLE_CRIME_WARNING } from '../calculator/estimate';
import { hasFeature, type Account } from '../keys';
import { roundCents, sum } from '../money';
import { classCodeHeld, coverageFor } from '../reference/catalog';
import { feeType, type FeeLine } from '../reference/feeTypes';
import type { CoverageInput, InvoiceInput } from './types';

export interface BuiltParts {
	fees: FeeLine[];
	policyFee: number;
	stampsFee: number;
	serviceFee: number;
	coverages: Array<{ code: string; title: string; amount: number }>;
	unmatched: CoverageInput[];
	classCode: string | null;
	warnings: string[];
}

export const coverageNotFound = (code: string, state: string): string => `Coverage code '${code}' not found for state ${state}`;

/** The state's flat per-policy stamping fee in force on the policy's effective date, if it has one. */
export function flatStampingFee(rates: StateRates, effectiveDate: string): number | null {
	const item = ratesInForce(rates, effectiveDate).find((i) => i.code === 'stamping_fee' && i.rate_type === 'flat');
	return item && item.rate ? item.rate : null;
}

function applyFlatStamping(fees: FeeLine[], input: InvoiceInput, rates: StateRates): FeeLine[] {
	const flat = flatStampingFee(rates, input.effectiveDate);
	if (flat === null) return fees;
	// The service owns this fee in such states: a per-policy charge, nothing on a change.
	const isChange = input.typeCode === 'ENDORSEMENT' || input.typeCode === 'CANCELLATION';
	return [...fees.filter((f) => f.type !== 'stamping_fee'), { type: 'stamping_fee', amount: isChange ? 0 : flat }];
}

const total = (fees: FeeLine[], pick: (f: FeeLine) => boolean): number => roundCents(sum(fees.filter(pick).map((f) => f.amount)));

/** What create (and preview) store beyond the request itself: fees as billed, matched coverages, warnings. */
export function buildParts(input: InvoiceInput, account: Account, rates: StateRates, checkClassCode: boolean): BuiltParts {
	const warnings = [...input.warnings];
	const isTexas = input.state.code === 'TX';
	let fees = input.fees.map((f) => (isTexas && f.type === 'vehicle_crime_fee' ? { ...f, amount: 0 } : f));
	if (isTexas && input.fees.some((f) => f.type === 'vehicle_crime_fee')) warnings.push(TX_VEHICLE_CRIME_WARNING);
	fees = applyFlatStamping(fees, input, rates);

	const coverages: BuiltParts['coverages'] = [];
	const unmatched: CoverageInput[] = [];
	for (const c of input.coverages) {
		const listed = coverageFor(c.code, input.state.code);
		if (listed) coverages.push({ ...listed, amount: c.amount });
		else {
			unmatched.push(c);
			if (hasFeature(account, 'coverage_warnings'))
				warnings.push(`${coverageNotFound(c.code, input.state.code)}; kept for the operator, not saved as a matched coverage`);
		}
	}

	let classCode = input.classCode;
	if (checkClassCode && classCode !== null && !classCodeHeld(classCode, input.state.code)) {
		warnings.push(`Class code '${classCode}' is not held for state ${input.state.code}; the invoice was stored without it`);
		classCode = null;
	}

	return {
		fees,
		policyFee: total(fees, (f) => feeType(f.type)?.category === 'Policy Fee'),
		stampsFee: total(fees, (f) => f.type === 'stamping_fee'),
		serviceFee: total(fees, (f) => f.type === 'service_fee'),
		coverages,
		unmatched,
		classCode,
		warnings,
	};
}
