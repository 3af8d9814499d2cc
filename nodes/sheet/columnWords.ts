/**
 * A sheet's column header as the words it is made of, for Map Automatically: "Risk Inception
 * Date", "InsuredNAICCode", "Tx Eff Dt" and "SL Tax Amt" are read by their words, the way a
 * person reads them, instead of by a fixed list of whole names. Abbreviations bordereaux use
 * become their words (Eff → effective, Prem → premium, Insd → insured, Dt → date...), camelCase
 * and snake_case are split, and a few rules say which words make which field. A header whose
 * words fit two fields ("Effective/Expiry Date") is reported as such and never guessed.
 */

/** What a word names in a header the reader does not know (such a column refuses the row). */
export type WordNames = 'a premium' | 'a tax' | 'a fee' | 'money' | 'a share or rate' | 'a date';

export interface HeaderWord {
	/** The word as the rules read it. */
	word: string;
	/** Abbreviations and other spellings brokers' systems write for it. */
	spellings: string[];
	/** What the word means in a header. */
	means: string;
	/** In a header the reader does not know: what the word names, so the row is refused. */
	names?: WordNames;
}

/**
 * Every header word the reader knows: its spellings, what it means, and whether a column the
 * reader does not know is refused for it. The docs show this table (docs/reading-sheets.md, kept
 * equal by a test); the readers below take their abbreviations and refusal words from it.
 */
export const HEADER_WORDS: readonly HeaderWord[] = [
	{ word: 'policy', spellings: ['pol'], means: 'the policy (Pol Nbr, Pol Eff, Pol Fee)' },
	{ word: 'invoice', spellings: ['inv'], means: 'the invoice (Inv Nbr is the invoice number)' },
	{ word: 'certificate', spellings: ['cert'], means: 'a certificate, read as the policy' },
	{ word: 'number', spellings: ['no', 'nbr', 'num', 'nr', '#'], means: 'a number or reference' },
	{ word: 'reference', spellings: ['ref'], means: 'a number or reference' },
	{
		word: 'insured',
		spellings: ['insd', 'insrd', 'assured'],
		means: 'the insured (Insd, Insd St)',
	},
	{ word: 'state', spellings: ['st'], means: 'the taxing state (not a mailing or address state)' },
	{
		word: 'mailing',
		spellings: ['mail'],
		means: 'an address: Mailing State is listed as not used',
	},
	{
		word: 'address',
		spellings: ['addr'],
		means: 'the insured’s address; Address State is listed as not used',
	},
	{ word: 'jurisdiction', spellings: ['juris'], means: 'the taxing state' },
	{
		word: 'transaction',
		spellings: ['trans', 'tran', 'txn', 'trx', 'tx'],
		means: 'the transaction (type, date of the change, number)',
	},
	{
		word: 'endorsement',
		spellings: ['endt', 'endo'],
		means: 'an endorsement (its date or number)',
	},
	{
		word: 'cancellation',
		spellings: ['cancel', 'cancelled', 'canceled', 'canc', 'cxl', 'cnl'],
		means: 'a cancellation (its date)',
	},
	{ word: 'code', spellings: ['cd'], means: 'a code' },
	{
		word: 'premium',
		spellings: ['prem'],
		means: 'the premium (gross, written, net), unless annual, earned, return…',
		names: 'a premium',
	},
	{
		word: 'amount',
		spellings: ['amt'],
		means: 'an amount (SL Tax Amt is the SL Tax)',
		names: 'money',
	},
	{
		word: 'total',
		spellings: ['tot'],
		means: 'a total, compared by the tax check',
		names: 'money',
	},
	{ word: 'tax', spellings: ['taxes'], means: 'a tax (SL Tax, Total Taxes)', names: 'a tax' },
	{
		word: 'fee',
		spellings: ['fees'],
		means: 'a fee (Pol Fee, Insp Fee, Brkr Fee)',
		names: 'a fee',
	},
	{
		word: 'stamping',
		spellings: ['stamp'],
		means: 'the stamping fee, a billed tax',
		names: 'a fee',
	},
	{ word: 'broker', spellings: ['brkr', 'bkr'], means: 'the broker (Brkr Fee is the broker fee)' },
	{ word: 'inspection', spellings: ['insp'], means: 'the inspection fee' },
	{
		word: 'commission',
		spellings: ['comm', 'commn'],
		means: 'the commission amount',
		names: 'money',
	},
	{
		word: 'percent',
		spellings: ['pct', 'perc', 'percentage', '%'],
		means: 'a percent (an insurer’s share)',
		names: 'a share or rate',
	},
	{ word: 'carrier', spellings: ['carr'], means: 'an insurer' },
	{
		word: 'effective',
		spellings: ['eff', 'effect'],
		means: 'the effective date (with transaction: the date of the change)',
		names: 'a date',
	},
	{ word: 'inception', spellings: ['incept'], means: 'the effective date', names: 'a date' },
	{
		word: 'expiration',
		spellings: ['exp', 'expiry', 'expiring', 'expire', 'expires'],
		means: 'the expiration date',
		names: 'a date',
	},
	{ word: 'date', spellings: ['dt'], means: 'a date', names: 'a date' },
	{
		word: 'bound',
		spellings: ['binding'],
		means: 'a binding date, which the service does not take',
		names: 'a date',
	},
	{ word: 'share', spellings: [], means: 'an insurer’s share', names: 'a share or rate' },
	{ word: 'rate', spellings: [], means: 'a rate', names: 'a share or rate' },
	...['surcharge', 'assessment', 'charge'].map((word) => ({
		word,
		spellings: [],
		means: 'a fee',
		names: 'a fee' as const,
	})),
	...['levy', 'exempt', 'exemption'].map((word) => ({
		word,
		spellings: [],
		means: 'a tax or an exemption from it',
		names: 'a tax' as const,
	})),
	...[
		'cost',
		'due',
		'balance',
		'credit',
		'debit',
		'refund',
		'payable',
		'price',
		'gross',
		'net',
	].map((word) => ({ word, spellings: [], means: 'money', names: 'money' as const })),
];

