/**
 * Everything this package assumes about the service where its description says "not shown".
 * Paths, feature names and reply readers live here and nowhere else, so a correction from the
 * operator is a one-line change. docs/assumptions.md lists them.
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
	invoice: (id: string | number) => `/invoices/${invoiceSegment(id)}`,
	documents: (invoiceId: string | number) => `/invoices/${invoiceSegment(invoiceId)}/documents`,
	document: (invoiceId: string | number, ref: string | number) =>
		`/invoices/${invoiceSegment(invoiceId)}/documents/${documentSegment(ref)}`,
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

/**
 * How long the service replays a create by its Idempotency-Key (the description: 24 hours). After
 * that the same key files again, so a re-run is stopped by the package's mark on the policy's
 * listing (the look first), on accounts with the feature as on those without.
 */
export const KEY_REPLAY_WINDOW_HOURS = 24;

/** `GET /invoices` paging: pages from 1, at most 100 a page. */
export const INVOICE_LIST_MAX_PER_PAGE = 100;

/**
 * The most pages one listing reads (10,000 transactions: far more than one policy holds). The
 * description shows neither a cap nor what a listing does past its end, so a listing is assumed
 * to end and every loop over it is bounded: it stops at the first page that adds no invoice id
 * not read before (a server repeating a page), at the total its first page gave, and at this cap.
 * Where the listing matters to a filing (the look for rows already filed, the reconciliation
 * after a lost reply), a listing stopped before its end refuses the filing instead of guessing.
 */
export const INVOICE_LIST_MAX_PAGES = 100;
export const INVOICE_LIST_PAGING_RULE = `A listing stops at the first page that adds no invoice not read before, at the total its first page gave, and at ${INVOICE_LIST_MAX_PAGES} pages of ${INVOICE_LIST_MAX_PER_PAGE}.`;

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

/**
 * The service's own "not found": a 404 in its envelope with this code (the description's Errors
 * table). Any other 404 (a proxy's or a web server's page, another code) is not the service
 * saying the thing does not exist: it points at the Base URL, a proxy or the credential, and
 * nothing is taken as gone or deleted on its strength.
 */
export const NOT_FOUND_REPLY = { status: 404, code: 'NOT_FOUND' } as const;

/**
 * The most bytes of one JSON reply the package reads (after decompression). A page of 100 invoices is about
 * 100 KB, an invoice with its documents a few KB, and no list the service gives is longer than a
 * page; 4 MB leaves forty times the headroom. A longer reply is refused (`REPLY_TOO_LARGE`)
 * before anything reads or masks it.
 */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/**
 * One page of `GET /invoices` read as the invoice list (gaps.md: `data: {invoices: [...],
 * pagination}`, or tolerantly the array itself or an object with exactly one array property),
 * or why it is not recognisably that list: `data` missing or of another shape, or a row that is
 * not an invoice with an id. A listing that decides a filing is read only when it is this list.
 */
export function readInvoicePage(
	data: unknown,
	asked: { page: number; perPage: number },
): { rows: IDataObject[]; pagination: Pagination } | { problem: string } {
	const record =
		data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : undefined;
	const isList =
		Array.isArray(data) ||
		(record !== undefined &&
			(Array.isArray(record[LIST_KEYS.invoices]) ||
				Object.values(record).filter(Array.isArray).length === 1));
	if (!isList)
		return {
			problem: `its data is ${data === null || data === undefined ? 'empty (null)' : `of another shape (${describeShape(data)})`}, not the list of invoices`,
		};
	const rows = readList(data, LIST_KEYS.invoices);
	const stray = rows.findIndex(
		(row) =>
			!row || typeof row !== 'object' || Array.isArray(row) || !/^\d+$/.test(String(row.id ?? '')),
	);
	if (stray >= 0) return { problem: `its row ${stray + 1} is not an invoice with an id` };
	return { rows, pagination: readPagination(data, asked) };
}

