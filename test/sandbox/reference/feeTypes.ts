export type FeeCategory = 'Policy Fee' | 'Inspection Fee' | 'Broker Fee' | 'Pass-through' | 'Tax';

export interface FeeType {
	code: string;
	category: FeeCategory;
	accepted_by: Array<'calculator' | 'invoices'>;
	alias_of: string | null;
}

const BOTH: FeeType['accepted_by'] = ['calculator', 'invoices'];
const INVOICES: FeeType['accepted_by'] = ['invoices'];

const group = (category: FeeCategory, codes: string[], accepted: FeeType['accepted_by']): FeeType[] =>
	codes.map((code) => ({ code, category, accepted_by: accepted, alias_of: null }));

// Each pair names the same stored column; the Tax-side code points at its pass-through twin.
export const ALIASES: Readonly<Record<string, string>> = {
	fire_marshal: 'fire_marshall_tax',
	slas_fee: 'clearinghouse_fee',
	flat_fee: 'filing_fee',
};

export const FEE_TYPES: readonly FeeType[] = [
	...group(
		'Policy Fee',
		[
			'policy_fee_company',
			'policy_fee_broker',
			'technology_fee',
			'acca_dues',
			'reinstatement_fee',
			'equipment_charge',
			'assessment_fee',
			'vehicle_crime_fee',
			'other',
		],
		BOTH,
	),
	...group('Inspection Fee', ['inspection_fee'], BOTH),
	...group('Broker Fee', ['broker_fee'], BOTH),
	...group('Pass-through', ['filing_fee', 'clearinghouse_fee', 'fire_marshall_tax', 'fslso_service'], BOTH),
	...group(
		'Tax',
		[
			'sl_tax',
			'stamping_fee',
			'fire_marshal',
			'figa',
			'service_fee',
			'surcharge',
			'regulatory_fee',
			'slas_fee',
			'municipal_tax',
			'flat_fee',
		],
		INVOICES,
	),
].map((t) => ({ ...t, alias_of: ALIASES[t.code] ?? null }));

export const feeType = (code: string): FeeType | undefined => FEE_TYPES.find((t) => t.code === code);

export interface FeeLine {
	type: string;
	amount: number;
}

/** Messages for fees[] items, shared by invoices (25 items, all codes) and the calculator (15, no tax codes). */
export function checkFees(
	fees: unknown,
	opts: { max: number; allowTaxCodes: boolean },
	add: (message: string) => void,
): FeeLine[] {
	if (fees === undefined || fees === null) return [];
	if (!Array.isArray(fees)) {
		add('Must be an array');
		return [];
	}
	if (fees.length > opts.max) add(`Must not have more than ${opts.max} items`);
	const lines: FeeLine[] = [];
	fees.forEach((item: unknown, i) => {
		const fee = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
		const type = fee.type;
		const known = typeof type === 'string' ? feeType(type) : undefined;
		if (typeof type !== 'string' || type === '') add(`fees[${i}].type is required`);
		else if (!known) add(`fees[${i}].type '${type}' is not a valid fee type`);
		else if (!opts.allowTaxCodes && known.category === 'Tax')
			add(`fees[${i}].type '${type}' is a tax code; tax codes are accepted on invoices only`);
		if (typeof fee.amount !== 'number' || !Number.isFinite(fee.amount))
			add(`fees[${i}].amount is required and must be a number`);
		if (known && typeof fee.amount === 'number') lines.push({ type: known.code, amount: fee.amount });
	});
	for (const [code, twin] of Object.entries(ALIASES)) {
		if (lines.some((l) => l.type === code) && lines.some((l) => l.type === twin))
			add(`'${code}' and '${twin}' are the same fee; send only one of them`);
	}
	return lines;
}
