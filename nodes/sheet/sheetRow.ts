/**
 * One row of a sheet read into a request body by its column names (Map Automatically), without
 * n8n: the run's rows (as the sheet's shape gives them, sheetShape.ts) and the settings are
 * passed in, no node parameter is read here, so the reader can be tested on its own.
 */
import type { IDataObject } from 'n8n-workflow';

import { type SheetTotals, columnsToBody, matchItemColumns, requiredColumnNames } from './columns';
import { readCellFormats } from './cellFormat';
import { readDateColumns, type DateOrders } from './dateColumns';
import { readSheetHeaders } from './sheetHeaders';
import { type DateOrder, type UnprovenDates, sheetDateOrders } from './dateConvention';
import { noteValueContext, readValueContext } from './valueContext';
import type { ColumnNotes } from './warnings';

export interface SheetRowSettings {
	/** Columns Not to File, as `leftOutKey` writes the names. */
	leftOut: ReadonlySet<string>;
	/** Columns whose values name charges, in a sheet whose charge rows were not gathered. */
	chargeColumns: ReadonlySet<string>;
	/** A date that reads both ways where no column proves the sheet's order (node version 4 refuses). */
	unprovenDates?: UnprovenDates;
	/** Dates in the Sheet, where the user chose an order instead of the sheet's. */
	dateOrder?: DateOrder;
	/** The sheet's row of the run's first item (2 where the header is row 1), for messages. */
	firstRow?: number;
	/** The run's date columns' orders (dateColumns.ts), read once per run; from `items` when not given. */
	dateOrders?: DateOrders;
	/** Field id → the sheet's own header in any row of the run (sheetHeaders.ts), read once per run. */
	headers?: ReadonlyMap<string, string>;
}

export interface SheetRow {
	raw: IDataObject;
	/** Body field path → the sheet column it came from. */
	sources: Record<string, string>;
	problems: string[];
	/** Required field → the column names that would have matched, where none did. */
	names: Record<string, string[]>;
	/** The sheet's own totals, read for the tax check and never sent. */
	totals: SheetTotals;
	/** Columns not used, fields a domain rule decided, and what became of every column. */
	columns: ColumnNotes;
}

/** The names a missing field's message gives: the sheet's own header first, where a row has it. */
const withSheetHeader = (usual: string[], own: string | undefined) =>
	own ? [own, ...usual.filter((n) => n !== own)] : usual;

/** Row `index` of the run's rows, read by its column names into a body before the local checks. */
export function readSheetRow(
	items: Array<{ json: IDataObject }>,
	index: number,
	settings: SheetRowSettings,
): SheetRow {
	const orders =
		settings.dateOrders ??
		sheetDateOrders(items, settings.unprovenDates ?? 'monthFirst', settings.firstRow, settings.dateOrder);
	const dated = readDateColumns(items, index, orders);
	// A spreadsheet cell is read by its format; the row's currency and country columns say what
	// its amounts and its state are.
	const cells = readCellFormats(dated.item);
	const context = readValueContext(cells.item);
	const matched = matchItemColumns(context.item, settings.leftOut, settings.chargeColumns);
	noteValueContext(matched, context);
	matched.rules.push(...cells.rules);
	// A day-first column's rule names the field its column filled.
	for (const rule of dated.rules) {
		rule.field =
			Object.keys(matched.names).find((id) => matched.names[id] === rule.column) ?? rule.field;
	}
	matched.rules.push(...dated.rules);
	matched.problems.push(...dated.problems);
	// A refusal quotes a date as the sheet wrote it (15/04/2026), not as it was read.
	for (const rule of dated.rules) {
		const read = `"${rule.column}" (${String(dated.item[rule.column])})`;
		const written = `"${rule.column}" (${String(rule.value).trim()})`;
		matched.problems = matched.problems.map((line) => line.split(read).join(written));
	}
	const { body, sources, totals } = columnsToBody(matched.values, matched.names);
	// A required column that matched but is empty is named; one that matched nothing says
	// which names would have.
	const names: Record<string, string[]> = {};
	for (const [id, usual] of Object.entries(requiredColumnNames())) {
		if (matched.names[id]) sources[id] ??= matched.names[id];
		else names[id] = withSheetHeader(usual, (settings.headers ?? readSheetHeaders(items)).get(id));
	}
	// Every column is listed with the cell as the sheet wrote it (30/04/2026, not the date read).
	const own = items[index]?.json ?? {};
	for (const account of matched.accounts)
		if (typeof own[account.column] === 'string') account.value = own[account.column];
	const columns = { ignored: matched.ignored, rules: matched.rules, accounts: matched.accounts };
	return { raw: body, sources, problems: matched.problems, names, totals, columns };
}
