/**
 * The one way this package reads values that come from spreadsheets and expressions: amounts,
 * percents, whole numbers, dates, state codes, transaction types and text. Every node uses these
 * readers (Invoice body checks, Calculator premium and fees, Document text fields), so a value
 * means the same everywhere. Each reader either gives the value or refuses with the rule broken;
 * anything that could be read two ways is refused rather than guessed.
 *
 * Amounts: plain decimal text ("1200.5", "-40", ".5"), with US thousands commas ("1,234.50"), a
 * dollar sign or USD ("$1,234.50", "USD 99", "-$5", "$-5") and accounting parentheses for a
 * negative ("(1,234.50)"). Refused: a decimal comma ("1.234,50", "1234,5"), other currencies,
 * hexadecimal/octal/binary ("0x10"), exponents ("1e3"), spaces inside ("1 234"), Infinity/NaN.
 * Percents: the same plain decimals with an optional trailing "%" ("50%" is 50); no currency.
 * Dates: YYYY-MM-DD, YYYY/MM/DD, an ISO date-time (its date part as written), US MM/DD/YYYY
 * (M/D/YYYY too), and spreadsheet date serial numbers (days since 1899-12-30, 1954 to 2119).
 * Refused: two-digit years, day-first dates that only parse one way by accident, dotted or
 * dashed day/month orders, month names.
 */
import type { z } from 'zod';

import { MESSAGES, STATE_CODES, isValidDate } from './rules';

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

export const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const refuse = <T>(message: string): Read<T> => ({ ok: false, message });

/** Not given: undefined, null, or text that is empty or only spaces. */
export const isBlankValue = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const describeKind = (value: unknown) =>
	Array.isArray(value) ? 'a list' : value === null ? 'null' : `an ${typeof value}`;

export const NUMBER_MESSAGE = 'Must be a number';
const INTEGER_MESSAGE = 'Must be an integer';
const TEXT_MESSAGE = 'Must be a string';

const PLAIN = /^(\d+\.?\d*|\.\d+)$/;
const GROUPED = /^\d{1,3}(,\d{3})+(\.\d*)?$/;
/** One dot and exactly three digits after it, not after a lone 0: a thousands dot or a decimal point. */
const DOT_GROUPED = /^[1-9]\d{0,2}\.\d{3}$/;

