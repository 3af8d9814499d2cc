/**
 * Map Automatically: a row's state is read with its country. A country column (ISO 3166 codes or
 * names: "Risk Country", "Insured Country", "Country Code") that says anything but the United
 * States refuses the row naming it and the state column: WA beside AU is Western Australia, not
 * Washington, and the service files US states only. A US territory (Puerto Rico, Guam…) is refused
 * the same way: the service lists the 50 states and DC. An address's country (Mailing Country) is
 * where mail goes and is listed as not used, as the mailing state is.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ColumnAccount } from './columnAccount';
import { readColumnName } from './columns';
import { isBlankValue } from '../shared/values';
import {
	ADDRESS_HEADER_WORDS,
	COUNTRY_HEADER_WORDS,
	UNITED_STATES,
	US_TERRITORIES,
	formKey,
	wordsOfHeader,
} from './valueContextWords';

const shown = (value: unknown) => (typeof value === 'string' ? value.trim() : JSON.stringify(value ?? null));

/** What a country cell says: the United States, a US territory (its name), or another country. */
export function countryOf(value: unknown): { us: true } | { territory: string } | { other: true } {
	const key = formKey(String(value));
	if (UNITED_STATES.written.map(formKey).includes(key)) return { us: true };
	const territory = US_TERRITORIES.find((t) => [t.code, t.alpha3, t.name].map(formKey).includes(key));
	return territory ? { territory: territory.name } : { other: true };
}

export interface CountryReading {
	problems: string[];
	/** What became of each country column. */
	accounts: ColumnAccount[];
}

/** The row's country columns read against its state column. */
export function readCountry(item: IDataObject): CountryReading {
	const out: CountryReading = { problems: [], accounts: [] };
	const stateColumn = Object.keys(item).find(
		(column) => readColumnName(column).match?.id === 'state_code' && !isBlankValue(item[column]),
	);
	const state = stateColumn ? `column "${stateColumn}" (${shown(item[stateColumn])})` : undefined;
	for (const [column, value] of Object.entries(item)) {
		const words = wordsOfHeader(column);
		if (!words.some((w) => COUNTRY_HEADER_WORDS.includes(w)) || isBlankValue(value)) continue;
		const base = { column, value, field: 'country' };
		if (words.some((w) => ADDRESS_HEADER_WORDS.includes(w))) {
			out.accounts.push({ ...base, use: 'not used', why: 'an address’s country: where the insured gets mail, not where the risk is taxed' });
			continue;
		}
		const country = countryOf(value);
		if ('us' in country) {
			out.accounts.push({
				...base,
				use: 'rule',
				why: `the United States: ${state ?? 'the state column'} is read as a US state`,
			});
			continue;
		}
		const what =
			'territory' in country
				? `${country.territory}, a US territory the service does not list (it files the 50 states and DC)`
				: 'a country other than the United States, and the service files US states only';
		const stateSays = state ? `; ${state} is not read as a US state` : '';
		out.problems.push(
			`column "${column}" (${shown(value)}): ${what}${stateSays}, so the row is not filed. A risk outside the US states is not filed with this service; where the country column is wrong, write US in it`,
		);
		out.accounts.push({ ...base, use: 'refused', why: 'see the row’s reasons, which name this column' });
	}
	return out;
}
