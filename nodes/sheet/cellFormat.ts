/**
 * Map Automatically: a spreadsheet cell read by its format. Extract From File hands an XLSX cell's
 * stored value over, not what the sheet shows (n8n 2.x's sheet_to_json without RAW Data off's
 * formatting): a cell showing 15.00% arrives as 0.15, and a date cell as its day number (46142).
 * In a percent column a number under 1 is such a cell's fraction, so it is read as the percent
 * it shows; in a date column a day number is read as its date here, so every message quotes the
 * date, never the number. Each reading is said in `_columnRules`. Text (a CSV's "15%", "0.15") is
 * left to the value readers, which read it as written.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ColumnRule } from './columnRules';
import { readColumnName } from './columns';
import { readDate } from '../shared/values';

/** Fields whose columns hold dates (a date cell's day number is read as its date). */
const DATE_FIELDS = new Set([
	'effective_date',
	'expiration_date',
	'transaction_effective_date',
	'invoice_date',
	'cancellation_date',
	'booking_date',
]);

const isPercentField = (id: string) => /_percent$/.test(id);

export interface CellReading {
	item: IDataObject;
	rules: ColumnRule[];
}

/** The row with its spreadsheet cells read as their format shows them. */
export function readCellFormats(row: IDataObject): CellReading {
	const out: CellReading = { item: row, rules: [] };
	let item: IDataObject | undefined;
	for (const [column, value] of Object.entries(row)) {
		if (typeof value !== 'number' || !Number.isFinite(value)) continue;
		const id = readColumnName(column).match?.id;
		if (!id) continue;
		if (isPercentField(id) && value > 0 && value < 1) {
			const percent = Number((value * 100).toPrecision(12));
			(item ??= { ...row })[column] = `${percent}%`;
			out.rules.push({
				field: id,
				column,
				value,
				rule: `a spreadsheet's percent cell arrives as its fraction: ${value} is the cell showing ${percent}%, read as ${percent}%`,
			});
		} else if (DATE_FIELDS.has(id)) {
			const date = readDate(value);
			if (!date.ok || typeof date.value !== 'string') continue;
			(item ??= { ...row })[column] = date.value;
			out.rules.push({
				field: id,
				column,
				value,
				rule: `a spreadsheet's date cell arrives as its day number: ${value} is ${date.value}`,
			});
		}
	}
	if (item) out.item = item;
	return out;
}
