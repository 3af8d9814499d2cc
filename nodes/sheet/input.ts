/**
 * Reads the invoice request body of one item from the settings its operation read (BodySettings)
 * and checks it with the one schema of `validation.ts`.

 * Enters: the run (its input items, the sheet read whole: sheetRead.ts) and the item's body
 * settings. Leaves: the checked body, its conversions, the sheet's totals and where each field
 * came from (InvoiceInput), or an input error naming every problem; the body's warnings and
 * column notes are left in the run for the item's output (warnings.ts).
 * Four sources give the same body shape, so field paths in messages
 * (`coverages[1].limits`) are the service's own: Fields, JSON, Map Columns (n8n's resource mapper
 * over the flat columns of `shared/invoiceColumns.ts`) and the input item as it is.
 */
import type { IDataObject, ResourceMapperField, ResourceMapperValue } from 'n8n-workflow';

import { dateOnly } from '../shared/dates';
import { inputError } from '../shared/errors';
import { bodyShapeProblem, jsonTextProblem } from '../shared/inputLimits';
import { chargeColumnsOf, shapeRefusal, shapedItems } from './sheetRead';
import { readSheetRow } from './sheetRow';
import type { DateOrders } from './dateColumns';
import { type DateOrder, type UnprovenDates, sheetDateOrders } from './dateConvention';
import { readSheetHeaders } from './sheetHeaders';
import { inSheetWords, serviceRefusalInSheetWords, valueAtPath } from '../shared/refusals';
import { type SheetTotals, columnsToBody } from './columns';
import type { Run } from '../shared/run';
import { sheetRow } from '../shared/sheetRows';
import { isBlankValue } from '../shared/values';
import { type ColumnNotes, noteColumns, noteInvoiceWarnings } from './warnings';
import { FOLDED_GROUPS } from './foldedGroups';
import { type Conversion, validateInvoice } from './validation';

declare module '../shared/run' {
	interface RunLearned {
		/** The orders of the run's date columns (Map Automatically), read once from all its rows. */
		dateOrders?: DateOrders;
		/** Field id → the sheet's own header in any row of the run, read once. */
		sheetHeaders?: Map<string, string>;
	}
}

/** UI name → request field, for the six required fields and the optional ones. */
const FIELD_NAMES: Record<string, string> = {
	policyNumber: 'policy_number',
	insuredName: 'insured_name',
	stateCode: 'state_code',
	netPremium: 'net_premium',
	effectiveDate: 'effective_date',
	expirationDate: 'expiration_date',
	classCode: 'class_code',
	commission: 'commission',
	invoiceDate: 'invoice_date',
	invoiceNumber: 'invoice_number',
	lobId: 'lob_id',
	lobName: 'lob_name',
	policyLimit: 'policy_limit',
	transactionEffectiveDate: 'transaction_effective_date',
	typeCode: 'type_code',
};

export const REQUIRED_UI_FIELDS = [
	'policyNumber',
	'insuredName',
	'stateCode',
	'netPremium',
	'effectiveDate',
	'expirationDate',
];

/** Date fields use n8n's date picker (`2026-01-01T00:00:00`, or a DateTime from an expression). */
const DATE_FIELDS = new Set([
	'effectiveDate',
	'expirationDate',
	'invoiceDate',
	'transactionEffectiveDate',
]);
const fieldValue = <T>(name: string, value: T): T | string =>
	DATE_FIELDS.has(name) ? (dateOnly(value) ?? value) : value;

function rows(value: unknown, key: string): IDataObject[] {
	const list = (value as IDataObject | undefined)?.[key];
	return Array.isArray(list) ? (list as IDataObject[]) : [];
}

/**
 * The Company locator's value. Inside a fixedCollection n8n hands over the raw locator
 * (`{__rl, mode, value}`); workflows saved before it was a locator hold a plain number, where 0
 * was the untouched default. Blank gives undefined: no company_id is sent, and the local rules
 * then ask for one (or a NAIC code or company name).
 */
function companyIdValue(raw: unknown): unknown {
	const value =
		raw !== null && typeof raw === 'object' && !Array.isArray(raw)
			? (raw as IDataObject).value
			: raw;
	if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
	return isBlankValue(value) || value === 0 ? undefined : value;
}

