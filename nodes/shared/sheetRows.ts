/**
 * One row numbering for everything the package writes about a row: the sheet's row, where 1 is
 * the first data row (n8n's item 0), or the row number the input item itself carries (Google
 * Sheets' `row_number`). n8n's own "[item 4]" counts from 0, so every mention says both:
 * "sheet row 5 (item 4)", which cannot be read against n8n's index.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { isErrorItem } from './errors';

/** The column a spreadsheet node numbers its rows in (Google Sheets: the sheet's own row). */
const INPUT_ROW_FIELD = 'row_number';

/** The sheet row of an input item: the number the item carries, or its position from 1. */
export function sheetRow(ctx: IExecuteFunctions, itemIndex: number): number {
	const given = ctx.getInputData()[itemIndex]?.json?.[INPUT_ROW_FIELD];
	return typeof given === 'number' && Number.isInteger(given) && given > 0 ? given : itemIndex + 1;
}

/** "sheet row 5 (item 4)": the sheet's number and n8n's index, side by side. */
export function rowLabel(ctx: IExecuteFunctions, itemIndex: number): string {
	return `sheet row ${sheetRow(ctx, itemIndex)} (item ${itemIndex})`;
}

/** "sheet rows 10, 15 (items 9, 14)": every row, none left out (a list cut short hides rows). */
export function rowsLabel(ctx: IExecuteFunctions, itemIndexes: number[]): string {
	const rows = itemIndexes.map((i) => sheetRow(ctx, i)).join(', ');
	const plural = itemIndexes.length === 1 ? '' : 's';
	return `sheet row${plural} ${rows} (item${plural} ${itemIndexes.join(', ')})`;
}

/** "Sheet row 5 (item 4): …" at the head of a message, once. */
export function withRowPrefix(ctx: IExecuteFunctions, itemIndex: number, message: string): string {
	const label = rowLabel(ctx, itemIndex);
	const head = `${label[0].toUpperCase()}${label.slice(1)}: `;
	return message.startsWith(head) ? message : `${head}${message}`;
}

function policyOf(item: INodeExecutionData): unknown {
	const json = item.json;
	const inner = typeof json.error === 'object' && json.error !== null ? (json.error as IDataObject) : json;
	return inner.policy_number;
}

function pairedIndex(item: INodeExecutionData, fallback: number): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'object' && paired ? paired.item : fallback;
}

/** "sheet rows 5 (item 4, policy P-5), 9 (item 8)": every refused row, none left out. */
function listRefused(ctx: IExecuteFunctions, refused: Array<{ index: number; policy: unknown }>) {
	const shown = refused.map(({ index, policy }) => {
		const named = typeof policy === 'string' || typeof policy === 'number' ? `, policy ${policy}` : '';
		return `${sheetRow(ctx, index)} (item ${index}${named})`;
	});
	return `sheet row${refused.length === 1 ? '' : 's'} ${shown.join(', ')}`;
}

/** Said after the list of refused rows (their count and the run's). */
export type RefusedNote = (refused: number, total: number) => string;

/** The sentence over the output: "5 of 25 rows refused: sheet rows 5 (item 4, policy P-5), …". */
export function refusedRowsMessage(
	ctx: IExecuteFunctions,
	refused: Array<{ index: number; policy: unknown }>,
	total: number,
	verb = 'refused',
): string {
	return `${refused.length} of ${total} rows ${verb}: ${listRefused(ctx, refused)}.`;
}

/**
 * Says over the output, when a run left error items, how many rows were refused and which: n8n
 * shows a run with error items as a success, so this warning is where the user sees them.
 */
export function sayRefusedRows(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	note?: RefusedNote,
): void {
	const refused: Array<{ index: number; policy: unknown }> = [];
	items.forEach((item, position) => {
		if (!isErrorItem(item)) return;
		refused.push({ index: pairedIndex(item, position), policy: policyOf(item) });
	});
	if (!refused.length) return;
	refused.sort((a, b) => a.index - b.index);
	const total = ctx.getInputData().length;
	const tail = note
		? note(refused.length, total)
		: `${total - refused.length} ran. Each refused row is an error item with its reason.`;
	ctx.addExecutionHints?.({
		message: `${refusedRowsMessage(ctx, refused, total)} ${tail}`,
		type: 'warning',
		location: 'outputPane',
	});
}
