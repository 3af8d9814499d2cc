/**
 * One row of a sheet read into a request body by its column names (Map Automatically), without
 * n8n: the run's rows (as the sheet's shape gives them, sheetShape.ts) and the settings are
 * passed in, no node parameter is read here, so the reader can be tested on its own.
 */
import type { IDataObject } from 'n8n-workflow';

import { type SheetTotals, columnsToBody, matchItemColumns, requiredColumnNames } from './columns';
import { readDateColumns, type DateForms } from './dateColumns';
import type { ColumnNotes } from './warnings';

export interface SheetRowSettings {
	/** Columns Not to File, as `leftOutKey` writes the names. */
	leftOut: ReadonlySet<string>;
	/** Columns whose values name charges, in a sheet whose charge rows were not gathered. */
	chargeColumns: ReadonlySet<string>;
	/** The run's date columns' forms (dateColumns.ts), read once per run; read from `items` when not given. */
	dateForms?: DateForms;
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

/** Row `index` of the run's rows, read by its column names into a body before the local checks. */
export function readSheetRow(
	items: Array<{ json: IDataObject }>,
	index: number,
	settings: SheetRowSettings,
): SheetRow {
	const dated = readDateColumns(items, index, settings.dateForms);
	const matched = matchItemColumns(dated.item, settings.leftOut, settings.chargeColumns);
	// A day-first column's rule names the field its column filled.
	for (const rule of dated.rules) {
		rule.field =
			Object.keys(matched.names).find((id) => matched.names[id] === rule.column) ?? rule.field;
	}
	matched.rules.push(...dated.rules);
	matched.problems.push(...dated.problems);
	const { body, sources, totals } = columnsToBody(matched.values, matched.names);
	// A required column that matched but is empty is named; one that matched nothing says
	// which names would have.
	const names: Record<string, string[]> = {};
	for (const [id, usual] of Object.entries(requiredColumnNames())) {
		if (matched.names[id]) sources[id] ??= matched.names[id];
		else names[id] = usual;
	}
	const columns = { ignored: matched.ignored, rules: matched.rules, accounts: matched.accounts };
	return { raw: body, sources, problems: matched.problems, names, totals, columns };
}
