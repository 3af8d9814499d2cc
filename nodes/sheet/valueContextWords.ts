/**
 * What gives a sheet's amounts and states their meaning: the columns that name a currency or a
 * country, how a sheet writes US dollars and the United States, and the US territories the
 * service does not list. One table read by the reader (currency.ts, country.ts), by Check Sheet
 * through it, and by docs/reading-sheets.md, whose tables are generated from it (a test keeps the
 * two equal).
 */

import { headerWords } from './columnWords';

/** Header words of a column that names the currency of the row's amounts. */
export const CURRENCY_HEADER_WORDS = ['currency', 'ccy', 'curr', 'cur', 'crncy', 'curncy'];

/** Header words of a column that names a country. */
export const COUNTRY_HEADER_WORDS = ['country', 'ctry', 'cntry'];

/** Header words of an address: its country is where mail goes, not where the risk is. */
export const ADDRESS_HEADER_WORDS = ['mailing', 'mail', 'address', 'billing', 'postal'];

/** Header words that make an amount column one in US dollars ("Premium USD", "USD Premium"). */
export const USD_HEADER_WORDS = ['usd'];

/**
 * Words that tie an amount column to one of two currency columns ("Original Premium" is in the
 * "Orig Curr"; "Settlement Premium" in the "Settlement Currency"), as brokers' systems write them.
 */
export const CURRENCY_QUALIFIERS: Record<string, string[]> = {
	original: ['orig', 'original'],
	settlement: ['settlement', 'sett', 'settl', 'stl', 'settle'],
};

/** A currency as a sheet writes it: the ISO 4217 code, its names and symbols. */
export interface CurrencyForm {
	code: string;
	names: string[];
	symbols: string[];
}

/** US dollars: the only currency the service files. */
export const US_DOLLARS: CurrencyForm = {
	code: 'USD',
	names: ['US Dollar', 'US Dollars', 'United States Dollar', 'United States Dollars', 'Dollar (US)'],
	symbols: ['$', 'US$'],
};

/**
 * Other currencies a bordereau names (London market and neighbours). Any other three-letter code
 * is read as the ISO 4217 code it is; none of them is filed.
 */
export const OTHER_CURRENCIES: CurrencyForm[] = [
	{ code: 'GBP', names: ['Pound Sterling', 'Pounds Sterling', 'Sterling', 'British Pound'], symbols: ['£'] },
	{ code: 'EUR', names: ['Euro', 'Euros'], symbols: ['€'] },
	{ code: 'CAD', names: ['Canadian Dollar', 'Canadian Dollars'], symbols: ['C$', 'CA$', 'CAN$'] },
	{ code: 'AUD', names: ['Australian Dollar', 'Australian Dollars'], symbols: ['A$', 'AU$'] },
	{ code: 'NZD', names: ['New Zealand Dollar'], symbols: ['NZ$'] },
	{ code: 'JPY', names: ['Yen', 'Japanese Yen'], symbols: ['¥'] },
	{ code: 'CHF', names: ['Swiss Franc', 'Swiss Francs'], symbols: ['Fr.'] },
	{ code: 'MXN', names: ['Mexican Peso', 'Mexican Pesos'], symbols: ['MX$'] },
];

/** The United States as a sheet writes it in a country column (ISO 3166: US, USA, 840). */
export const UNITED_STATES = {
	code: 'US',
	written: ['US', 'USA', 'U.S.', 'U.S.A.', '840', 'United States', 'United States of America', 'America'],
};

/** US territories (ISO 3166 codes of their own): the service lists the 50 states and DC only. */
export const US_TERRITORIES: Array<{ code: string; alpha3: string; name: string }> = [
	{ code: 'PR', alpha3: 'PRI', name: 'Puerto Rico' },
	{ code: 'GU', alpha3: 'GUM', name: 'Guam' },
	{ code: 'VI', alpha3: 'VIR', name: 'US Virgin Islands' },
	{ code: 'AS', alpha3: 'ASM', name: 'American Samoa' },
	{ code: 'MP', alpha3: 'MNP', name: 'Northern Mariana Islands' },
	{ code: 'UM', alpha3: 'UMI', name: 'United States Minor Outlying Islands' },
];

// Every row of a sheet has the same headers: each header's words are read once (bounded).
const WORDS = new Map<string, string[]>();

/** A header's words (columnWords.ts), remembered: the readers here ask for each column of each row. */
export function wordsOfHeader(name: string): string[] {
	let words = WORDS.get(name);
	if (!words) {
		if (WORDS.size >= 1000) WORDS.clear();
		words = headerWords(name);
		WORDS.set(name, words);
	}
	return words;
}

/** Lower case letters, digits and symbols only: how written forms are compared. */
export const formKey = (text: string) => text.toLowerCase().replace(/[\s.()_-]/g, '');