/** Why an amount text is refused, for the patterns worth naming; otherwise the plain message. */
function amountRule(text: string): string {
	const why = (rule: string) => `${NUMBER_MESSAGE}: ${rule} (got "${text}")`;
	if (/^[+-]?0[xob]/i.test(text)) return why('hexadecimal, octal and binary forms are not read');
	if (/\de[+-]?\d/i.test(text)) return why('write the amount in plain digits, without an exponent');
	if (/^\D*\d{1,3}(\.\d{3})+,\d+\D*$/.test(text) || /^\D*\d+,\d{1,2}\D*$/.test(text))
		return why('a comma as the decimal mark is not read; write 1234.50');
	if (/^[-+(].*(CR|DR)$/i.test(text))
		return why('a CR (credit) or DR (debit) amount is written without a sign or parentheses');
	if (/[€£¥]/.test(text)) return why('only US dollar amounts ($ or USD) are read');
	if (/%\s*$/.test(text)) return why('a percent sign is read only in percent fields');
	if (/\d[\s\u00a0]+\d/.test(text)) return why('no spaces inside a number');
	if (/\d,\d/.test(text)) return why('commas may only group thousands, as in 1,234.50');
	return NUMBER_MESSAGE;
}

/** Takes a leading sign off; gives the rest and whether the sign was a minus. */
function unsign(text: string): { text: string; sign?: '+' | '-' } {
	const match = /^([+-])\s*(.*)$/.exec(text);
	return match ? { text: match[2], sign: match[1] as '+' | '-' } : { text };
}

/** A number from plain decimal text; `kind` says which extra forms are allowed. */
function numberFromText(raw: string, kind: 'amount' | 'percent' | 'integer'): Read<number> {
	const shown = raw.trim();
	let text = shown;
	let negative = false;
	let grouping = false;
	if (kind === 'amount') {
		// Report money: "-" alone is a zero, "2,400.00 CR" a credit (negative), "DR" a debit.
		if (/^[-–—]$/.test(text)) return ok(0);
		const entry = /^(.*\d)\s*(CR|DR)$/i.exec(text);
		if (entry) {
			if (/^[-+(]/.test(entry[1].trim())) return refuse(amountRule(shown));
			const read = numberFromText(entry[1], kind);
			if (!read.ok) return read;
			return ok(entry[2].toUpperCase() === 'CR' ? -read.value : read.value);
		}
		// Accounting negative "(1,234.50)", a sign before or after the currency: "-$5", "$-5".
		const wrapped = /^\((.*)\)$/.exec(text);
		if (wrapped) text = wrapped[1].trim();
		const before = unsign(text);
		const currency = /^(?:\$|USD)\s*(.*)$/i.exec(before.text) ?? /^(.*?)\s*USD$/i.exec(before.text);
		const after = unsign(currency ? currency[1] : before.text);
		if ((wrapped && (before.sign || after.sign)) || (before.sign && after.sign))
			return refuse(amountRule(shown));
		negative = !!wrapped || before.sign === '-' || after.sign === '-';
		text = after.text;
		grouping = true;
	} else {
		if (kind === 'percent') text = text.replace(/\s*%$/, '');
		const signed = unsign(text);
		negative = signed.sign === '-';
		text = signed.text;
	}
	// "1.500" is 1.5 in a US sheet and 1500 in a European one: refused, never guessed.
	if (kind === 'amount' && DOT_GROUPED.test(text)) {
		return refuse(
			`${NUMBER_MESSAGE}: "${shown}" reads two ways (a decimal point or a thousands dot); write ${Number(text)} or ${text.replace('.', '')} without the dot, or 1,500.00 style with a comma for thousands`,
		);
	}
	const readable =
		kind === 'integer' ? /^\d+$/.test(text) : PLAIN.test(text) || (grouping && GROUPED.test(text));
	if (!readable) {
		const rule = amountRule(shown);
		const integerRule = PLAIN.test(text) || rule === NUMBER_MESSAGE ? INTEGER_MESSAGE : rule;
		return refuse(kind === 'integer' ? integerRule : rule);
	}
	const value = Number(text.replace(/,/g, ''));
	if (!Number.isFinite(value)) return refuse(NUMBER_MESSAGE);
	return ok(negative ? -value : value);
}

function readNumber(
	value: unknown,
	kind: 'amount' | 'percent' | 'integer',
): Read<number | undefined> {
	if (isBlankValue(value)) return ok(undefined);
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return refuse(NUMBER_MESSAGE);
		return kind === 'integer' && !Number.isInteger(value) ? refuse(INTEGER_MESSAGE) : ok(value);
	}
	if (typeof value === 'string') return numberFromText(value, kind);
	return refuse(kind === 'integer' ? INTEGER_MESSAGE : NUMBER_MESSAGE);
}

/** An amount of money (negative allowed): "$1,234.50", "(40)", "1200.5". */
export const readAmount = (value: unknown) => readNumber(value, 'amount');

/** A percent: "50%" or "50" is 50. */
export const readPercent = (value: unknown) => readNumber(value, 'percent');

/** A whole number written in digits (ids). */
export const readInteger = (value: unknown) => readNumber(value, 'integer');

// Spreadsheets count days from 1899-12-30 (the 1900 leap-year bug included); the range keeps
// small numbers (a premium in a date column) from becoming dates in the 1900s.
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);
const SERIAL_MIN = 20000; // 1954-10-03
const SERIAL_MAX = 80000; // 2119-01-10
const DAY_MS = 86_400_000;

function fromSerial(serial: number, shown: string): Read<string> {
	if (serial < SERIAL_MIN || serial >= SERIAL_MAX + 1) {
		return refuse(
			`${MESSAGES.date}: ${shown} is not a spreadsheet date number between ${SERIAL_MIN} and ${SERIAL_MAX}`,
		);
	}
	return ok(new Date(SERIAL_EPOCH_MS + Math.floor(serial) * DAY_MS).toISOString().slice(0, 10));
}

const pad = (n: string) => n.padStart(2, '0');

