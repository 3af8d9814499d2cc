/**
 * Sanity warnings on an invoice body: things the service accepts (so they are sent) that are
 * most often a typo in a sheet. They go on the output item (`_warnings`) and on Preview's output,
 * so they are seen before the state sees them. Never a refusal: the service decides.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ColumnAccount } from './columnAccount';
import type { ColumnRule, IgnoredColumn } from './columnRules';
import type { Run } from '../shared/run';

/** Larger than any real premium or fee; 1e308 and friends are typos, not amounts. */
const ABSURD_AMOUNT = 1e12;

const POSITIVE_TYPES = new Set(['NEW', 'RENEWAL']);

function list(value: unknown): IDataObject[] {
	return Array.isArray(value)
		? (value.filter((v) => v && typeof v === 'object') as IDataObject[])
		: [];
}

function amount(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
		return Number(value);
	return undefined;
}

/** Every amount of the body with its field path, in the service's naming. */
function amounts(body: IDataObject): Array<[string, unknown]> {
	const found: Array<[string, unknown]> = [
		['net_premium', body.net_premium],
		['policy_limit', body.policy_limit],
		['commission', body.commission],
	];
	list(body.fees).forEach((f, n) => found.push([`fees[${n}].amount`, f.amount]));
	list(body.coverages).forEach((c, n) => {
		found.push([`coverages[${n}].amount`, c.amount]);
		list(c.limits).forEach((l, m) =>
			found.push([`coverages[${n}].limits[${m}].premium`, l.premium]),
		);
	});
	list(body.insurers).forEach((i, n) => {
		found.push([`insurers[${n}].amount`, i.amount]);
		list(i.companies).forEach((c, m) =>
			found.push([`insurers[${n}].companies[${m}].amount`, c.amount]),
		);
	});
	return found.filter(([, value]) => value !== undefined && value !== null && value !== '');
}

/** Percent shares that do not add up to 100 (within a hundredth), per list of companies. */
function percentProblems(path: string, companies: IDataObject[]): string[] {
	const percents = companies.map((c) => amount(c.percent)).filter((p) => p !== undefined);
	if (!percents.length) return [];
	const sum = percents.reduce((a, b) => a + b, 0);
	if (Math.abs(sum - 100) <= 0.01) return [];
	return [
		`${path}: the percent shares add up to ${Math.round(sum * 100) / 100}, not 100; check each insurer's percent`,
	];
}

/**
 * The warnings for one invoice body (a full body, or the fields an Update sends). The type is
 * NEW when a full body leaves it out (the service's default); an Update without a type is not
 * judged on the sign of its premium.
 */
export function invoiceWarnings(body: IDataObject, mode: 'full' | 'partial' = 'full'): string[] {
	const warnings: string[] = [];
	const type = String(body.type_code ?? (mode === 'full' ? 'NEW' : '')).toUpperCase();
	const premium = amount(body.net_premium);
	if (premium !== undefined && premium < 0 && POSITIVE_TYPES.has(type)) {
		warnings.push(
			`net_premium: ${premium} is negative on a ${type} transaction; a new or renewal transaction normally has a positive premium (returned premium is filed as an ENDORSEMENT or CANCELLATION)`,
		);
	}
	// A plain Cancellation gives no direction: a positive premium is filed as written, and said.
	if (premium !== undefined && premium > 0 && type === 'CANCELLATION') {
		warnings.push(
			`net_premium: ${premium} is positive on a CANCELLATION; a cancellation normally returns premium (negative). It is filed as written: write it negative, or use FC / PC, if premium is returned`,
		);
	}
	const effective = typeof body.effective_date === 'string' ? body.effective_date : undefined;
	const expiration = typeof body.expiration_date === 'string' ? body.expiration_date : undefined;
	if (effective && expiration && expiration.slice(0, 10) < effective.slice(0, 10)) {
		warnings.push(
			`expiration_date: ${expiration} is before the effective date ${effective}; check the policy term`,
		);
	}
	const insurers = list(body.insurers);
	const plain = insurers.filter((i) => !Array.isArray(i.companies));
	warnings.push(...percentProblems('insurers', plain));
	insurers.forEach((group, n) => {
		if (Array.isArray(group.companies))
			warnings.push(...percentProblems(`insurers[${n}].companies`, list(group.companies)));
	});
	for (const [path, value] of amounts(body)) {
		const number = amount(value);
		// A sheet's computed cell (1000.125) is sent as written, and said: nothing rounded in silence.
		if (number !== undefined && Math.abs(number * 100 - Math.round(number * 100)) > 1e-6) {
			warnings.push(
				`${path}: ${number} has a fraction of a cent and is sent as written; round it to the cent in the sheet if that is not meant`,
			);
		}
		if (number !== undefined && Math.abs(number) > ABSURD_AMOUNT) {
			warnings.push(
				`${path}: ${number} is larger than any real amount (over ${ABSURD_AMOUNT.toExponential()}); check for a typo`,
			);
		}
	}
	return warnings;
}

