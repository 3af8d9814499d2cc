/**
 * Map Automatically: what became of every column of a row, said before any call. Each header
 * fills a field, agrees with the column that fills it, is settled by a stated rule, is read for
 * the tax check, or is not used with why. A column the reader does not know is listed; when its
 * header names money, tax, a fee, a premium or a date, or its value is an amount, the row is
 * refused naming it (its amount would be lost from the filing), unless the user names it in
 * Columns Not to File.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SettledColumns } from './columnRules';
import { UNKNOWN_COLUMN_WORDS, headerWords } from './columnWords';
import { BILLED_TAX_OF } from '../shared/rules';
import { isBlankValue, readAmount } from '../shared/values';

/** What became of one column of the row. */
export interface ColumnAccount {
	column: string;
	value: unknown;
	/**
	 * `field` (it fills `field`), `agrees` (same value as the column that fills it), `rule` (a
	 * stated rule used it, `why`), `tax check` (compared, never sent), `not used` (`why`), `left
	 * out` (named in Columns Not to File), `refused` (the row is refused over it, `why`), `empty`.
	 */
	use: 'field' | 'agrees' | 'rule' | 'tax check' | 'not used' | 'left out' | 'refused' | 'empty';
	field?: string;
	why?: string;
}

/** How a header was read: the column id it feeds, or the fields it could mean. */
export interface HeaderReading {
	id?: string;
	ambiguous?: string[];
}

/** Column ids compared for the tax check only. */
const CHECK_ONLY = new Set(['sheet_total_taxes', 'sheet_total_due']);

/** The field a read-only column agrees with when it is not used on its own. */
const READ_ONLY_FIELD: Record<string, string> = {
	cancellation_date: 'transaction_effective_date',
	transaction_reference: 'invoice_number',
};

/** Headers whose words say they hold an identifier or a count, not an amount. */
const IDENTIFIER_WORDS = ['code', 'id', 'number', 'year', 'zip', 'count', 'naic', 'phone', 'class'];

