/**
 * Map Automatically: a row's amounts are read with their currency. A column that names a currency
 * ("Currency", "Orig Curr", "Settlement Currency") says what the row's amounts are in. US dollars
 * are filed; any other currency refuses the row naming the column and its value, before any call,
 * unless the sheet gives each amount in US dollars in a column of its own ("Premium USD"): those
 * are filed and the item says so. Nothing is converted: the package does not know the rate.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ColumnAccount } from './columnAccount';
import type { ColumnRule } from './columnRules';
import { readColumnName } from './columns';
import { isBlankValue, readAmount } from '../shared/values';
import {
	CURRENCY_HEADER_WORDS,
	CURRENCY_QUALIFIERS,
	OTHER_CURRENCIES,
	US_DOLLARS,
	USD_HEADER_WORDS,
	formKey,
	wordsOfHeader,
} from './valueContextWords';

const shown = (value: unknown) => (typeof value === 'string' ? value.trim() : JSON.stringify(value ?? null));

/** The ISO 4217 code a cell names, or undefined for text that names no currency. */
export function currencyOf(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const key = formKey(value);
	for (const form of [US_DOLLARS, ...OTHER_CURRENCIES]) {
		const forms = [form.code, ...form.names, ...form.symbols].map(formKey);
		if (forms.includes(key)) return form.code;
	}
	return /^[A-Za-z]{3}$/.test(value.trim()) ? value.trim().toUpperCase() : undefined;
}

/** Fields whose values are money: filed in the row's currency. */
const isAmountField = (id: string) =>
	/^(net_premium|commission|policy_limit|sheet_total_taxes|sheet_total_due)$|^fee_|_amount$|_limit/.test(id);

const qualifierOf = (words: string[]) =>
	Object.keys(CURRENCY_QUALIFIERS).find((q) => words.some((w) => CURRENCY_QUALIFIERS[q].includes(w)));

interface CurrencyColumn {
	column: string;
	value: unknown;
	/** The ISO code, or undefined when the cell names no currency the package reads. */
	code?: string;
	qualifier?: string;
}

/** The row's columns that name a currency (a currency header whose value is not an amount). */
function currencyColumns(item: IDataObject): CurrencyColumn[] {
	const found: CurrencyColumn[] = [];
	for (const [column, value] of Object.entries(item)) {
		const words = wordsOfHeader(column);
		if (!words.some((w) => CURRENCY_HEADER_WORDS.includes(w)) || isBlankValue(value)) continue;
		const amount = readAmount(value);
		if (amount.ok && amount.value !== undefined) continue;
		found.push({ column, value, code: currencyOf(value), qualifier: qualifierOf(words) });
	}
	return found;
}

export interface CurrencyReading {
	/** The row without the amount columns a US-dollar column of the same field replaces. */
	item: IDataObject;
	problems: string[];
	rules: ColumnRule[];
	/** What became of the currency columns and the columns left for their US-dollar twins. */
	accounts: ColumnAccount[];
}

/** The row's amounts read with the currency its columns name. */
export function readCurrency(row: IDataObject): CurrencyReading {
	const currencies = currencyColumns(row);
	const out: CurrencyReading = { item: row, problems: [], rules: [], accounts: [] };
	if (!currencies.length) return out;
	const names = currencies.map((c) => `"${c.column}" (${shown(c.value)})`).join(', ');
	if (currencies.every((c) => c.code === 'USD')) {
		for (const c of currencies) {
			out.accounts.push({
				column: c.column,
				value: c.value,
				use: 'rule',
				field: 'currency',
				why: 'the currency of the row’s amounts: US dollars, which the service files',
			});
		}
		return out;
	}
	/** The currency an amount column is in: US dollars by its header, or a currency column's. */
	const theirCurrency = (column: string): { usd: boolean; from?: CurrencyColumn } => {
		const words = wordsOfHeader(column);
		if (words.some((w) => USD_HEADER_WORDS.includes(w)) || /US\$|\(\$\)/.test(column)) return { usd: true };
		const qualifier = qualifierOf(words);
		const tied = qualifier ? currencies.find((c) => c.qualifier === qualifier) : undefined;
		const codes = new Set(currencies.map((c) => c.code));
		const from = tied ?? (codes.size === 1 ? currencies[0] : undefined);
		return { usd: from?.code === 'USD', from };
	};
	// Amount columns by field, each with the currency it is in.
	type Amount = { column: string; value: unknown; usd: boolean; from?: CurrencyColumn };
	const byField = new Map<string, Amount[]>();
	for (const [column, value] of Object.entries(row)) {
		if (isBlankValue(value) || currencies.some((c) => c.column === column)) continue;
		const id = readColumnName(column).match?.id;
		if (!id || !isAmountField(id)) continue;
		byField.set(id, [...(byField.get(id) ?? []), { column, value, ...theirCurrency(column) }]);
	}
	const item = { ...row };
	for (const [field, columns] of byField) {
		const usd = columns.find((c) => c.usd);
		for (const c of columns.filter((x) => !x.usd)) {
			const where = c.from ? `"${c.from.column}" (${shown(c.from.value)})` : names;
			if (usd) {
				delete item[c.column];
				out.accounts.push({
					column: c.column,
					value: c.value,
					use: 'not used',
					field,
					why: `in the currency of column ${where}; column "${usd.column}" gives the amount in US dollars, which is filed`,
				});
				out.rules.push({
					field,
					column: usd.column,
					value: usd.value,
					over: [{ column: c.column, value: c.value }],
					rule: `the row's amounts are in the currency of column ${where}; the service files US dollars, so column "${usd.column}" is filed`,
				});
				continue;
			}
			const what = c.from?.code
				? `in ${c.from.code} (column ${where})`
				: `in the currency of column ${where}, which the package cannot tell is US dollars`;
			out.problems.push(
				`column "${c.column}" (${shown(c.value)}): the amount is ${what}, and the service files US dollars only, so the row is not filed (nothing is converted); give the amount in US dollars in a column of its own (for example "${c.column} USD"), or convert the row's amounts to US dollars and write USD in ${currencies.map((x) => `"${x.column}"`).join(' and ')}`,
			);
		}
	}
	// A currency column no amount column is read in: the row's amounts are in it.
	if (!byField.size) {
		const other = currencies.filter((c) => c.code !== 'USD');
		out.problems.push(
			`column "${other[0].column}" (${shown(other[0].value)}): the row names a currency other than US dollars and the service files US dollars only, so the row is not filed; convert the row's amounts to US dollars and write USD in the column`,
		);
	}
	const refused = out.problems.length > 0;
	for (const c of currencies) {
		const why =
			c.code === 'USD'
				? 'the currency of the row’s amounts: US dollars, which the service files'
				: !c.code
					? `"${shown(c.value)}" names no currency the package reads (ISO 4217 codes such as USD, names, symbols)`
					: `the currency of amounts in the row: ${c.code}, which the service does not file; ${refused ? 'see the row’s reasons' : 'the amounts in US dollars, in their own columns, are filed'}`;
		out.accounts.push({ column: c.column, value: c.value, use: refused && c.code !== 'USD' ? 'refused' : 'rule', field: 'currency', why });
	}
	out.item = item;
	return out;
}