// Warnings found where an item's body is read, kept in the run (run.ts) until the item's output is
// built (filing/rows.ts puts them on the item), so nothing outlives the run.

declare module '../shared/run' {
	interface RunLearned {
		/** What Map Automatically decided about each item's columns, until its output item is built. */
		columnNotes?: Map<number, ColumnNotes>;
	}
}

/** What the notes need of a run: its learned values. */
type Noted = Pick<Run, 'learned'>;

const warningsOf = (run: Noted) => (run.learned.warnings ??= new Map());

/** Records the warnings of item `itemIndex`'s body; returns the body unchanged. */
export function noteInvoiceWarnings(
	run: Noted,
	itemIndex: number,
	body: IDataObject,
	mode: 'full' | 'partial' = 'full',
): IDataObject {
	const warnings = invoiceWarnings(body, mode);
	const byItem = warningsOf(run);
	if (warnings.length) byItem.set(itemIndex, warnings);
	else byItem.delete(itemIndex);
	return body;
}

/** Adds warnings found after the body was read (the tax check) to item `itemIndex`'s. */
export function addInvoiceWarnings(run: Noted, itemIndex: number, warnings: string[]): void {
	if (!warnings.length) return;
	const byItem = warningsOf(run);
	byItem.set(itemIndex, [...(byItem.get(itemIndex) ?? []), ...warnings]);
}

/** The warnings noted for item `itemIndex` (and forgets them). */
export function takeInvoiceWarnings(run: Noted, itemIndex: number): string[] {
	const byItem = run.learned.warnings;
	const warnings = byItem?.get(itemIndex) ?? [];
	byItem?.delete(itemIndex);
	return warnings;
}

/** Adds one warning to those noted for item `itemIndex` (found after its body was read). */
export function addInvoiceWarning(run: Noted, itemIndex: number, warning: string): void {
	const byItem = warningsOf(run);
	byItem.set(itemIndex, [...(byItem.get(itemIndex) ?? []), warning]);
}

/** What Map Automatically decided about a row's columns, said on its output item. */
export interface ColumnNotes {
	/** Columns whose words name something known that were not used, with why. */
	ignored: IgnoredColumn[];
	/** Fields a domain rule decided between columns, or took from a column not their own. */
	rules: ColumnRule[];
	/** What became of every column of the row (Check Sheet shows it). */
	accounts?: ColumnAccount[];
}

/** Records what was decided about item `itemIndex`'s columns (nothing when nothing was). */
export function noteColumns(run: Noted, itemIndex: number, notes: ColumnNotes): void {
	const byItem = (run.learned.columnNotes ??= new Map());
	if (notes.ignored.length || notes.rules.length || notes.accounts?.length)
		byItem.set(itemIndex, notes);
	else byItem.delete(itemIndex);
}

/**
 * The fields to add to item `itemIndex`'s output for its columns (and forgets them); with
 * `everyColumn`, also `sheetColumns`, what became of each column (Check Sheet).
 */
export function takeColumnNotes(run: Noted, itemIndex: number, everyColumn = false): IDataObject {
	const byItem = run.learned.columnNotes;
	const notes = byItem?.get(itemIndex);
	byItem?.delete(itemIndex);
	const json: IDataObject = {};
	if (notes?.rules.length) json._columnRules = notes.rules as unknown as IDataObject[];
	if (notes?.ignored.length) json._ignoredColumns = notes.ignored as unknown as IDataObject[];
	if (everyColumn && notes?.accounts?.length)
		json.sheetColumns = notes.accounts as unknown as IDataObject[];
	return json;
}
