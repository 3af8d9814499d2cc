/**
 * One row numbering for everything the package writes about a row: the row as the user's
 * spreadsheet shows it, where the header is row 1 and the first data row (n8n's item 0) is row 2,
 * or the row number the input item itself carries (Google Sheets' `row_number`, numbered the same
 * way). n8n's own "[item 4]" counts from 0, so every mention says both: "row 6 (item 4)".
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isErrorItem } from './errors';
import type { Run } from './run';

/** What numbering a row needs of the run: its input items, the nodes before it, a place to say. */
export type Rows = Pick<Run, 'items' | 'parents' | 'say'>;

/** The column a spreadsheet node numbers its rows in (Google Sheets: the sheet's own row). */
const INPUT_ROW_FIELD = 'row_number';

/** The row of the header line: the first data row is the next one. */
const HEADER_ROW = 1;

/**
 * Nodes that make one item per row of a sheet whose first line is its header: behind one of them,
 * item 0 is the file's line 2. Behind none (JSON from an API, a Code node), the same numbering is
 * used and the run says so once (`numberingNote`).
 */
const SHEET_READERS = new Set([
	'n8n-nodes-base.extractFromFile',
	'n8n-nodes-base.spreadsheetFile',
	'n8n-nodes-base.googleSheets',
	'n8n-nodes-base.microsoftExcel',
]);

function carriedRow(run: Rows, itemIndex: number): number | undefined {
	const given = run.items[itemIndex]?.json?.[INPUT_ROW_FIELD];
	return typeof given === 'number' && Number.isInteger(given) && given > 0 ? given : undefined;
}

const EXTRACT_FROM_FILE = 'n8n-nodes-base.extractFromFile';

/**
 * The file's line the header is on: Extract From File's Starting Line (a CSV read from line N has
 * its header there) when that node reads the rows, else 1. Empty lines, which Extract From File
 * skips, cannot be counted from the items.
 */
function headerLine(run: Rows): number {
	// The run asks n8n for the nodes before it once (run.ts); this only reads what it kept.
	const parent = run.parents().find((node) => node.type === EXTRACT_FROM_FILE);
	const options = parent?.parameters?.options as IDataObject | undefined;
	const from = Number(options?.fromLine);
	return parent?.parameters?.operation === 'csv' && Number.isInteger(from) && from > 1 ? from : HEADER_ROW;
}

/**
 * The row of an input item as its sheet shows it: the number the item carries, or the header's
 * line + 1 + index (the file's own line numbers when a Starting Line was set).
 */
export function sheetRow(run: Rows, itemIndex: number): number {
	return carriedRow(run, itemIndex) ?? headerLine(run) + 1 + itemIndex;
}

/**
 * Said once in a run's summary when the items neither carry their row nor come from a sheet
 * reader: how "row N" was counted. Empty when the rows are the file's own lines.
 */
export function numberingNote(run: Rows): string {
	const items = run.items;
	if (items.length && items.every((_, index) => carriedRow(run, index) !== undefined)) return '';
	const parents = run.parents();
	if (parents.some((parent) => SHEET_READERS.has(parent.type))) return '';
	return ' Rows are counted as a sheet with a header row shows them: the first item is row 2.';
}

/** "row 6 (item 4)": the sheet's number and n8n's index, side by side. */
export function rowLabel(run: Rows, itemIndex: number): string {
	return `row ${sheetRow(run, itemIndex)} (item ${itemIndex})`;
}

/** "rows 11, 16 (items 9, 14)": every row, none left out (a list cut short hides rows). */
export function rowsLabel(run: Rows, itemIndexes: number[]): string {
	const rows = itemIndexes.map((i) => sheetRow(run, i)).join(', ');
	const plural = itemIndexes.length === 1 ? '' : 's';
	return `row${plural} ${rows} (item${plural} ${itemIndexes.join(', ')})`;
}

/** "Row 6 (item 4): …" at the head of a message, once. */
export function withRowPrefix(run: Rows, itemIndex: number, message: string): string {
	const label = rowLabel(run, itemIndex);
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

/** "rows 6 (item 4, policy P-5), 10 (item 8)": every refused row, none left out. */
function listRefused(run: Rows, refused: Array<{ index: number; policy: unknown }>) {
	const shown = refused.map(({ index, policy }) => {
		const named = typeof policy === 'string' || typeof policy === 'number' ? `, policy ${policy}` : '';
		return `${sheetRow(run, index)} (item ${index}${named})`;
	});
	return `row${refused.length === 1 ? '' : 's'} ${shown.join(', ')}`;
}

/** Said after the list of refused rows (their count and the run's). */
export type RefusedNote = (refused: number, total: number) => string;

/** The sentence over the output: "5 of 25 rows refused: rows 6 (item 4, policy P-5), …". */
export function refusedRowsMessage(
	run: Rows,
	refused: Array<{ index: number; policy: unknown }>,
	total: number,
	verb = 'refused',
): string {
	return `${refused.length} of ${total} rows ${verb}: ${listRefused(run, refused)}.${numberingNote(run)}`;
}

/**
 * Says over the output, when a run left error items, how many rows were refused and which: n8n
 * shows a run with error items as a success, so this warning is where the user sees them.
 */
export function sayRefusedRows(
	run: Rows,
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
	const total = run.items.length;
	const tail = note
		? note(refused.length, total)
		: 'Each refused row is an error item with its reason.';
	run.say({
		message: `${refusedRowsMessage(run, refused, total)} ${tail}`,
		type: 'warning',
		location: 'outputPane',
	});
}
