/**
 * A sheet's column header as the words it is made of, for Map Automatically: "Risk Inception
 * Date", "InsuredNAICCode", "Tx Eff Dt" and "SL Tax Amt" are read by their words, the way a
 * person reads them, instead of by a fixed list of whole names. Abbreviations bordereaux use
 * become their words (Eff → effective, Prem → premium, Insd → insured, Dt → date...), camelCase
 * and snake_case are split, and a few rules say which words make which field. A header whose
 * words fit two fields ("Effective/Expiry Date") is reported as such and never guessed.
 */

/** Abbreviations and other spellings → the word the rules know. */
const SYNONYMS: Record<string, string> = {
	insd: 'insured',
	insrd: 'insured',
	assured: 'insured',
	prem: 'premium',
	eff: 'effective',
	effect: 'effective',
	incept: 'inception',
	exp: 'expiration',
	expiry: 'expiration',
	expiring: 'expiration',
	expire: 'expiration',
	expires: 'expiration',
	dt: 'date',
	pol: 'policy',
	cert: 'certificate',
	no: 'number',
	nbr: 'number',
	num: 'number',
	nr: 'number',
	ref: 'reference',
	trans: 'transaction',
	tran: 'transaction',
	txn: 'transaction',
	trx: 'transaction',
	tx: 'transaction',
	endt: 'endorsement',
	endo: 'endorsement',
	cancel: 'cancellation',
	cancelled: 'cancellation',
	canceled: 'cancellation',
	canc: 'cancellation',
	cxl: 'cancellation',
	cnl: 'cancellation',
	cd: 'code',
	amt: 'amount',
	pct: 'percent',
	perc: 'percent',
	percentage: 'percent',
	carr: 'carrier',
	st: 'state',
	juris: 'jurisdiction',
	insp: 'inspection',
	tot: 'total',
	taxes: 'tax',
	fees: 'fee',
};

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

/**
 * Words that, in a header the reader does not know, name money, a tax, a fee, a premium, a share
 * or a date: such a column is refused rather than passed over, since what it holds would be lost
 * from the filing. The value says what the word names, for the message.
 */
export const UNKNOWN_COLUMN_WORDS: ReadonlyMap<string, string> = new Map([
	...['premium'].map((w) => [w, 'a premium'] as const),
	...['tax', 'levy', 'exempt', 'exemption', 'exempted'].map((w) => [w, 'a tax'] as const),
	...['fee', 'stamp', 'stamping', 'surcharge', 'assessment', 'charge'].map(
		(w) => [w, 'a fee'] as const,
	),
	...['amount', 'commission', 'total', 'cost', 'due', 'balance', 'credit', 'debit', 'refund']
		.concat(['payable', 'price', 'gross', 'net', 'money'])
		.map((w) => [w, 'money'] as const),
	...['percent', 'share', 'rate'].map((w) => [w, 'a share or rate'] as const),
	...['date', 'effective', 'inception', 'expiration', 'bound', 'binding']
		.map((w) => [w, 'a date'] as const),
]);

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
		none: [...MONEY, ...PARTIES, 'domicile', 'date', 'name'],
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
