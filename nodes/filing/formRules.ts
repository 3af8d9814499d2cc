/**
 * How one value is read on both sides of the same-filing rule (sameFiling.ts): exactly (as the
 * derived key reads it) and in form (as a service may show a stored value: letter case, spacing,
 * trailing punctuation, leading zeros, an amount rounded to cents, a date in another form or
 * zone). Which field uses which reading is the FIELDS table of sameFiling.ts.
 */
export const blank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Free text as the key reads it: trimmed, letter case kept. */
export const text = (value: unknown): string => (blank(value) ? '' : String(value).trim());

/** A code or a name looked up by the service: letter case does not matter. */
export const code = (value: unknown): string => text(value).toLowerCase();

/** A name in form: letter case, inner spaces and trailing punctuation aside. */
export const nameForm = (value: unknown): string =>
	code(value)
		.replace(/\s+/g, ' ')
		.replace(/[\s.,;:]+$/, '');

/** Words of a legal form written several ways, each to one spelling ("Incorporated" and "Inc."). */
const LEGAL_FORM_WORDS: Record<string, string> = {
	incorporated: 'inc',
	corporation: 'corp',
	company: 'co',
	limited: 'ltd',
	'l l c': 'llc',
	'l l p': 'llp',
	'l p': 'lp',
};
const LEGAL_FORM_PATTERN = new RegExp(
	`(^| )(${Object.keys(LEGAL_FORM_WORDS).join('|')})(?= |$)`,
	'g',
);

/**
 * A party's name (the insured) in form: as a name, and its accents, its punctuation, "&" for
 * "and" and the spelling of its legal form aside ("O'Brien & Sons, L.L.C." and "OBRIEN AND SONS
 * LLC"). Letters and digits still tell two names apart.
 */
export const partyNameForm = (value: unknown): string =>
	nameForm(value)
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/&/g, ' and ')
		.replace(/['’`]/g, '')
		.replace(/[^a-z0-9]+/g, ' ')
		.trim()
		.replace(LEGAL_FORM_PATTERN, (_, space: string, word: string) => `${space}${LEGAL_FORM_WORDS[word]}`);

/** Words a company's name is written with or without: "Ins. Co." beside "Insurance Company". */
const COMPANY_FORM_WORDS = new Set(['the', 'and', 'of', 'insurance', 'ins', 'assurance', 'company', 'co', 'corporation', 'corp', 'incorporated', 'inc', 'limited', 'ltd', 'llc']);

/** A company's name in form: as a name, its punctuation and the words of its legal form aside. */
export const companyForm = (value: unknown): string =>
	nameForm(value)
		.replace(/&/g, ' and ')
		.split(/[^a-z0-9]+/)
		.filter((word) => word && !COMPANY_FORM_WORDS.has(word))
		.join(' ');

/** A reference (invoice or policy number) in form: as a name, and leading zeros of each digit run aside. */
export const referenceForm = (value: unknown): string =>
	nameForm(value).replace(/(^|\D)0+(?=\d)/g, '$1');

const SCALE = 6;
const ONE_CENT = 10n ** BigInt(SCALE - 2);

/**
 * An amount as an integer of millionths, from its decimal text (never `x * 100`, which reads
 * 1.005 as 100.49999…); undefined when it is not a plain decimal.
 */
export function micros(value: unknown): bigint | undefined {
	if (blank(value)) return undefined;
	let raw: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return undefined;
		raw = /e/i.test(String(value)) ? value.toFixed(SCALE) : String(value);
	} else raw = text(value);
	const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(raw);
	if (!match || (match[2] === '' && !match[3])) return undefined;
	const whole = BigInt(`${match[2] || '0'}${(match[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE)}`);
	return match[1] === '-' ? -whole : whole;
}

/** Millionths as the shortest decimal text that is exactly them (500000000 → "500", 1005000 → "1.005"). */
function decimalText(millionths: bigint): string {
	const negative = millionths < 0n;
	const size = negative ? -millionths : millionths;
	const unit = 10n ** BigInt(SCALE);
	const fraction = (size % unit).toString().padStart(SCALE, '0').replace(/0+$/, '');
	return `${negative ? '-' : ''}${(size / unit).toString()}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An amount exactly, as the one decimal text of its value ("500", "500.00" and 500 are all "500";
 * 1.005 stays "1.005"), so equal amounts compare equal as text and a message shows the amount as
 * people write it; text that is no amount stays as it is.
 */
export const amount = (value: unknown): string => {
	const m = micros(value);
	return m === undefined ? text(value) : decimalText(m);
};

/** Two amounts within a cent of each other (one rounded to cents, half-up or half-even, or the other way). */
export function withinCent(a: unknown, b: unknown): boolean {
	const x = micros(a);
	const y = micros(b);
	if (x === undefined || y === undefined) return false;
	const gap = x > y ? x - y : y - x;
	return gap <= ONE_CENT;
}

export const microsWithinCent = (x: bigint, y: bigint) => (x > y ? x - y : y - x) <= ONE_CENT;

/** YYYY-MM-DD from the plain forms a date comes in (ISO without a zone, MM/DD/YYYY). */
export function day(value: unknown): string {
	const raw = text(value);
	const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+)?$/.exec(raw);
	if (iso) return iso[1];
	const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
	return us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : raw;
}

/**
 * The days a date shown in another form or zone may stand for: a date-time with an offset
 * (2026-02-28T18:00:00-06:00) is the day of that instant in UTC or the day written in it.
 */
export function daysInForm(value: unknown): string[] {
	const raw = text(value);
	const zoned = /^(\d{4}-\d{2}-\d{2})T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.exec(raw);
	if (!zoned) return [day(raw)];
	const instant = new Date(raw);
	return Number.isNaN(instant.getTime()) ? [zoned[1]] : [instant.toISOString().slice(0, 10), zoned[1]];
}

/**
 * Whether a date is shown so that it reads as two days (a time with an offset whose UTC day is
 * not the day written): a match through it is a match through one of two readings.
 */
export const readsTwoDays = (value: unknown): boolean => new Set(daysInForm(value)).size > 1;