function company(row: IDataObject): IDataObject {
	const out: IDataObject = {};
	if (row.identifyBy === 'naic') out.naic = row.naic;
	else if (row.identifyBy === 'companyName') out.company_name = row.companyName;
	else {
		// The list and "By ID" give the ID as text; the rules send it as an integer (or name the field).
		const companyId = companyIdValue(row.companyId);
		if (companyId !== undefined) out.company_id = companyId;
	}
	if (row.shareBy === 'percent') out.percent = row.percent;
	if (row.shareBy === 'amount') out.amount = row.amount;
	return out;
}

function lob(row: IDataObject): IDataObject {
	if (!isBlankValue(row.lobId)) return { lob_id: Number(row.lobId) };
	return isBlankValue(row.lobName) ? {} : { lob_name: row.lobName };
}

/**
 * The repeating groups of the Fields mode, as request arrays; empty groups are left out. From
 * version 2 the folded groups are read from `holder` (Additional Fields or Update Fields).
 */
function collections(groups: Record<string, unknown>, holder?: IDataObject): IDataObject {
	const get = (name: string) =>
		(holder && FOLDED_GROUPS.includes(name)
			? (holder[name] ?? {})
			: (groups[name] ?? {})) as IDataObject;
	const body: IDataObject = {};

	const address = get('insuredAddress').address as IDataObject | undefined;
	if (address) {
		body.insured_address = Object.fromEntries(
			Object.entries({
				line1: address.line1,
				line2: address.line2,
				city: address.city,
				zip: address.zip,
				type_id: address.typeId,
			}).filter(([, v]) => !isBlankValue(v)),
		);
	}

	const coverages = rows(get('coverages'), 'coverage').map((c) => {
		const item: IDataObject = { code: c.code, amount: c.amount };
		if (!isBlankValue(c.title)) item.title = c.title;
		const limits = rows(c.limits, 'limit').map((l) => ({ premium: l.premium }));
		if (limits.length) item.limits = limits;
		return item;
	});
	if (coverages.length) body.coverages = coverages;

	const insurers = [
		...rows(get('insurers'), 'insurer').map(company),
		...rows(get('insurerGroups'), 'group').map((g) => ({
			...lob(g),
			amount: g.amount,
			companies: rows(g.companies, 'company').map(company),
		})),
	];
	if (insurers.length) body.insurers = insurers;

	const fees = rows(get('fees'), 'fee').map((f) => ({ type: f.type, amount: f.amount }));
	if (fees.length) body.fees = fees;

	const documents = rows(get('documents'), 'document').map((d) => {
		const doc: IDataObject = { type: d.type, docUUID: d.docUUID };
		if (!isBlankValue(d.filename)) doc.filename = d.filename;
		if (!isBlankValue(d.mimeType)) doc.mime_type = d.mimeType;
		return doc;
	});
	if (documents.length) body.documents = documents;
	return body;
}

function named(values: IDataObject): IDataObject {
	const body: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (isBlankValue(value)) continue;
		body[FIELD_NAMES[name] ?? name] = name === 'lobId' ? Number(value) : fieldValue(name, value);
	}
	return body;
}

/** The repeating groups of the Fields mode (from version 2 some are folded into Additional Fields). */
export const FIELD_GROUPS = [
	'insuredAddress',
	'coverages',
	'insurers',
	'insurerGroups',
	'fees',
	'documents',
];

/** Map Columns' settings: the mapping, Columns Not to File and how the sheet's dates are read. */
export interface ColumnsSettings {
	columns: Partial<ResourceMapperValue>;
	leftOut: Set<string>;
	/** A date that reads both ways where no column proves an order: refused (version 4) or month first. */
	unprovenDates?: UnprovenDates;
	/** Dates in the Sheet, where the user chose an order. */
	dateOrder?: DateOrder;
}

/**
 * An item's body settings, as its operation read them from the node (one body source each):
 * Invoice JSON (`wholeItem`: saved as `{{ $json }}`, read as the input item), the input item as it
 * is, Map Columns, or Fields (the required fields by UI name, Additional or Update Fields, Type,
 * the node's version and the repeating groups not folded into the Additional Fields).
 */
export type BodySettings =
	| { from: 'json'; wholeItem: true }
	| { from: 'json'; wholeItem: false; value: unknown }
	| { from: 'inputItem' }
	| ({ from: 'columns' } & ColumnsSettings)
	| {
			from: 'fields';
			required: Record<string, unknown>;
			/** Additional Fields (Create) or Update Fields (Update). */
			extra: IDataObject;
			/** The top-level Type (Create). */
			typeCode?: string;
			version: number;
			groups: Record<string, unknown>;
	  };

/** The input item is the request (Input Item As Is): no expression is evaluated. */
const inputItemBody = (run: Run, i: number): unknown => run.items[i]?.json ?? {};

