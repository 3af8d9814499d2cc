/**
 * The run's rows read as one sheet before any row is read as a transaction (Map Automatically).
 * Brokers' systems often export a report rather than a table: title lines above the header,
 * subtotal and total rows, the header repeated at a page break, blank rows, and one row per
 * charge (Premium, Policy Fee, SL Tax...) with its amount beside it. This reader says what each
 * row of such a sheet is, from the rows alone (no node parameter, no n8n): a transaction read as
 * it is, a transaction whose charge rows are gathered into one row, a row that is not a
 * transaction (left out and listed), a charge of another row's filing, or a row refused for the
 * sheet's shape. Rows are named in messages by the caller's `RowWords` (the node passes
 * sheetRows.ts's, so a message numbers rows as every other message does).
 */
import type { IDataObject } from 'n8n-workflow';

import { leftOutKey } from './columnAccount';
import { chargeNamed, columnForName } from './columns';
import { isBlankValue, readAmount } from '../shared/values';

/** What one row of the sheet is. */
export type RowShape =
	/** A transaction: read as it is. */
	| { as: 'row' }
	/** The first row of a transaction with one row per charge: read as `json`, its charges gathered. */
	| { as: 'filing'; json: IDataObject; charges: Charge[] }
	/** Not a transaction (a blank, subtotal, total or repeated header row): left out, listed. */
	| { as: 'left out'; what: LeftOutKind }
	/** A charge gathered into the filing of item `of`. */
	| { as: 'charge'; of: number; charge: Charge }
	/** Refused for the sheet's shape; `first` is the item where the whole reason is said. */
	| { as: 'refused'; why: string; first?: number };

export type LeftOutKind = 'blank row' | 'subtotal row' | 'total row' | 'repeated header row';

export interface Charge {
	/** Item index of the charge's row. */
	index: number;
	/** The charge as the sheet names it ("Policy Fee"). */
	name: string;
	amount: unknown;
	/** The column id the charge fills (net_premium, fee_policy_fee_company...). */
	field: string;
}

export interface SheetShape {
	rows: RowShape[];
	/** Report lines above the header: the header's line in the file, as Extract From File counts. */
	titled?: { title: string; headerItem: number; headerLine: number; workbook: boolean };
	/** One row per charge: the column naming the charge and the column of its amount. */
	charges?: { charge: string; amount: string };
	/**
	 * Columns the header words do not read whose values name charges in some rows (and differ):
	 * where the rows are not gathered, every value of theirs refuses its row, so no charge row is
	 * filed as a transaction of its own when the column is left out or another renamed.
	 */
	chargeNames?: string[];
}

/** Keys a file reader gives a header cell that is empty (csv-parse: "", SheetJS: __EMPTY_1). */
const UNNAMED_KEY = /^(__EMPTY(_\d+)?|_\d+|)$/;
const WORKBOOK_KEY = /^__EMPTY/;

/** The fields that say one transaction from another, read from the charge rows' other columns. */
const IDENTITY = new Set([
	'policy_number',
	'insured_name',
	'state_code',
	'type_code',
	'effective_date',
	'expiration_date',
	'transaction_effective_date',
	'invoice_number',
	'transaction_reference',
]);
const REQUIRED = [
	'policy_number',
	'insured_name',
	'state_code',
	'net_premium',
	'effective_date',
	'expiration_date',
];

/** A cell that says its row is a total: "Subtotal", "Sub-Total P-1", "Grand Total", "Totals". */
const TOTAL_CELL = /^\s*(sub[\s-]*total|grand\s+total|report\s+total|totals?\b)/i;
const SUBTOTAL_CELL = /^\s*sub[\s-]*total/i;
/** A total's label in the insured's column: a subtotal, or a total word with at most a colon after it. */
const INSURED_TOTAL_CELL = /^\s*(sub[\s-]*total.*|(grand\s+|report\s+)?totals?\s*(:.*)?)$/i;

const text = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

/** The field a header (or a charge's name) reads as, if any. */
const fieldOf = (name: string) => (name.trim() ? columnForName(name)?.id : undefined);

/** A charge's name reads as the premium or a fee or tax column. */
const chargeField = (value: unknown) => chargeNamed(text(value));

/**
 * Report lines above the header: Extract From File made the first title line the header, so every
 * item has only that title (and unnamed cells) as keys, and one item holds the real header.
 */