/** Years a policy transaction can have: outside them a date is a typo or a misread cell. */
const DATE_YEARS = { min: 1900, max: 2199 };

function inSaneYears(date: string, why: (rule: string) => Read<string>): Read<string> {
	const year = Number(date.slice(0, 4));
	if (year >= DATE_YEARS.min && year <= DATE_YEARS.max) return ok(date);
	return why(`the year must be from ${DATE_YEARS.min} to ${DATE_YEARS.max}`);
}

function dateFromText(raw: string): Read<string> {
	const text = raw.trim();
	const why = (rule: string) => refuse<string>(`${MESSAGES.date}: ${rule} (got "${text}")`);
	const iso =
		/^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(
			text,
		);
	if (iso) {
		const date = `${iso[1]}-${pad(iso[2])}-${pad(iso[3])}`;
		// YYYY-M-D is not the description's form: kept refused as before, only slashes are read loosely.
		if (text.includes('-') && !/^\d{4}-\d{2}-\d{2}/.test(text)) return refuse(MESSAGES.date);
		const [hour, minute, second] = [iso[4], iso[5], iso[6]].map((part) => Number(part ?? 0));
		if (hour > 23 || minute > 59 || second > 59)
			return why('the time after the date is not a time of day (hh:mm from 00:00 to 23:59)');
		if (!isValidDate(date)) return refuse(MESSAGES.date);
		return inSaneYears(date, why);
	}
	const us = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text);
	if (us) {
		if (us[3].length === 2) return why('write the year with four digits (MM/DD/YYYY)');
		const date = `${us[3]}-${pad(us[1])}-${pad(us[2])}`;
		if (isValidDate(date)) return inSaneYears(date, why);
		return why('dates with slashes are read as US month/day/year (MM/DD/YYYY)');
	}
	if (/^\d{1,2}[.-]\d{1,2}[.-]\d{2,4}$/.test(text)) {
		return why('day and month order is unclear; write YYYY-MM-DD or MM/DD/YYYY');
	}
	if (/^\d+(\.\d+)?$/.test(text)) return fromSerial(Number(text), text);
	return refuse(MESSAGES.date);
}

/**
 * A calendar date as YYYY-MM-DD. Also takes a Luxon DateTime or a JS Date from an expression
 * (their date as they hold it), and n8n's date picker value (`2026-03-01T00:00:00`).
 */
export function readDate(value: unknown): Read<string | undefined> {
	if (isBlankValue(value)) return ok(undefined);
	if (typeof value === 'string') return dateFromText(value);
	if (typeof value === 'number') {
		return Number.isFinite(value) ? fromSerial(value, String(value)) : refuse(MESSAGES.date);
	}
	const dateTime = value as { toISODate?: () => string | null };
	const why = (rule: string) => refuse<string>(`${MESSAGES.date}: ${rule}`);
	if (value && typeof dateTime.toISODate === 'function') {
		const date = dateTime.toISODate();
		return date ? inSaneYears(date, why) : refuse(MESSAGES.date);
	}
	if (value instanceof Date && !Number.isNaN(value.getTime()))
		return inSaneYears(value.toISOString().slice(0, 10), why);
	return refuse(`${MESSAGES.date}, not ${describeKind(value)}`);
}

/** Text: numbers are written as text (spreadsheets turn ZIP and NAIC codes into numbers). */
export function readText(value: unknown): Read<string | undefined> {
	if (isBlankValue(value)) return ok(undefined);
	if (typeof value === 'string') return ok(value);
	if (typeof value === 'number' && Number.isFinite(value)) return ok(String(value));
	if (typeof value === 'object') return refuse(`${TEXT_MESSAGE}, not ${describeKind(value)}`);
	return refuse(TEXT_MESSAGE);
}

/**
 * A code of `digits` digits (ZIP, NAIC) as text. A sheet cell read as a number has lost its
 * leading zeros (02108 arrives as 2108): they are put back.
 */
export function readDigitCode(value: unknown, digits: number): Read<string | undefined> {
	if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
		const text = String(value);
		return ok(text.length < digits ? text.padStart(digits, '0') : text);
	}
	return readText(value);
}