// `{{ $json }}`, the usual body of a Create Many fed by a sheet, is the input item itself: it is
// read as Input Item As Is reads it, instead of running n8n's expression engine once per row
// (most of the time and memory of a 10,000-row run).
const WHOLE_ITEM = /^=\s*\{\{\s*\$json\s*\}\}\s*$/;

/** Whether Invoice JSON, as saved, is the input item itself (`{{ $json }}`). */
export const isWholeItem = (saved: unknown) => typeof saved === 'string' && WHOLE_ITEM.test(saved);

function jsonBody(
	run: Run,
	settings: { wholeItem: true } | { wholeItem: false; value: unknown },
	i: number,
): unknown {
	if (settings.wholeItem) return inputItemBody(run, i);
	const raw = settings.value;
	if (typeof raw !== 'string') return raw;
	const tooLarge = jsonTextProblem(raw);
	if (tooLarge) throw inputError(run, [`Invoice JSON: ${tooLarge}`], { itemIndex: i });
	try {
		return JSON.parse(raw) as unknown;
	} catch (error) {
		throw inputError(run, [`Invoice JSON: not valid JSON (${(error as Error).message})`], {
			itemIndex: i,
		});
	}
}

/**
 * Additional Fields with the top-level Type added. Workflows saved before Type was a top-level
 * field hold it in Additional Fields, where it wins: in them the top-level field shows only its
 * default. The top-level NEW is left for the canonical body (canonical.ts) to write out, as it
 * does for every body source.
 */
function withTypeCode(additional: IDataObject, typeCode = 'NEW'): IDataObject {
	if (!isBlankValue(additional.typeCode)) return additional;
	return typeCode === 'NEW' ? additional : { ...additional, typeCode };
}

/** A body before the local checks, with where its fields came from when that helps a message. */
interface RawBody {
	raw: unknown;
	/** Body field path → the sheet column it came from (Map Columns). */
	sources?: Record<string, string>;
	problems?: string[];
	/** Map Automatically: required field → the column names that would have matched. */
	names?: Record<string, string[]>;
	/** Map Columns: the sheet's own totals, read for the tax check and never sent. */
	totals?: SheetTotals;
	/** Map Automatically: columns not used, and fields a domain rule decided. */
	columns?: ColumnNotes;
}

/**
 * Map Columns. "Map Automatically" reads the item's own columns by name (aliases included);
 * "Map Each Column Manually" gives the values by column id. The whole parameter is read, not
 * `columns.value`, so n8n's per-type check does not refuse "$1,234.50" or "03/01/2026" before
 * the shared readers can take them.
 */
function columnsBody(
	run: Run,
	{ columns, leftOut, unprovenDates = 'monthFirst', dateOrder }: ColumnsSettings,
	i: number,
): RawBody {
	if (columns.mappingMode !== 'defineBelow') {
		// The run's rows read as one sheet first: a refusal for its shape is the row's only reason.
		const refused = shapeRefusal(run, i);
		if (refused) throw inputError(run, [refused], { itemIndex: i });
		const items = shapedItems(run) ?? run.items;
		return readSheetRow(items, i, {
			leftOut,
			chargeColumns: chargeColumnsOf(run),
			dateOrders: (run.learned.dateOrders ??= sheetDateOrders(
				items,
				unprovenDates,
				sheetRow(run, 0),
				dateOrder,
			)),
			headers: (run.learned.sheetHeaders ??= readSheetHeaders(items)),
		});
	}
	const names = Object.fromEntries(
		(columns.schema ?? []).map((f: ResourceMapperField) => [f.id, f.displayName]),
	);
	const { body, sources, totals } = columnsToBody((columns.value ?? {}) as IDataObject, names);
	return { raw: body, sources, totals };
}

/** A body given whole, refused before any reader recurses into it when too deep or too large. */
function withinLimits(run: Run, i: number, body: unknown, label: string): unknown {
	const problem = bodyShapeProblem(body);
	if (problem) throw inputError(run, [`${label}: ${problem}`], { itemIndex: i });
	return body;
}