function titledSheet(items: IDataObject[]): SheetShape['titled'] {
	const named = new Set<string>();
	let workbook = false;
	for (const json of items) {
		for (const key of Object.keys(json)) {
			if (UNNAMED_KEY.test(key)) workbook ||= WORKBOOK_KEY.test(key);
			else named.add(key);
		}
	}
	if (named.size !== 1) return undefined;
	const [title] = named;
	if (fieldOf(title)) return undefined;
	const headerItem = items.findIndex((json) => {
		const fields = Object.values(json).map((v) => fieldOf(text(v)));
		return (
			REQUIRED.includes(fieldOf(text(json[title])) ?? '') ||
			fields.filter((f) => f && REQUIRED.includes(f)).length >= 2
		);
	});
	// The title line is line 1 of the file and item 0 is line 2 (Extract From File with its
	// default Starting Line, the file's lines of commas read as empty items).
	return headerItem < 0 ? undefined : { title, headerItem, headerLine: headerItem + 2, workbook };
}

/** The words said once for a titled sheet, with the fix. */
export function titledSheetReason(titled: NonNullable<SheetShape['titled']>): string {
	const head = `the sheet has report lines above its header: Extract From File read the title "${titled.title}" as the header, so no column can be read.`;
	// A workbook's empty rows are no items (SheetJS skips them), so its header's row is not known
	// for certain; a CSV's line of commas is an item, and a line with no characters is rare.
	if (titled.workbook) {
		return `${head} The header is row ${titled.headerLine} of the sheet, one more for each empty row above it (empty rows are not items): set Extract From File's Range option to that row's number minus 1 (Range counts rows from 0; e.g. 3 for a header on row 4), and run again. Nothing was filed.`;
	}
	return `${head} The header is on line ${titled.headerLine} of the file: set Extract From File's Starting Line to ${titled.headerLine} (the csv-parse Extract From File uses counts lines from 1, whatever its hint says; 0 is refused), and run again. Nothing was filed.`;
}

function leftOutKind(json: IDataObject, policyKeys: string[]): LeftOutKind | undefined {
	const entries = Object.entries(json).filter(([key]) => key !== 'row_number');
	const filled = entries.filter(([, value]) => !isBlankValue(value) && text(value) !== '');
	if (!filled.length) return 'blank row';
	const sameAsHeader = filled.filter(([key, value]) => text(value).toLowerCase() === key.trim().toLowerCase());
	if (sameAsHeader.length >= Math.max(2, filled.length / 2)) return 'repeated header row';
	// A total has no policy of its own: its policy cell is blank or says "Subtotal".
	const policy = policyKeys.map((key) => text(json[key])).find(Boolean) ?? '';
	if (policy && !TOTAL_CELL.test(policy)) return undefined;
	// An insured called "Total Logistics" is not a total: in the insured's column only a cell that
	// is a total's label and nothing else ("Subtotal…", "Total", "Grand Total:") says so.
	const total = filled.find(([key, value]) =>
		fieldOf(key) === 'insured_name' ? INSURED_TOTAL_CELL.test(text(value)) : TOTAL_CELL.test(text(value)),
	);
	if (!total) return undefined;
	return SUBTOTAL_CELL.test(text(total[1])) ? 'subtotal row' : 'total row';
}

/** The column whose values name charges, and the column of their amounts, if the sheet has them. */
function chargeColumns(items: IDataObject[], rows: RowShape[], leftOut: ReadonlySet<string>): SheetShape['charges'] {
	const counts = new Map<string, { named: number; filled: number; values: Set<string> }>();
	items.forEach((json, index) => {
		if (rows[index].as !== 'row') return;
		for (const [key, value] of Object.entries(json)) {
			if (isBlankValue(value)) continue;
			const count = counts.get(key) ?? { named: 0, filled: 0, values: new Set<string>() };
			count.filled++;
			if (chargeField(value)) {
				count.named++;
				count.values.add(text(value).toLowerCase());
			}
			counts.set(key, count);
		}
	});
	const charge = [...counts.entries()].find(
		([key, c]) => !fieldOf(key) && c.values.size >= 2 && c.named * 2 > c.filled,
	)?.[0];
	if (!charge) return undefined;
	// The amount: the one other column whose every value on a charge row is an amount and whose
	// header names money, or reads as the premium (a sheet whose Amount was renamed Premium).
	const chargeRows = items.filter((json, i) => rows[i].as === 'row' && !isBlankValue(json[charge]));
	// A column named in Columns Not to File is no amount; the charge column is read even there,
	// as leaving it out would file each charge as a transaction of its own.
	const amounts = [...counts.keys()].filter((key) => {
		if (key === charge || leftOut.has(leftOutKey(key))) return false;
		const field = fieldOf(key);
		if (field && field !== 'net_premium' && !field.startsWith('fee_')) return false;
		if (!field && !/amount|amt|charge|money|value|premium|total/i.test(key)) return false;
		return chargeRows.every((json) => isBlankValue(json[key]) || readAmount(json[key]).ok);
	});
	return amounts.length === 1 ? { charge, amount: amounts[0] } : undefined;
}

