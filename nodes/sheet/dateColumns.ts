/**
 * Map Automatically: a column of dates is read in one order for all its rows, and a column whose
 * dates all read both ways takes the order the sheet's other columns prove (dateConvention.ts).
 * A sheet that writes 19/05/2026 in a column writes the day first in every row of it, so
 * 04/05/2026 there is May 4, not April 5. A column whose rows show both orders (05/19/2026 and
 * 19/05/2026) cannot be decided and refuses each row that has a date in it, naming the column.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ColumnRule } from './columnRules';
import { type ColumnOrder, readInOrder, sheetDateOrders } from './dateConvention';

interface DayFirstRow {
	/** The row with its dates read in their order written as YYYY-MM-DD. */
	item: IDataObject;
	rules: ColumnRule[];
	problems: string[];
}

/** Each date column's order in the run (dateConvention.ts), read once per run. */
export type DateOrders = Map<string, ColumnOrder>;

/** Row `index` of the run with its date columns read in their column's, or the sheet's, order. */
export function readDateColumns(
	items: Array<{ json: IDataObject }>,
	index: number,
	orders: DateOrders = sheetDateOrders(items, 'monthFirst'),
): DayFirstRow {
	const item = { ...(items[index]?.json ?? {}) };
	const out: DayFirstRow = { item, rules: [], problems: [] };
	for (const [column, order] of orders) {
		const value = item[column];
		const read = typeof value === 'string' ? readInOrder(column, value, order) : undefined;
		if (!read) continue;
		if ('refusal' in read) {
			out.problems.push(read.refusal);
			continue;
		}
		item[column] = read.iso;
		if (read.why) out.rules.push({ field: column, column, value, rule: read.why });
	}
	return out;
}
