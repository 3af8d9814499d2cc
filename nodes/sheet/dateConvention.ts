/**
 * Map Automatically: the order of a sheet's slashed dates (03/04/2026) is decided over the whole
 * sheet, not column by column. A sheet that writes 30/04/2026 in one column writes the day first
 * in all of them, so a column whose dates all read both ways (a short supplementary bordereau's
 * change dates, 03/04 and 10/04) takes the order the other columns prove. Where no column proves
 * an order, or columns prove both, a date that reads both ways cannot be decided: the row is
 * refused naming the columns (node version 4), or read month first as versions 1-3 always did,
 * said on the item rather than in silence.
 */
import type { IDataObject } from 'n8n-workflow';

export const SLASHED_DATE = /^\s*(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:\s+00:00(?::00)?)?\s*$/;

/** A date of the sheet that shows its column's order: where it is and as the sheet writes it. */
export interface DateProof {
	column: string;
	/** The row as the spreadsheet shows it (header = row 1). */
	row: number;
	value: string;
}

/** What a slashed date that reads both ways becomes where no column proves the sheet's order. */
export type UnprovenDates = 'refuse' | 'monthFirst';

/** How one column's slashed dates are read. */
export type ColumnOrder =
	/** The column itself writes the day first (a day over 12). */
	| { own: 'dayFirst'; proof: DateProof }
	/** Its rows show both orders: none can be read. */
	| { own: 'both'; dayFirst: DateProof; monthFirst: DateProof }
	/** Its dates all read both ways: the sheet's order, proven by another column. */
	| { sheet: 'dayFirst' | 'monthFirst'; proof: DateProof }
	/** Its dates all read both ways and the sheet proves no order (or both orders). */
	| { unproven: UnprovenDates; dayFirst?: DateProof; monthFirst?: DateProof }
	/** The user's choice (Dates in the Sheet), for every slashed date of the sheet. */
	| { stated: DateOrder };

/** An order of a slashed date's day and month. */
export type DateOrder = 'dayFirst' | 'monthFirst';

/**
 * The row of item `index` as its sheet shows it: the item's own `row_number`, or the first data
 * row's number (2 where the header is row 1; the run's reader passes it) + index.
 */
export function sheetRowOf(items: Array<{ json: IDataObject }>, index: number, firstRow = 2): number {
	const given = items[index]?.json?.row_number;
	return typeof given === 'number' && Number.isInteger(given) && given > 0 ? given : firstRow + index;
}

/** Day and month of a slashed date, or undefined for another value. */
export function slashedParts(value: unknown): [number, number, string] | undefined {
	const parts = typeof value === 'string' ? SLASHED_DATE.exec(value) : null;
	return parts ? [Number(parts[1]), Number(parts[2]), parts[3]] : undefined;
}

/** A slashed date whose two first numbers could each be the month, and differ. */
export const readsBothWays = (value: unknown): boolean => {
	const parts = slashedParts(value);
	return !!parts && parts[0] <= 12 && parts[1] <= 12 && parts[0] !== parts[1];
};

/**
 * Each date column's order, decided from every row of every column (once per run: the run keeps
 * it, input.ts).
 */
export function sheetDateOrders(
	items: Array<{ json: IDataObject }>,
	unproven: UnprovenDates,
	firstRow = 2,
	stated?: DateOrder,
): Map<string, ColumnOrder> {
	const dayFirst = new Map<string, DateProof>();
	const monthFirst = new Map<string, DateProof>();
	const open = new Set<string>();
	items.forEach(({ json }, index) => {
		for (const [column, value] of Object.entries(json ?? {})) {
			const parts = slashedParts(value);
			if (!parts) continue;
			const proof = { column, row: sheetRowOf(items, index, firstRow), value: value as string };
			if (parts[0] > 12 && !dayFirst.has(column)) dayFirst.set(column, proof);
			if (parts[1] > 12 && !monthFirst.has(column)) monthFirst.set(column, proof);
			if (readsBothWays(value)) open.add(column);
		}
	});
	const orders = new Map<string, ColumnOrder>();
	if (stated) {
		for (const column of new Set([...dayFirst.keys(), ...monthFirst.keys(), ...open])) orders.set(column, { stated });
		return orders;
	}
	for (const [column, proof] of dayFirst) {
		const other = monthFirst.get(column);
		orders.set(
			column,
			other ? { own: 'both', dayFirst: proof, monthFirst: other } : { own: 'dayFirst', proof },
		);
	}
	const [sheetDay] = [...dayFirst.values()].filter((p) => !monthFirst.has(p.column));
	const [sheetMonth] = [...monthFirst.values()].filter((p) => !dayFirst.has(p.column));
	for (const column of open) {
		if (dayFirst.has(column) || monthFirst.has(column)) continue;
		if (sheetDay && !sheetMonth) orders.set(column, { sheet: 'dayFirst', proof: sheetDay });
		else if (sheetMonth && !sheetDay) orders.set(column, { sheet: 'monthFirst', proof: sheetMonth });
		else orders.set(column, { unproven, dayFirst: sheetDay, monthFirst: sheetMonth });
	}
	return orders;
}