// Report money: "12,500.00", "$99", "(250.00)", "2,400.00 CR", "-" is a zero in such reports.
const MONEY_TEXT =
	/^\s*[-+(]?\s*(?:USD|\$)?\s*(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?\s*\)?\s*(?:CR|DR)?\s*$/i;

/** A value that reads as an amount of money (an integer counts only without an identifier header). */
function looksLikeAmount(name: string, value: unknown): boolean {
	const identifier = headerWords(name).some((w) => IDENTIFIER_WORDS.includes(w));
	if (typeof value === 'number') return Number.isFinite(value) && !identifier;
	if (typeof value !== 'string' || !/\d/.test(value) || !MONEY_TEXT.test(value)) return false;
	if (/[.,$()]|cr|dr/i.test(value)) return true;
	return !identifier && readAmount(value).ok;
}

/** The word of the header that names money, tax, a fee, a premium or a date, if any. */
function moneyOrDateWord(name: string): string | undefined {
	return headerWords(name).find((w) => UNKNOWN_COLUMN_WORDS.has(w));
}

const shown = (value: unknown) =>
	typeof value === 'string' ? value.trim() : JSON.stringify(value ?? null);

/**
 * A column the reader does not know: listed as not used, or the row refused naming it. The
 * refusal quotes the header as written and the value, and says the three ways out.
 */
/** A column of charge names: what its value reads as, or undefined for a charge not known. */
export interface ChargeColumn {
	charge?: string;
}

function unknownColumn(name: string, value: unknown, charge?: ChargeColumn): ColumnAccount {
	// A column whose values name charges makes the row one charge of a transaction: leaving the
	// column out or renaming it would file the charge as a transaction of its own.
	if (charge) {
		const reads = charge.charge ? ` ("${shown(value)}" reads as ${charge.charge})` : '';
		return {
			column: name,
			value,
			use: 'refused',
			why: `column "${name}" (${shown(value)}): its values name charges${reads}, so the sheet has one row per charge, and this row could not be gathered with the other charges of its transaction (the package does so when one column names the charge and one other column gives its amount: docs/reading-sheets.md, "Sheets that are reports"); the row is not filed. Do not leave this column out or rename it: each charge row would then be filed as a transaction of its own. Give the sheet one column of charges beside one column of amounts, or one row per transaction with a column per charge`,
		};
	}
	const zero = readAmount(value);
	if (zero.ok && zero.value === 0) {
		return {
			column: name,
			value,
			use: 'not used',
			why: 'a column the package does not read; its value is 0, so nothing is lost',
		};
	}
	const word = moneyOrDateWord(name);
	const amount = looksLikeAmount(name, value);
	if (!word && !amount) {
		return {
			column: name,
			value,
			use: 'not used',
			why: 'a column the package does not read; nothing in it is an amount or a date',
		};
	}
	const what = word
		? `its header names ${UNKNOWN_COLUMN_WORDS.get(word)} ("${word}")`
		: 'its value is an amount';
	// A date column is never called an amount (issue 53).
	const lost = word && UNKNOWN_COLUMN_WORDS.get(word) === 'a date' ? 'the date' : 'the amount';
	return {
		column: name,
		value,
		use: 'refused',
		why: `column "${name}" (${shown(value)}): the package does not read this column and ${what}, so the row is not filed (${lost} would be lost from the filing); rename the column to one the package reads (docs/reading-sheets.md), map the columns by hand (Map Each Column Manually), or name it in Columns Not to File to leave it out`,
	};
}

const FEE_ZERO = 'a 0 fee sends no fee line';

/** One known column: the field it fills, the column it agrees with, a rule, or not used. */
function knownColumn(
	name: string,
	value: unknown,
	reading: HeaderReading,
	settled: SettledColumns,
	refusedNames: Set<string>,
): ColumnAccount {
	const base = { column: name, value };
	if (refusedNames.has(name)) {
		return { ...base, use: 'refused', why: 'see the row’s reasons, which name this column' };
	}
	const ignored = settled.ignored.find((c) => c.column === name);
	if (ignored) return { ...base, use: 'not used', why: ignored.reason };
	const ruled = settled.rules.find((r) => r.column === name);
	if (ruled) return { ...base, use: 'rule', field: ruled.field, why: ruled.rule };
	const over = settled.rules.find((r) => r.over?.some((o) => o.column === name));
	if (over) {
		return {
			...base,
			use: 'not used',
			field: over.field,
			why: `${over.field} is column "${over.column}" by the rule: ${over.rule}`,
		};
	}
	const id = reading.id;
	if (!id) {
		const fields = reading.ambiguous ?? [];
		return {
			...base,
			use: 'not used',
			why: `the header could be ${fields.join(' or ')}, and other columns give ${fields.length > 1 ? 'each' : 'it'}`,
		};
	}
	const filler = settled.names[id] ?? settled.names[READ_ONLY_FIELD[id]];
	if (!filler) {
		return { ...base, use: 'not used', why: `read as ${id}, which the service does not take` };
	}
	if (filler !== name) {
		return {
			...base,
			use: 'agrees',
			field: id,
			why: `the same value as column "${filler}", which fills ${settled.names[id] ? id : READ_ONLY_FIELD[id]}`,
		};
	}
	if (CHECK_ONLY.has(id)) return { ...base, use: 'tax check', field: id };
	const fee = readAmount(value);
	const code = id.slice('fee_'.length);
	if (id.startsWith('fee_') && fee.ok && fee.value === 0 && !BILLED_TAX_OF.has(code)) {
		return { ...base, use: 'not used', field: id, why: FEE_ZERO };
	}
	return { ...base, use: 'field', field: id };
}

/** A header as compared with the names in Columns Not to File. */
export const leftOutKey = (name: string) => name.trim().toLowerCase();

/**
 * Every column of the row accounted for. Adds a refusal to `settled.problems` for each unknown
 * money or date column, and lists the unknown and left-out columns in `settled.ignored`.
 */
export function accountColumns(
	item: IDataObject,
	readings: Map<string, HeaderReading>,
	settled: SettledColumns,
	leftOut: ReadonlySet<string>,
	chargeOf: (name: string, value: unknown) => ChargeColumn | undefined = () => undefined,
): ColumnAccount[] {
	const refusedNames = new Set(
		Object.keys(item).filter((name) => settled.problems.some((p) => p.includes(`"${name}"`))),
	);
	const accounts: ColumnAccount[] = [];
	for (const [name, value] of Object.entries(item)) {
		const reading = readings.get(name);
		let account: ColumnAccount;
		const charge = isBlankValue(value) || reading?.id ? undefined : chargeOf(name, value);
		if (charge) {
			// Refused even when named in Columns Not to File: left out, each charge is a transaction.
			account = unknownColumn(name, value, charge);
			settled.problems.push(account.why!);
		} else if (leftOut.has(leftOutKey(name))) {
			account = { column: name, value, use: 'left out', why: 'named in Columns Not to File' };
		} else if (isBlankValue(value)) {
			account = {
				column: name,
				value,
				use: 'empty',
				...(reading?.id ? { field: reading.id } : {}),
			};
		} else if (!reading?.id && !reading?.ambiguous) {
			account = unknownColumn(name, value);
			if (account.use === 'refused') settled.problems.push(account.why!);
		} else {
			account = knownColumn(name, value, reading, settled, refusedNames);
		}
		// Columns the reader does not use as a field: unknown, left out, or read as neither of two.
		const unread = !reading?.id && account.use === 'not used';
		if (account.use === 'left out' || unread) {
			settled.ignored.push({ column: name, value, reason: account.why! });
		}
		accounts.push(account);
	}
	return accounts;
}