/** Abbreviations and other spellings → the word the rules know. */
const SYNONYMS: Record<string, string> = Object.fromEntries(
	HEADER_WORDS.flatMap((w) =>
		w.spellings.filter((s) => /^[a-z]+$/.test(s)).map((s) => [s, w.word]),
	),
);

/** In a header the reader does not know: the words that refuse the row, and what they name. */
export const UNKNOWN_COLUMN_WORDS: ReadonlyMap<string, WordNames> = new Map(
	HEADER_WORDS.flatMap((w) => (w.names ? [[w.word, w.names] as const] : [])),
);

/** Words that add nothing to what a column holds ("SL Tax Amount" is the SL Tax column). */
const FILLER = new Set(['amount', 'paid', 'this', 'time', 'usd', 'value', 'the']);

/** The header's words, lower case, abbreviations read ("InsdNAICCode" → insured naic code). */
export function headerWords(name: string): string[] {
	const spaced = name
		.replace(/#/g, ' number ')
		.replace(/%/g, ' percent ')
		.replace(/&/g, ' and ')
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.replace(/([A-Za-z])(\d)/g, '$1 $2')
		.replace(/(\d)([A-Za-z])/g, '$1 $2');
	return spaced
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean)
		.map((word) => SYNONYMS[word] ?? word);
}

/** The header's words joined, and joined again without filler words, for the name lists. */
export function headerKeys(name: string): string[] {
	const words = headerWords(name);
	const keys = [words.join(''), words.filter((w) => !FILLER.has(w)).join('')];
	return [...new Set(keys.filter(Boolean))];
}

const MONEY = ['premium', 'amount', 'tax', 'fee', 'surcharge', 'commission', 'percent', 'rate'];
const DATES = ['date', 'effective', 'inception', 'expiration', 'start', 'end'];
const PARTIES = [
	'insurer',
	'carrier',
	'company',
	'market',
	'producer',
	'agent',
	'agency',
	'broker',
];
const INSURER_WORDS = ['insurer', 'carrier', 'company', 'market'];
const ADDRESS_WORDS = ['mailing', 'mail', 'address', 'billing', 'postal'];
/** Words beside a date word that make the column another transaction's date, or not a date. */
const NOT_A_DATE = [
	'transaction',
	'endorsement',
	'change',
	'cancellation',
	'invoice',
	'number',
	'reference',
	'id',
	'booking',
	'booked',
	'entry',
];

interface WordRule {
	/** A field id, or `insurer_N_<part>` for the numbered insurer columns. */
	id: string;
	/** Each group: at least one of its words is in the header. */
	all: string[][];
	/** None of these words is in the header. */
	none?: string[];
}