const pad = (n: number) => String(n).padStart(2, '0');
const shownProof = (p: DateProof) => `column "${p.column}", row ${p.row}: "${p.value.trim()}"`;

/** The reading of one cell in its column's order: the ISO date and why, or the refusal. */
export function readInOrder(
	column: string,
	value: string,
	order: ColumnOrder,
): { iso: string; why: string } | { refusal: string } | undefined {
	const parts = slashedParts(value);
	if (!parts) return undefined;
	const [first, second, year] = parts;
	const dayFirstIso = `${year}-${pad(second)}-${pad(first)}`;
	const monthFirstIso = `${year}-${pad(first)}-${pad(second)}`;
	const cell = `${value.trim()}`;
	if ('stated' in order) {
		const how = order.stated === 'dayFirst' ? 'day first' : 'month first';
		const month = order.stated === 'dayFirst' ? second : first;
		if (month > 12) {
			return {
				refusal: `column "${column}" (${cell}): Dates in the Sheet says the sheet writes its dates ${how}, and ${cell} cannot be read ${how} (there is no month ${month}), so the row is not filed; correct the date, or set Dates in the Sheet to the order the sheet writes`,
			};
		}
		if (!readsBothWays(value)) return { iso: order.stated === 'dayFirst' ? dayFirstIso : monthFirstIso, why: '' };
		const iso = order.stated === 'dayFirst' ? dayFirstIso : monthFirstIso;
		return { iso, why: `Dates in the Sheet: ${how}, so ${cell} is ${iso}` };
	}
	if ('own' in order) {
		if (order.own === 'both') {
			return {
				refusal: `column "${column}" (${cell}): its dates are written month first in row ${order.monthFirst.row} ("${order.monthFirst.value.trim()}") and day first in row ${order.dayFirst.row} ("${order.dayFirst.value.trim()}"), so the column's order cannot be decided and the row is not filed; write the column's dates as YYYY-MM-DD (2026-05-19)`,
			};
		}
		return {
			iso: dayFirstIso,
			why: `the column writes the day first (row ${order.proof.row}: "${order.proof.value.trim()}"), so every date in it is read day first: ${cell} is ${dayFirstIso}`,
		};
	}
	if (!readsBothWays(value)) return undefined;
	if ('sheet' in order) {
		const iso = order.sheet === 'dayFirst' ? dayFirstIso : monthFirstIso;
		const how = order.sheet === 'dayFirst' ? 'day first' : 'month first';
		return {
			iso,
			why: `the sheet writes its dates ${how} (${shownProof(order.proof)}) and this column's dates read either way, so they are read ${how}: ${cell} is ${iso}`,
		};
	}
	const both = order.dayFirst && order.monthFirst;
	const seen = both
		? `the sheet's columns disagree (${shownProof(order.dayFirst!)} is day first; ${shownProof(order.monthFirst!)} is month first)`
		: 'no date in the sheet shows whether it writes the month or the day first';
	if (order.unproven === 'monthFirst') {
		return {
			iso: monthFirstIso,
			why: `${cell} reads both ways and ${seen}, so it is read month first (US), as node versions 1-3 read it: ${monthFirstIso}; where the sheet writes the day first, set Dates in the Sheet to Day First or write the dates as YYYY-MM-DD`,
		};
	}
	return {
		refusal: `column "${column}" (${cell}): the date reads both ways (${monthFirstIso} or ${dayFirstIso}) and ${seen}, so the row is not filed; write the column's dates as YYYY-MM-DD, or set Dates in the Sheet to the order the sheet writes`,
	};
}