/** Columns not read as a field with two or more values, one of which names a charge. */
function chargeNameColumns(items: IDataObject[], rows: RowShape[]): string[] {
	const values = new Map<string, Set<string>>();
	const named = new Set<string>();
	items.forEach((json, index) => {
		if (rows[index].as !== 'row') return;
		for (const [key, value] of Object.entries(json)) {
			if (isBlankValue(value) || fieldOf(key)) continue;
			values.set(key, (values.get(key) ?? new Set()).add(text(value).toLowerCase()));
			if (chargeField(value)) named.add(key);
		}
	});
	return [...named].filter((key) => (values.get(key)?.size ?? 0) >= 2);
}

/** How messages name rows, given item indexes: the node's own row numbering (sheetRows.ts). */
export interface RowWords {
	/** "sheet rows 5, 6 (items 4, 5)": the rows of one transaction. */
	rows: (indexes: number[]) => string;
	/** "6": one row's number, inside a sentence that has named the rows. */
	row: (index: number) => string;
}

export interface ShapeSettings {
	/** Columns Not to File, as `leftOutKey` writes the names. */
	leftOut: ReadonlySet<string>;
	words: RowWords;
}

/** Rows by their position from 1, where no numbering is given (tests of the reader alone). */
const BY_POSITION: RowWords = {
	rows: (indexes) => `sheet rows ${indexes.map((i) => i + 1).join(', ')}`,
	row: (index) => String(index + 1),
};

/** The charge rows gathered into one row per transaction; what cannot be gathered is refused. */
function gatherCharges(
	items: IDataObject[],
	rows: RowShape[],
	columns: NonNullable<SheetShape['charges']>,
	settings: ShapeSettings,
) {
	const { charge, amount } = columns;
	const identity = Object.keys(Object.assign({}, ...items) as IDataObject).filter((key) => {
		const field = fieldOf(key);
		return key !== charge && key !== amount && field !== undefined && IDENTITY.has(field);
	});
	const groups = new Map<string, number[]>();
	items.forEach((json, index) => {
		if (rows[index].as !== 'row') return;
		// "Subtotal" or "Total Taxes" where a charge is named: a total of the policy's rows.
		const named = text(json[charge]);
		if (TOTAL_CELL.test(named)) {
			rows[index] = { as: 'left out', what: SUBTOTAL_CELL.test(named) ? 'subtotal row' : 'total row' };
			return;
		}
		if (isBlankValue(json[charge])) {
			rows[index] = {
				as: 'refused',
				why: `the sheet has one row per charge (column "${charge}" names each row's charge, column "${amount}" its amount), and this row names no charge in column "${charge}", so it cannot be placed in a filing; give it its charge, or take the row out of the sheet`,
			};
			return;
		}
		const key = JSON.stringify(identity.map((k) => text(json[k]).toLowerCase()));
		groups.set(key, [...(groups.get(key) ?? []), index]);
	});
	for (const members of groups.values()) gatherOne(items, rows, columns, identity, members, settings);
}