// A field's rule leaves out the words of a neighbouring field only where the neighbour is a
// different thing (a transaction's date is not the policy's); two fields that a header could
// both mean are left to match both, so the header is reported rather than read as one of them.
const RULES: WordRule[] = [
	{
		id: 'transaction_effective_date',
		all: [
			['endorsement', 'change'],
			['effective', 'date', 'inception'],
		],
		none: [...MONEY, 'type', 'code', 'number', 'cancellation', 'booking', 'entry'],
	},
	// "Transaction Date" alone is most often the day the transaction was booked: only a
	// transaction's effective date is the date of the change.
	{
		id: 'transaction_effective_date',
		all: [['transaction'], ['effective', 'inception']],
		none: [...MONEY, 'type', 'code', 'number', 'cancellation'],
	},
	{
		id: 'booking_date',
		all: [
			['transaction', 'booking', 'booked', 'entry', 'processed', 'processing', 'accounting'],
			['date'],
		],
		none: [...MONEY, 'effective', 'inception', 'type', 'code', 'number', 'endorsement', 'change'],
	},
	{
		id: 'cancellation_date',
		all: [['cancellation'], ['effective', 'date']],
		none: [...MONEY, 'type', 'code', 'number', 'reason'],
	},
	{
		id: 'transaction_reference',
		all: [
			['endorsement', 'transaction'],
			['number', 'id', 'reference'],
		],
		none: [...MONEY, ...DATES, 'type', 'code', 'policy', 'certificate'],
	},
	{
		id: 'type_code',
		all: [['transaction'], ['type', 'code', 'kind']],
		none: [...MONEY, ...DATES],
	},
	{
		id: 'effective_date',
		all: [['inception', 'effective', 'start', 'commencement', 'attachment']],
		none: [...MONEY, ...NOT_A_DATE],
	},
	{
		id: 'expiration_date',
		// "Expiring Policy Number" is the prior policy, not a date.
		all: [['expiration', 'end']],
		none: [...MONEY, ...NOT_A_DATE],
	},
	{
		id: 'net_premium',
		all: [['premium']],
		// Premiums that are not this transaction's (annual, earned, deposit, minimum) and the
		// type words used as premium columns ("Return Premium") are not read as net_premium.
		none: [
			...PARTIES,
			'tax',
			'fee',
			'commission',
			'percent',
			'rate',
			'coverage',
			'limit',
			'date',
			'earned',
			'unearned',
			'deposit',
			'minimum',
			'annual',
			'return',
			'additional',
			'original',
			'finance',
			'financed',
		],
	},
	{
		id: 'policy_number',
		all: [
			['policy', 'certificate'],
			['number', 'reference', 'id'],
		],
		none: [...MONEY, ...DATES, 'type'],
	},
	{
		id: 'insured_name',
		all: [['insured'], ['name']],
		none: ['address', 'state', 'city', 'zip', 'country', 'contact'],
	},
	{
		id: 'state_code',
		all: [['state', 'jurisdiction']],
		none: [...MONEY, ...PARTIES, ...ADDRESS_WORDS, 'domicile', 'date', 'name'],
	},
	// "Commission %", "Comm Rate": the commission as a share of the premium.
	{
		id: 'commission_percent',
		all: [['commission'], ['percent', 'rate']],
		none: ['amount', 'date', 'tax'],
	},
	// "Tax Exempt", "Exempt": the row says whether the transaction is exempt from the tax.
	{
		id: 'tax_exempt',
		all: [['exempt', 'exemption', 'exempted']],
		none: ['date', 'number', 'code', 'reason', 'certificate'],
	},
	// "Mailing State", "Address State": where the insured gets mail, not where the risk is taxed.
	{
		id: 'address_state',
		all: [ADDRESS_WORDS, ['state']],
		none: [...MONEY, 'date'],
	},
	{
		id: 'insurer_N_naic',
		all: [['naic', 'aa']],
		none: [...MONEY, 'name'],
	},
	{
		id: 'insurer_N_percent',
		all: [['share', 'participation', 'percent']],
		none: ['commission', 'tax', 'fee', 'rate', 'premium', 'amount', 'brokerage', 'name'],
	},
	{
		id: 'insurer_N_company_name',
		all: [INSURER_WORDS, ['name']],
		none: ['naic', 'id', 'number', 'code', 'percent', 'share', 'insured'],
	},
	{
		id: 'sheet_total_taxes',
		all: [['total'], ['tax']],
		none: ['premium', 'due', 'rate', 'percent'],
	},
];

// "Coverage %" and "Share %" are an insurer's share; a bare percent is not.
const SHARE_CONTEXT = ['share', 'participation', 'coverage', 'line', ...INSURER_WORDS];

interface WordReading {
	/** Field ids the header's words fit (numbered insurer columns with their number). */
	ids: string[];
}

/** The fields a header's words fit, by the rules above: none, one, or several (ambiguous). */
export function readHeaderWords(name: string): WordReading {
	const words = headerWords(name);
	const has = (list: string[]) => list.some((w) => words.includes(w));
	const number = words.find((w) => /^\d+$/.test(w));
	const ids = new Set<string>();
	for (const rule of RULES) {
		if (!rule.all.every(has) || (rule.none && has(rule.none))) continue;
		if (rule.id === 'insurer_N_percent' && !has(SHARE_CONTEXT)) continue;
		if (rule.id === 'insurer_N_naic' && !words.includes('naic') && !has(['code', 'number']))
			continue;
		ids.add(rule.id.replace('_N_', `_${number ?? 1}_`));
	}
	return { ids: [...ids] };
}
