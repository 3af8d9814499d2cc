/**
 * Map Automatically: the columns that give a row's values their meaning (its currency, its
 * country) are read before the row's columns are matched to fields, and what became of them
 * replaces the "not read" the reader would otherwise say of them.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ColumnAccount } from './columnAccount';
import type { ColumnRule, SettledColumns } from './columnRules';
import { readCountry } from './country';
import { readCurrency } from './currency';

export interface ValueContext {
	/** The row without amount columns that a US-dollar column of the same field replaces. */
	item: IDataObject;
	problems: string[];
	rules: ColumnRule[];
	accounts: ColumnAccount[];
}

/** The row's currency and country columns, read against its amounts and its state. */
export function readValueContext(item: IDataObject): ValueContext {
	const currency = readCurrency(item);
	const country = readCountry(currency.item);
	return {
		item: currency.item,
		problems: [...currency.problems, ...country.problems],
		rules: currency.rules,
		accounts: [...currency.accounts, ...country.accounts],
	};
}

/** Says on the matched row what became of those columns, and refuses it where they ask. */
export function noteValueContext(
	matched: SettledColumns & { accounts: ColumnAccount[] },
	context: ValueContext,
): void {
	matched.problems.push(...context.problems);
	matched.rules.push(...context.rules);
	const said = new Map(context.accounts.map((a) => [a.column, a]));
	const named = (column: string) => context.problems.some((p) => p.startsWith(`column "${column}"`));
	matched.accounts = matched.accounts.map((account) => {
		const own = said.get(account.column);
		if (own) {
			said.delete(account.column);
			return own;
		}
		return named(account.column) && account.use !== 'refused'
			? { ...account, use: 'refused', why: 'see the row’s reasons, which name this column' }
			: account;
	});
	// Columns left for their US-dollar twins are not in the matched row: listed here.
	matched.accounts.push(...said.values());
	const read = new Set(context.accounts.filter((a) => a.use !== 'not used').map((a) => a.column));
	matched.ignored = matched.ignored.filter((c) => !read.has(c.column));
	for (const a of context.accounts) {
		if (a.use === 'not used' && !matched.ignored.some((c) => c.column === a.column))
			matched.ignored.push({ column: a.column, value: a.value, reason: a.why! });
	}
}