function gatherOne(
	items: IDataObject[],
	rows: RowShape[],
	{ charge, amount }: NonNullable<SheetShape['charges']>,
	identity: string[],
	members: number[],
	{ leftOut, words }: ShapeSettings,
) {
	const refuse = (why: string) => {
		for (const index of members) rows[index] = { as: 'refused', why, first: members[0] };
	};
	const [first] = members;
	const charges: Charge[] = members.map((index) => ({
		index,
		name: text(items[index][charge]),
		amount: items[index][amount],
		field: chargeField(items[index][charge]) ?? '',
	}));
	const who = words.rows(members);
	const unknown = charges.filter((c) => !c.field);
	if (unknown.length) {
		return refuse(
			`${who} are one transaction's charges, and the package does not know the charge ${unknown.map((c) => `"${c.name}" (row ${words.row(c.index)})`).join(', ')}: the transaction is not filed rather than filed without it; write the charge as the header words name it (docs/reading-sheets.md: "Premium", "Policy Fee", "Inspection Fee", "SL Tax", "Stamping Fee"...)`,
		);
	}
	const seen = new Map<string, Charge>();
	for (const c of charges) {
		const twice = seen.get(c.field);
		if (twice) {
			return refuse(
				`${who} have the same ${identity.map((k) => `"${k}"`).join(', ')} and give ${c.field} twice (rows ${words.row(twice.index)} "${twice.name}" and ${words.row(c.index)} "${c.name}"): they may be two transactions alike in type and dates, and the package does not guess which charge belongs to which; give each transaction its own reference (e.g. a Transaction Number or Invoice Number column) or file them by hand`,
			);
		}
		seen.set(c.field, c);
	}
	for (let n = 1; n < members.length; n++) {
		const between = rows.slice(members[n - 1] + 1, members[n]);
		if (between.some((r) => r.as === 'left out' && r.what !== 'repeated header row' && r.what !== 'blank row')) {
			return refuse(
				`${who} have the same ${identity.map((k) => `"${k}"`).join(', ')} but a total row stands between them: they may be two transactions, and the package does not guess; give each transaction its own reference (e.g. an Invoice Number column) or file them by hand`,
			);
		}
	}
	if (!seen.has('net_premium')) {
		return refuse(
			`${who} are one transaction's charges (${charges.map((c) => c.name).join(', ')}) and none is its premium: the transaction is not filed; add its Premium row (0 where it has none)`,
		);
	}
	const json: IDataObject = { ...items[first] };
	delete json[charge];
	delete json[amount];
	for (const index of members.slice(1)) {
		const other = Object.entries(items[index]).find(
			([key, value]) =>
				key !== charge &&
				key !== amount &&
				key !== 'row_number' &&
				!leftOut.has(leftOutKey(key)) &&
				!isBlankValue(value) &&
				!isBlankValue(json[key]) &&
				text(value) !== text(json[key]),
		);
		if (other) {
			return refuse(
				`${who} are one transaction's charges but differ in column "${other[0]}" (row ${words.row(first)}: ${text(json[other[0]])}, row ${words.row(index)}: ${text(other[1])}): the package does not choose between them; make the column agree on the transaction's rows`,
			);
		}
		for (const [key, value] of Object.entries(items[index])) if (isBlankValue(json[key])) json[key] = value;
		delete json[charge];
		delete json[amount];
	}
	for (const c of charges) {
		if (Object.keys(json).some((key) => key.trim().toLowerCase() === c.name.toLowerCase())) {
			return refuse(`${who}: the charge "${c.name}" is also a column of the sheet, so the package cannot tell which amount is the transaction's; take one of the two out`);
		}
		json[c.name] = c.amount as IDataObject[string];
	}
	rows[first] = { as: 'filing', json, charges };
	for (const c of charges.slice(1)) rows[c.index] = { as: 'charge', of: first, charge: c };
}

/** What every row of the run is, read from the rows alone. */
export function readSheetShape(
	items: IDataObject[],
	{ leftOut = new Set(), words = BY_POSITION }: Partial<ShapeSettings> = {},
): SheetShape {
	const titled = titledSheet(items);
	if (titled) {
		const why = titledSheetReason(titled);
		return { titled, rows: items.map(() => ({ as: 'refused', why, first: 0 })) };
	}
	const keys = Object.keys(Object.assign({}, ...items) as IDataObject);
	const policyKeys = keys.filter((key) => fieldOf(key) === 'policy_number');
	const rows: RowShape[] = items.map((json) => {
		const what = leftOutKind(json, policyKeys);
		return what ? { as: 'left out', what } : { as: 'row' };
	});
	// A sheet of one row, or whose every row is left out, is read row by row as before.
	if (!rows.some((r) => r.as === 'row')) return { rows: items.map(() => ({ as: 'row' })) };
	const charges = chargeColumns(items, rows, leftOut);
	if (charges) gatherCharges(items, rows, charges, { leftOut, words });
	const chargeNames = charges ? [] : chargeNameColumns(items, rows);
	return { rows, ...(charges ? { charges } : {}), ...(chargeNames.length ? { chargeNames } : {}) };
}