function readSource(
	run: Run,
	settings: BodySettings,
	i: number,
	mode: 'full' | 'partial',
): RawBody {
	if (settings.from === 'json')
		return { raw: withinLimits(run, i, jsonBody(run, settings, i), 'Invoice JSON') };
	if (settings.from === 'inputItem')
		return { raw: withinLimits(run, i, inputItemBody(run, i), 'Input item') };
	if (settings.from === 'columns') return columnsBody(run, settings, i);
	const extra = mode === 'full' ? withTypeCode(settings.extra, settings.typeCode) : settings.extra;
	const holder = settings.version >= 2 ? extra : undefined;
	const fields = holder
		? Object.fromEntries(Object.entries(extra).filter(([name]) => !FOLDED_GROUPS.includes(name)))
		: extra;
	const required =
		mode === 'full'
			? Object.fromEntries(
					REQUIRED_UI_FIELDS.map((name) => [
						FIELD_NAMES[name],
						fieldValue(name, settings.required[name] ?? ''),
					]),
				)
			: {};
	return { raw: { ...required, ...named(fields), ...collections(settings.groups, holder) } };
}

/** The raw request body of item `i`, before the local checks. */
export function readRawBody(
	run: Run,
	settings: BodySettings,
	i: number,
	mode: 'full' | 'partial',
): unknown {
	return readSource(run, settings, i, mode).raw;
}

const REQUIRED_LINE = /^(\w+): This field is required$/;
const LAST_PART = /(\.\w+|\[\d+\])$/;

/** The sheet column a body path came from: its own, or its nearest parent's (`fees[0]`). */
export function sourceOf(path: string, sources: Record<string, string>): string | undefined {
	for (let part = path; part; part = part.replace(LAST_PART, '')) {
		if (sources[part]) return sources[part];
		if (!LAST_PART.test(part)) return undefined;
	}
	return undefined;
}

/**
 * `state_code: rule` → `Column "Risk State": "Texass" is not …` (refusals.ts); a required field
 * no column matched says which column names would have.
 */
function withColumn(
	line: string,
	raw: unknown,
	sources: Record<string, string>,
	names: RawBody['names'],
): string {
	const missing = REQUIRED_LINE.exec(line)?.[1];
	if (missing && names?.[missing]?.length) {
		// A sheet's empty cell often reaches n8n as no column at all: the usual header is named.
		const [usual, ...others] = names[missing].map((n) => `"${n}"`);
		const also = others.length ? ` (also read as ${others.join(', ')})` : '';
		return `Column ${usual} is missing or empty: the ${missing} field is required${also}`;
	}
	return inSheetWords(line, {
		columnOf: (path) => sourceOf(path, sources),
		valueOf: (path) => valueAtPath(raw, path),
	});
}

export interface InvoiceInput {
	body: IDataObject;
	/** Values read into the service's form, said on the output item as `_converted`. */
	converted: Array<Conversion & { column?: string }>;
	/** The sheet's own totals (Map Columns), for the tax check. */
	totals: SheetTotals;
	/** Body field path → the sheet column it came from (Map Columns; empty otherwise). */
	sources: Record<string, string>;
}

/** Reads and checks the body; every problem is reported at once, before any call. */
export function readInvoiceInput(
	run: Run,
	settings: BodySettings,
	i: number,
	mode: 'full' | 'partial' = 'full',
): InvoiceInput {
	const {
		raw,
		sources = {},
		problems = [],
		names,
		totals = {},
		columns,
	} = readSource(run, settings, i, mode);
	noteColumns(run, i, columns ?? { ignored: [], rules: [] });
	const checked = validateInvoice(raw, mode);
	if (!checked.ok || problems.length) {
		const lines = [...problems, ...(checked.ok ? [] : checked.problems)];
		throw inputError(
			run,
			lines.map((line) => withColumn(line, raw, sources, names)),
			{ itemIndex: i },
		);
	}
	const converted = checked.converted.map((c) => {
		const column = sourceOf(c.field, sources);
		return column ? { ...c, column } : c;
	});
	return { body: noteInvoiceWarnings(run, i, checked.body, mode), converted, totals, sources };
}

/**
 * A refusal met after the local checks (the account's look-ups, the service's own checks) in the
 * sheet's words, for a row read by Map Columns: the column's header and the value the row gave.
 */
export function refusalInSheetWords<T>(error: T, input: InvoiceInput): T {
	if (!Object.keys(input.sources).length) return error;
	return serviceRefusalInSheetWords(error, {
		columnOf: (path) => sourceOf(path, input.sources),
		valueOf: (path) =>
			input.converted.find((c) => c.field === path)?.from ?? valueAtPath(input.body, path),
	});
}

/** Says on an output item which values were read into another form (nothing when none were). */
export function noteConversions(
	json: IDataObject,
	converted: InvoiceInput['converted'],
): IDataObject {
	if (converted.length) json._converted = converted as unknown as IDataObject[];
	return json;
}
