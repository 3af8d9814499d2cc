/**
 * The table of what gives a value its meaning (valueContextWords.ts) is the one docs/reading-sheets.md
 * shows: the section between its markers is generated from it, and this test keeps the two equal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	ADDRESS_HEADER_WORDS,
	COUNTRY_HEADER_WORDS,
	CURRENCY_HEADER_WORDS,
	CURRENCY_QUALIFIERS,
	OTHER_CURRENCIES,
	UNITED_STATES,
	US_DOLLARS,
	USD_HEADER_WORDS,
	US_TERRITORIES,
} from '../../../nodes/sheet/valueContextWords';

const DOC = join(__dirname, '../../../docs/reading-sheets.md');
const START = '<!-- value-context: generated from valueContextWords.ts -->';
const END = '<!-- value-context: end -->';

const code = (words: string[]) => words.map((w) => `\`${w}\``).join(', ');

/** The docs' table, as the code's table gives it. */
export function valueContextTable(): string {
	const forms = (f: { code: string; names: string[]; symbols: string[] }) => `${f.code} (${code([...f.names, ...f.symbols])})`;
	const rows = [
		['a currency', code(CURRENCY_HEADER_WORDS), `${forms(US_DOLLARS)}: filed. Any other currency refuses the row: ${OTHER_CURRENCIES.map(forms).join(', ')}, or any other three-letter ISO 4217 code`],
		['an amount in US dollars', code(USD_HEADER_WORDS), 'filed where the row’s currency is another (`Premium USD`, `USD Premium`, `Premium (US$)`)'],
		...Object.entries(CURRENCY_QUALIFIERS).map(([word, spellings]) => [`the ${word} currency`, code(spellings), `ties an amount column to the currency column with the same word`]),
		['a country', code(COUNTRY_HEADER_WORDS), `the United States (${code(UNITED_STATES.written)}): the state column is a US state. A US territory refuses the row: ${US_TERRITORIES.map((t) => `${t.name} (${code([t.code, t.alpha3])})`).join(', ')}; so does any other country`],
		['an address’s country', code(ADDRESS_HEADER_WORDS), 'listed as not used: where mail goes, not where the risk is'],
	];
	return ['| Column names | Header words | Read as |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

it('docs/reading-sheets.md shows the table of currencies and countries the code reads', () => {
	const doc = readFileSync(DOC, 'utf8');
	expect(doc.indexOf(START)).toBeGreaterThan(0);
	const section = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
	expect(section).toBe(valueContextTable());
});
