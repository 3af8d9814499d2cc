/**
 * Rules the service description states, checked locally before a call is spent.
 * Messages are the description's own, so a local refusal reads like the service's.
 */

export const MESSAGES = {
	required: 'This field is required',
	date: 'Must be a valid date',
	stateCode: 'Must be a valid state_code',
	typeCode: 'Must be one of: NEW, RENEWAL, ENDORSEMENT, CANCELLATION',
} as const;

/** The 50 states and DC. */
export const STATE_CODES = [
	'AL',
	'AK',
	'AZ',
	'AR',
	'CA',
	'CO',
	'CT',
	'DE',
	'DC',
	'FL',
	'GA',
	'HI',
	'ID',
	'IL',
	'IN',
	'IA',
	'KS',
	'KY',
	'LA',
	'ME',
	'MD',
	'MA',
	'MI',
	'MN',
	'MS',
	'MO',
	'MT',
	'NE',
	'NV',
	'NH',
	'NJ',
	'NM',
	'NY',
	'NC',
	'ND',
	'OH',
	'OK',
	'OR',
	'PA',
	'RI',
	'SC',
	'SD',
	'TN',
	'TX',
	'UT',
	'VT',
	'VA',
	'WA',
	'WV',
	'WI',
	'WY',
] as const;

export const TYPE_CODES = ['NEW', 'RENEWAL', 'ENDORSEMENT', 'CANCELLATION'] as const;

/** The type the service files when a create leaves `type_code` out. */
export const DEFAULT_TYPE_CODE = 'NEW';

export type FeeCategory = 'policy_fee' | 'inspection_fee' | 'broker_fee' | 'pass_through' | 'tax';

/** Fee and tax codes of `fees[].type`, by category (the description's table). */
export const FEE_CODES: Record<FeeCategory, readonly string[]> = {
	policy_fee: [
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
	inspection_fee: ['inspection_fee'],
	broker_fee: ['broker_fee'],
	pass_through: ['filing_fee', 'clearinghouse_fee', 'fire_marshall_tax', 'fslso_service'],
	tax: [
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
};

/** Codes the calculator takes: every category but billed taxes. */
export const CALCULATOR_FEE_CODES: readonly string[] = [
	...FEE_CODES.policy_fee,
	...FEE_CODES.inspection_fee,
	...FEE_CODES.broker_fee,
	...FEE_CODES.pass_through,
];

/** Codes invoices (create and preview) take. */
export const INVOICE_FEE_CODES: readonly string[] = [...CALCULATOR_FEE_CODES, ...FEE_CODES.tax];

/** Pairs stored in the same column; sending both in one request gives 422. */
export const FEE_ALIAS_PAIRS: ReadonlyArray<readonly [string, string]> = [
	['fire_marshal', 'fire_marshall_tax'],
	['slas_fee', 'clearinghouse_fee'],
	['flat_fee', 'filing_fee'],
];

/**
 * The billed tax a fee code stands for: a tax code itself, or the pass-through twin that shares
 * its stored column (a sheet's "Filing Fee" is filing_fee, stored where flat_fee is). Such a line
 * is a tax of the change: its sign follows the premium's, and the tax check counts it as its twin.
 */
export const BILLED_TAX_OF: ReadonlyMap<string, string> = new Map<string, string>([
	...FEE_CODES.tax.map((code): [string, string] => [code, code]),
	...FEE_ALIAS_PAIRS.filter(([code]) => FEE_CODES.tax.includes(code)).map(
		([code, twin]): [string, string] => [twin, code],
	),
]);

export const LIMITS = {
	invoiceFees: 25,
	calculatorFees: 15,
	invoiceDocuments: 10,
	documentType: 50,
	docUuid: 256,
	fileName: 255,
	calculatorMinPremium: 0.01,
	/** Insurer group amounts must sum to net_premium within this. */
	sumToleranceCents: 1,
} as const;

export const DOCUMENT_TYPE_PATTERN = /^[A-Za-z0-9_-]+$/;

export const DOCUMENT_MIME_TYPES = [
	'application/pdf',
	'image/png',
	'image/jpeg',
	'image/jpg',
] as const;

/** YYYY-MM-DD that is a real calendar date. */
export function isValidDate(value: unknown): boolean {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	// Counted, not parsed: it runs for every date of every row (Create Many: 30,000 at 10,000 rows).
	const year = Number(value.slice(0, 4));
	const month = Number(value.slice(5, 7));
	const day = Number(value.slice(8, 10));
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
	return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/** Calls a key may make per clock hour, by tier (the description's Limits table). */
export const HOURLY_CALL_LIMITS = { t1: 100, t2: 1000, t3: 5000 } as const;

/** Values of `status` on an invoice. */
export const INVOICE_STATUSES = ['new', 'sent', 'success', 'error', 're-submitted'] as const;

/** Values of `filing.state_status` (accounts with the new features). */
export const FILING_STATES = [
	'not_sent',
	'sent',
	'accepted',
	'confirmed',
	'rejected',
	'refused',
] as const;

/** Values of a document's `fetch_status` (`none`: added by the operator). */
export const DOCUMENT_FETCH_STATUSES = [
	'pending',
	'fetching',
	'fetched',
	'failed',
	'none',
] as const;
