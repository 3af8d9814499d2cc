/**
 * A refusal in the sheet's words: the column as its header is written, the value as the row gave
 * it, and the rule, in a sentence that starts with a capital:
 * `Column "Risk State": "Texass" is not a US state code or name`.
 * Used for the local checks and for the service's own field refusals of a row read by Map Columns.
 */
import { readErrorInfo } from './errors';

const REQUIRED = 'This field is required';
const PATH_PART = /([^.[\]]+)|\[(\d+)\]/g;

/** The value at a field path (`insurers[0].naic`) of a body; undefined when there is none. */
export function valueAtPath(body: unknown, path: string): unknown {
	let value = body;
	for (const match of path.matchAll(PATH_PART)) {
		if (!value || typeof value !== 'object') return undefined;
		const key = match[1] ?? Number(match[2]);
		value = (value as Record<string | number, unknown>)[key];
	}
	return value;
}

/** A value as the row gave it: text in quotes, a number as it is. */
export function quoteValue(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return JSON.stringify(value) ?? String(value);
}

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * One refusal of a column: `Column "Insured Name" is empty: the insured_name field is required`,
 * or `Column "Premium": "abc": Must be a number` (the value is not repeated when the rule already
 * quotes it).
 */
export function columnRefusal(column: string, field: string, value: unknown, rule: string): string {
	const head = `Column "${column}"`;
	if (rule.startsWith(REQUIRED) && isEmpty(value))
		return `${head} is empty: the ${field} field is required${rule.slice(REQUIRED.length)}`;
	// A rule that names the column itself (two columns disagree) says its values already.
	if (rule.includes(`"${column}"`)) return `${head}: ${rule}`;
	if (isEmpty(value)) return `${head} is empty: ${rule}`;
	const quoted = quoteValue(value);
	const shown = typeof value === 'string' ? value.trim() : quoted;
	const quotes = [quoted, `"${shown}"`, `'${shown}'`];
	const said = quotes.some((q) => rule.includes(q)) || rule.startsWith(`${shown} `);
	return said ? `${head}: ${rule}` : `${head}: ${quoted}: ${rule}`;
}

const FIELD_LINE = /^([\w.[\]]+)(?: \(column "[^"]*"\))?: (.*)$/s;

/**
 * A "field: rule" line in the sheet's words when the field came from a column of the sheet;
 * other lines are kept as they are.
 */
export function inSheetWords(line: string, row: RowWords): string {
	const match = FIELD_LINE.exec(line);
	if (!match) return line;
	let [, path, rule] = match;
	// The service may name a group and the exact field in its message ("insurers: insurers[0].naic: …").
	const inner = FIELD_LINE.exec(rule);
	if (inner && inner[1].startsWith(path)) [, path, rule] = inner;
	const column = row.columnOf(path);
	return column ? columnRefusal(column, path, row.valueOf(path), rule) : line;
}

/** Where a row's field came from: its column's header and the value the row gave. */
export interface RowWords {
	columnOf: (path: string) => string | undefined;
	valueOf: (path: string) => unknown;
}

/**
 * Puts the field lines of a service's refusal into the sheet's words (the message and description
 * say them again, so those are rewritten line by line too); the error is returned for `throw`.
 */
export function serviceRefusalInSheetWords<T>(error: T, row: RowWords): T {
	const info = readErrorInfo(error);
	if (!info?.fields?.length) return error;
	const target = error as { message?: string; description?: string | null };
	const fields = info.fields.map((line) => {
		const worded = inSheetWords(line, row);
		if (worded !== line) {
			if (target.description) target.description = target.description.replace(line, worded);
			if (target.message) target.message = target.message.replace(line, worded);
		}
		return worded;
	});
	// The error's context object is what error items read; its fields are replaced in place.
	info.fields = fields;
	return error;
}