function describeShape(data: unknown): string {
	if (typeof data !== 'object' || data === null) return typeof data;
	const keys = Object.keys(data).slice(0, 5);
	return keys.length ? `an object with ${keys.join(', ')}` : 'an empty object';
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
/**
 * The listing without a filter (gaps.md): a real account may refuse it with 422 VALIDATION_ERROR;
 * Reconcile Sheet then lists each policy. Assumed: the refusal comes as that status or code, and
 * an account that answers gives `pagination.total` over the whole account (its size decides
 * whether the account's listing costs fewer calls than one listing per policy).
 */
export const ACCOUNT_LISTING_REFUSED = { status: 422, code: 'VALIDATION_ERROR' } as const;

/**
 * The rate-limit window. The description counts calls per hour and shows X-RateLimit-Reset and
 * Retry-After without their range, so a header is read as describing at most this window: no
 * wait (a 429's Retry-After, or the reset with no calls left) is taken as longer than an hour
 * from the reply, and after that the key's figures count as a new window. A header that asks for
 * more (`Retry-After: 1000000000`, a reset in milliseconds) would otherwise hold back every call
 * of the key, in every workflow, until n8n restarts.
 */
export const RATE_LIMIT_WINDOW_SECONDS = 3600;

/**
 * X-RateLimit-Reset in Unix seconds, whatever form it came in: from 10^11 it is epoch
 * milliseconds (10^11 seconds is the year 5138), from 10^9 epoch seconds (10^9 is September 2001),
 * and below that seconds from now.
 */
export function readResetSeconds(raw: number, nowMs: number): number {
	if (raw >= 1e11) return Math.ceil(raw / 1000);
	if (raw >= 1e9) return raw;
	return Math.floor(nowMs / 1000) + Math.max(0, raw);
}

/**
 * A 429 answered again and again with a short Retry-After (0 included) is waited for at least
 * 1, 2, 4, 8, then 16 s, and the call is refused after that many waits: 6 calls at most.
 */
export const RATE_LIMIT_RETRY_FLOOR_SECONDS = [1, 2, 4, 8, 16] as const;

/**
 * Where documents are downloaded from. The description gives a fetched document a signed link
 * that expires after 60 minutes and says nothing of its host: documents are assumed to be served
 * over https from public hosts (a storage service's signed URL). A link, and every redirect
 * (followed by hand, at most DOWNLOAD_MAX_REDIRECTS), must therefore be https and name neither a
 * private, loopback, link-local, shared, multicast or cloud-metadata address nor an internal host
 * name (DOWNLOAD_INTERNAL_NAMES, or a name without a dot). The one exception is a link on the
 * credential's own loopback sandbox (a loopback host on the Base URL's port), which serves its
 * files over plain http. Node code may not resolve names (it can import no DNS module), so a
 * public-looking name whose DNS answer is a private address is not caught here: that is left to
 * the network n8n runs in.
 */
export const DOWNLOAD_MAX_REDIRECTS = 5;
/** Names (and their subdomains) that are never a public host. */
export const DOWNLOAD_INTERNAL_NAMES: readonly string[] = [
	'localhost',
	'internal',
	'local',
	'localdomain',
	'lan',
	'home.arpa',
	'metadata.google.internal',
	// Kubernetes, Consul and the suffixes private networks commonly use (never delegated publicly).
	'svc',
	'cluster.local',
	'consul',
	'corp',
	'home',
	'intranet',
	'private',
];
/**
 * Public wildcard DNS services whose names answer with the address written in them
 * (`127.0.0.1.nip.io` is 127.0.0.1): a public-looking name for any private address.
 */
export const DOWNLOAD_WILDCARD_DNS: readonly string[] = [
	'nip.io',
	'sslip.io',
	'xip.io',
	'localtest.me',
	'lvh.me',
	'vcap.me',
];
/** The largest file Download keeps in memory unless the node's option says otherwise, in MB. */
export const DOWNLOAD_DEFAULT_MAX_MB = 50;

/**
 * Create Many's batch taxes (taxes/batchTaxes.ts, rates.ts), beyond the calculator's figures above:
 * - fee rules per code: where a state treats some codes of a category otherwise (the
 *   description's TX vehicle crime fee: zeroed, untaxed), each code is assumed wholly in the tax
 *   base or out of it, and wholly in the fees' total or out of it, whatever its amount: so one
 *   estimate with each code at its own power of two dollars reads the codes taxed from each
 *   category's `fee_breakdown` figure and those counted from `total_fees`. A reply that is no
 *   such sum (a cap, a share of a fee) leaves the codes unlearned and their rows previewed;
 * - a preview's `tax_calculation` states the rates in force on the invoice's date, as an estimate
 *   does on its date: a period's last rates are read from the preview that confirms it;
 * - the rounding at a half unit is the same in every state of a rounding rule: one preview of a
 *   row on a tie per rounding rule and sign confirms every group's rows on a tie (each group's
 *   rates being confirmed by its own preview).
 */
/** The amount of the n-th code in that estimate. */
export const feeCodeProbeAmount = (n: number) => 2 ** n;

/**
 * What a document reference may not be, to go in a path as one segment meaning itself. Assumed of
 * every server and proxy on the way, since none is shown: a segment of dots is a step (`.`, `..`;
 * `..;x` on servers that cut `;` parameters; `...` on those that drop trailing dots); `/` and `\\`
 * split a path; `%` may be decoded once more on the way (`%2e%2e`, `%2F`); control characters
 * may be cut. Each is read after NFKC normalisation too, since some servers fold full-width
 * forms (`．．`, `／`) to these. The first rule broken, in words for the user; undefined when none is.
 */
export function documentSegmentProblem(value: string): string | undefined {
	const forms = [value, value.normalize('NFKC')];
	if (forms.some((form) => form.startsWith('.')))
		return 'must not start with a dot (a server may read ".", ".." or "..;x" as a step up the path)';
	if (forms.some((form) => /[/\\%]/.test(form)))
		return 'must not contain "/", "\\" or "%" (a server may read it as more than one path segment, or decode it into one)';
	const isControl = (char: string) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f;
	if (forms.some((form) => [...form].some(isControl)))
		return 'must not contain control characters (a server may cut the path there)';
	return undefined;
}

/**
 * The last guard of every path built from input: the parameter checks refuse first in the user's
 * words; this refuses what reached a path by any other way (a reply's id, a stored row).
 */
function invoiceSegment(id: string | number): string {
	const text = String(id);
	if (!/^\d+$/.test(text))
		throw new Error(
			`Invoice ID refused for the request path: must be a whole number (got "${text.slice(0, 40)}")`,
		);
	return text;
}

function documentSegment(ref: string | number): string {
	const text = String(ref);
	const problem = documentSegmentProblem(text);
	if (problem) throw new Error(`Document reference refused for the request path: ${problem}`);
	return encodeURIComponent(text);
}