/**
 * Shares given as fractions of 1 where percents are read (a sheet's 50 % cell arrives as 0.5):
 * two or more shares, each under 1, that add up to 1. Such a list reads two ways (0.5 % each,
 * or 50 % each), so it is refused; gives the rule, or undefined when the list is not that.
 */
export function fractionSharesRule(shares: number[]): string | undefined {
	if (shares.length < 2 || shares.some((share) => !(share > 0 && share < 1))) return undefined;
	const sum = shares.reduce((total, share) => total + share, 0);
	if (Math.abs(sum - 1) > 1e-9) return undefined;
	const written = shares.map((share) => `${Number((share * 100).toFixed(6))}`).join(', ');
	return `the percents ${shares.join(' + ')} add up to 1, which reads two ways (a sheet's percent cells arrive as fractions): write them out of 100 (${written}, or with a % sign), or as amounts`;
}

/** Lower case letters and digits only: how names are compared whatever their spacing and punctuation. */
export const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

const STATE_NAMES: Record<string, (typeof STATE_CODES)[number]> = {
	alabama: 'AL',
	alaska: 'AK',
	arizona: 'AZ',
	arkansas: 'AR',
	california: 'CA',
	colorado: 'CO',
	connecticut: 'CT',
	delaware: 'DE',
	districtofcolumbia: 'DC',
	washingtondc: 'DC',
	florida: 'FL',
	georgia: 'GA',
	hawaii: 'HI',
	idaho: 'ID',
	illinois: 'IL',
	indiana: 'IN',
	iowa: 'IA',
	kansas: 'KS',
	kentucky: 'KY',
	louisiana: 'LA',
	maine: 'ME',
	maryland: 'MD',
	massachusetts: 'MA',
	michigan: 'MI',
	minnesota: 'MN',
	mississippi: 'MS',
	missouri: 'MO',
	montana: 'MT',
	nebraska: 'NE',
	nevada: 'NV',
	newhampshire: 'NH',
	newjersey: 'NJ',
	newmexico: 'NM',
	newyork: 'NY',
	northcarolina: 'NC',
	northdakota: 'ND',
	ohio: 'OH',
	oklahoma: 'OK',
	oregon: 'OR',
	pennsylvania: 'PA',
	rhodeisland: 'RI',
	southcarolina: 'SC',
	southdakota: 'SD',
	tennessee: 'TN',
	texas: 'TX',
	utah: 'UT',
	vermont: 'VT',
	virginia: 'VA',
	washington: 'WA',
	westvirginia: 'WV',
	wisconsin: 'WI',
	wyoming: 'WY',
};

/** The refusal quotes the value, as the date refusals do ("Texass" is not …). */
const notAState = (value: string) =>
	`"${value.trim()}" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)`;

/** A state code from a code in any case ("tx", "D.C.") or the state's name ("Texas"). */
export function readStateCode(value: unknown): Read<string | undefined> {
	if (isBlankValue(value)) return ok(undefined);
	if (typeof value !== 'string') return refuse(MESSAGES.stateCode);
	const key = squash(value);
	const code = key.toUpperCase();
	if ((STATE_CODES as readonly string[]).includes(code)) return ok(code);
	// "State of New York", "Commonwealth of Virginia": the state's formal name, as exports write it.
	const name = key.replace(/^(?:stateof|commonwealthof)(?=[a-z]{4})/, '');
	return STATE_NAMES[name] ? ok(STATE_NAMES[name]) : refuse(notAState(value));
}

/**
 * A zod step for a reader: blank gives undefined (or "This field is required"), a refusal
 * becomes the field's one issue. Chain `.pipe()` for further rules on the value read.
 */
export function readWith<T>(
	zod: typeof z,
	reader: (value: unknown) => Read<T | undefined>,
	required: boolean,
) {
	return zod.unknown().transform((value, ctx): T | undefined => {
		const result = reader(value);
		if (!result.ok) {
			ctx.addIssue({ code: 'custom', message: result.message });
			return zod.NEVER;
		}
		if (result.value === undefined && required) {
			ctx.addIssue({ code: 'custom', message: MESSAGES.required });
			return zod.NEVER;
		}
		return result.value;
	});
}
