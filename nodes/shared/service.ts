/**
 * Everything this package assumes about the service where its description says "not shown".
 * Paths, feature names and reply readers live here and nowhere else, so a correction from the
 * operator is a one-line change. The README lists these under "Assumptions".
 */
import type { IDataObject } from 'n8n-workflow';

export const API_VERSION_SEGMENT = '/api/v1';

/** Endpoint paths, relative to the base URL (which ends in /api/v1). */
export const PATHS = {
	authMe: '/auth/me',
	authToken: '/auth/token',
	invoices: '/invoices',
	invoicePreview: '/invoices/preview',
	invoiceBatch: '/invoices/batch',
	invoice: (id: string | number) => `/invoices/${encodeURIComponent(String(id))}`,
	documents: (invoiceId: string | number) =>
		`/invoices/${encodeURIComponent(String(invoiceId))}/documents`,
	document: (invoiceId: string | number, ref: string | number) =>
		`/invoices/${encodeURIComponent(String(invoiceId))}/documents/${encodeURIComponent(String(ref))}`,
	calculatorEstimate: '/calculator/estimate',
	companiesSearch: '/companies/search',
	lobs: '/lobs',
	coverages: '/coverages',
	states: '/reference/states',
	feeTypes: '/reference/fee-types',
	documentTypes: '/reference/document-types',
} as const;

/** Names in `GET /auth/me` → `data.account.features` (the description lists the behaviours, not their names). */
export const FEATURES = {
	idempotency: 'idempotency',
	carrierLookup: 'carrier_lookup',
	lobName: 'lob_name',
	transactionEffectiveDate: 'transaction_effective_date',
	filing: 'filing',
	coverageWarnings: 'coverage_warnings',
} as const;

/** `GET /invoices` paging: pages from 1, at most 100 a page. */
export const INVOICE_LIST_MAX_PER_PAGE = 100;

/** `POST /invoices/batch` takes 1 to 500 invoices. */
export const BATCH_MAX_INVOICES = 500;

/** Key of the list property inside `data` for each list endpoint. */
export const LIST_KEYS = {
	invoices: 'invoices',
	documents: 'documents',
	states: 'states',
	feeTypes: 'fee_types',
	documentTypes: 'document_types',
	companies: 'companies',
	lobs: 'lobs',
	coverages: 'coverages',
	batchResults: 'results',
} as const;

/**
 * Tolerant list reader: `data` may be the array itself, an object holding the named array, or an
 * object holding exactly one array property. Anything else reads as an empty list.
 */
export function readList<T = IDataObject>(data: unknown, key: string): T[] {
	if (Array.isArray(data)) return data as T[];
	if (!data || typeof data !== 'object') return [];
	const record = data as Record<string, unknown>;
	if (Array.isArray(record[key])) return record[key] as T[];
	const arrays = Object.values(record).filter(Array.isArray);
	return arrays.length === 1 ? (arrays[0] as T[]) : [];
}

export interface Pagination {
	page: number;
	perPage: number;
	total?: number;
}

/** Reads `data.pagination` of the invoice list; missing parts fall back to what was asked. */
export function readPagination(
	data: unknown,
	asked: { page: number; perPage: number },
): Pagination {
	const raw = (data && typeof data === 'object' ? (data as IDataObject).pagination : undefined) as
		| IDataObject
		| undefined;
	const total = typeof raw?.total === 'number' ? raw.total : undefined;
	return {
		page: typeof raw?.page === 'number' ? raw.page : asked.page,
		perPage: typeof raw?.per_page === 'number' ? raw.per_page : asked.perPage,
		total,
	};
}

export interface AccountInfo {
	keyName?: string;
	tier?: string;
	mode?: string;
	features: string[];
	calculatorEnabled?: boolean;
	scopes: string[];
}

/** Reads `GET /auth/me`; unknown or missing parts read as "not known". */
export function readAccountInfo(data: unknown): AccountInfo {
	const me = (data ?? {}) as IDataObject;
	const account = (me.account ?? {}) as IDataObject;
	const strings = (value: unknown) =>
		Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
	return {
		keyName: typeof me.key_name === 'string' ? me.key_name : undefined,
		tier: typeof me.tier === 'string' ? me.tier : undefined,
		mode: typeof account.mode === 'string' ? account.mode : undefined,
		features: strings(account.features),
		calculatorEnabled:
			typeof account.calculator_enabled === 'boolean' ? account.calculator_enabled : undefined,
		scopes: strings(me.scopes),
	};
}

/** The invoice id kept by the service on a rejected create (some accounts). */
export function readKeptInvoiceId(details: unknown): number | undefined {
	const id = (details as IDataObject | undefined)?.invoice_id;
	return typeof id === 'number' ? id : undefined;
}

/**
 * Display names of fee and tax codes. `GET /reference/fee-types` gives codes without names; the
 * description names the calculator's line items (the tax codes), and the other names are this
 * package's reading of the codes. A name the service sends wins over this table.
 */
export const FEE_TYPE_NAMES: Readonly<Record<string, string>> = {
	// From the description's calculator line items.
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
	// Fee codes, named by this package.
	policy_fee_company: 'Policy Fee (Company)',
	policy_fee_broker: 'Policy Fee (Broker)',
	technology_fee: 'Technology Fee',
	acca_dues: 'ACCA Dues',
	reinstatement_fee: 'Reinstatement Fee',
	equipment_charge: 'Equipment Charge',
	assessment_fee: 'Assessment Fee',
	vehicle_crime_fee: 'Vehicle Crime Fee',
	other: 'Other Fee',
	inspection_fee: 'Inspection Fee',
	broker_fee: 'Broker Fee',
	// Pass-through twins of three tax codes (the dropdown's description says which).
	filing_fee: 'Filing Fee',
	clearinghouse_fee: 'Clearinghouse Fee',
	fire_marshall_tax: 'Fire Marshal Tax',
	fslso_service: 'FSLSO Service Fee',
};

/** `served` (a name in the service's reply) first, then the table, then the code made readable. */
export function feeTypeName(code: string, served?: unknown): string {
	if (typeof served === 'string' && served.trim()) return served.trim();
	return FEE_TYPE_NAMES[code] ?? code.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

/**
 * The surplus lines tax code. Every state and DC levies surplus lines tax (the calculator computes
 * an `sl_tax` line for all 51), so an invoice sent without it is almost always a mistake.
 */
export const SURPLUS_LINES_TAX_CODE = 'sl_tax';

/**
 * The filing state after which the state answers nothing more: the description lists the states
 * but not their transitions; assumed sent → refused, with nothing after it.
 */
export const FINAL_FILING_REFUSAL = 'refused';

/**
 * The zone of the service's own timestamps without a zone (`created` of an invoice, `added` of a
 * document): the description says US Central. The nodes add each as UTC ISO 8601 (`created_utc`,
 * `added_utc`), the convention of the package's own times (`detected_at`, `url_expires_at`).
 */
export const SERVICE_TIME_ZONE = 'America/Chicago';

/** Timestamp fields the service gives in SERVICE_TIME_ZONE, as `YYYY-MM-DD HH:MM:SS`. */
export const SERVICE_LOCAL_TIME_FIELDS = ['created', 'added'] as const;

/**
 * The window after a lost reply, on the service's own clock: where the run listed nothing of a
 * policy before sending, a transaction is the attempt's only if the service created it after the
 * attempt began as the service's clock tells it. Assumed: every reply's `meta.timestamp` is the
 * service's time of the reply (the description says "ISO 8601 UTC time of the reply") on the same
 * clock as its `created` (shown to the second, in SERVICE_TIME_ZONE). The attempt's start on that
 * clock is the recovery listing's `meta.timestamp` less the time n8n measured from the attempt's
 * start to that listing's reply (a duration, on one clock), less one second for `created`'s
 * truncation to the second: no offset between n8n's clock and the service's enters it. A listing
 * without `meta.timestamp` gives no window: nothing unlisted is taken as the attempt's (it is
 * sent again and marked sent_again).
 */
export const CREATED_TRUNCATION_MS = 1_000;

/**
 * MARK_RULE: the mark the package writes on each filing is the invoice's `invoice_number` (the
 * description: "the caller's own reference"), the sheet's own where the row gives one, else one
 * derived from the row (filing/mark.ts: `SL` and 16 characters of A-Z and 2-7). Assumed: the
 * service keeps `invoice_number` as sent and shows it in the listing of the policy's transactions,
 * at most in another letter case or, for a number of digits only, without its leading zeros (the
 * forms markForm folds); it does not require the number to be unique (two invoices may carry the
 * same number, which is why recovery still keeps to what was stored during the attempt).
 */
export const MARK_FIELD = 'invoice_number';
/**
 * The calculator's tax figures, as Create Many computes them for a whole sheet (taxes/rates.ts).
 * The description gives each line's `rate` and `rate_type`, the state's `rounding_rule`,
 * `tax_base` and `fee_breakdown`; how they combine is not shown, so these are assumed, and every
 * group of rows computed from them is confirmed against the service's own preview of one of its
 * rows before it is used (a group that does not match is previewed row by row):
 * - a percentage line is tax base × rate / 100, the tax base being the premium plus the fees of
 *   the categories the state taxes (read from `fee_breakdown`); a flat line is its rate;
 * - a flat line is a charge per policy: not billed on an endorsement or a cancellation;
 * - a line is rounded on its magnitude, half up, to the decimals its `rounding_rule` names;
 * - the preview taxes at the invoice's `effective_date`, as the calculator does at its
 *   `effective_date`;
 * - rate periods: rates found the same on two dates are in force on every date between them
 *   (a rate that changes and changes back between two rows' dates is not seen; the preview that
 *   confirms each group is of its latest row, so a change before it is).
 */
export const TAX_DATE_FIELD = 'effective_date';
/** The scope `GET /auth/me` lists for a key that may use the calculator. */
export const CALCULATOR_SCOPE = 'calculator';
export const FLAT_CHARGE_SKIPPED_ON: readonly string[] = ['ENDORSEMENT', 'CANCELLATION'];
export const ROUNDING_DECIMALS: Readonly<Record<string, number | null>> = {
	standard: 2,
	whole_dollar: 0,
	no_rounding: null,
};
/** Decimals kept of an unrounded amount (the reply's `unrounded_amount` shows no more). */
export const UNROUNDED_DECIMALS = 6;
