/**
 * The one rule for "this stored transaction is this row": the look before filing, the 409
 * fallback, the recovery after a lost reply and identical rows of one run all ask it.
 *
 * The same filing means every field the service stores and its listing shows matches what the
 * row sends: state, insured, type, dates, premium, invoice number and date, commission, line of
 * business, notes, fees, insurers and the coverages the service matched. Two endorsements of one
 * policy on one day with one premium but their own invoice numbers, insurers or states are two
 * filings, and each is filed. A field the listing does not show (or the row sends and the
 * service does not keep as sent) cannot be compared: the result names it, and the item says so.
 *
 * Values are read in one form on both sides: amounts in cents, dates as YYYY-MM-DD, text trimmed
 * (letter case counts, as in the derived key; not in codes and looked-up names), a type by its
 * code (the service shows its name), a fee by the one column of its alias pair, fees in any order,
 * insurers in any order against the listing. Two rows of one run are compared as sent (the
 * service's own changes to fees left out of neither), so the rule calls two rows one filing
 * where their derived keys are one, and on every account kind the same rows are filed.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_TYPE_CODE, FEE_ALIAS_PAIRS, FEE_CODES } from '../shared/rules';
import { canonicalJson } from './canonical';
import {
	amount,
	blank,
	code,
	day,
	daysInForm,
	micros,
	microsWithinCent,
	nameForm,
	partyNameForm,
	readsTwoDays,
	referenceForm,
	text,
	withinCent,
} from './formRules';
import { isDerivedMark, markForm, sameMark } from './mark';

/**
 * The rule's three answers: `same` (differences of form only: already filed), `different`
 * (something that tells transactions apart differs in substance: file the row), `cannotTell`
 * (all that tells them apart agrees, but something of substance differs or is missing on one
 * side: the row is refused unless the run's setting says otherwise).
 */
export type Answer = 'same' | 'different' | 'cannotTell';

/** One field that differs in substance, with both values as the rule read them. */
export interface Difference {
	field: string;
	row: string;
	stored: string;
}

/** What the rule compared for one stored transaction (or one earlier row). */
export interface Comparison {
	answer: Answer;
	/** `answer === 'same'`. */
	same: boolean;
	/** Fields compared (all equal or equal in form when `same`). */
	compared: string[];
	/** Fields that differ in substance. */
	differs: string[];
	/** Each of `differs` with both values. */
	differences: Difference[];
	/** Fields that matched only in form (the service shows them otherwise). */
	inForm: string[];
	/** Fields the row sends that could not be compared, each with why. */
	notComparable: string[];
	/**
	 * What recognised the stored transaction as the row's: `mark <number>` (the invoice number the
	 * package wrote, or the sheet's own, with the policy and type) or `forms` (every field compared).
	 */
	recognisedBy?: string;
	/** Fields that matched only through one of two readings of the stored value (a date read as two days). */
	readTwoWays: string[];
	/** A second, different New (or Renewal) of the same policy and term: asked, never filed in silence. */
	secondOfTerm?: boolean;
}

/** Fields the caller already knows are the row's (the 409 on a derived key proves all but tax lines). */
export type ComparedField = 'tax_lines';

const NOT_SHOWN = Symbol('not shown');
type Read = string | string[] | typeof NOT_SHOWN;

const TYPE_BY_NAME: Record<string, string> = {
	new: 'NEW',
	renewal: 'RENEWAL',
	endorsement: 'ENDORSEMENT',
	cancelled: 'CANCELLATION',
	cancellation: 'CANCELLATION',
};

const typeCode = (value: unknown): string => {
	const shown = value && typeof value === 'object' ? (value as IDataObject).name : value;
	return TYPE_BY_NAME[code(shown)] ?? code(shown).toUpperCase();
};

const shown = (invoice: IDataObject, field: string, read: (value: unknown) => Read): Read =>
	field in invoice ? read(invoice[field]) : NOT_SHOWN;

const list = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as IDataObject[]) : [];

const COLUMN = new Map(FEE_ALIAS_PAIRS.map(([alias, target]) => [alias, target]));
const TAX_COLUMNS = new Set(FEE_CODES.tax.map((code) => COLUMN.get(code) ?? code));
/** The service sets the flat stamping fee itself in some states: never compared. */
const SET_BY_SERVICE = 'stamping_fee';

const cents = amount;

/**
 * Fee lines (`taxes`: the tax columns, else the others) as `column:amount`, sorted. `asStored`: as
 * the service keeps them: the stamping fee left out (it may set it itself), TX's vehicle_crime_fee
 * zeroed, zero amounts left out.
 */
function feeLines(fees: unknown, state: string, taxes: boolean, asStored: boolean): string[] {
	const lines: string[] = [];
	for (const fee of list(fees)) {
		const type = code(fee.type);
		const column = COLUMN.get(type) ?? type;
		if (TAX_COLUMNS.has(column) !== taxes) continue;
		if (!asStored) {
			lines.push(`${column}:${cents(fee.amount)}`);
			continue;
		}
		if (column === SET_BY_SERVICE) continue;
		const amount = state === 'tx' && column === 'vehicle_crime_fee' ? '0' : cents(fee.amount);
		if (amount !== '0' && amount !== '') lines.push(`${column}:${amount}`);
	}
	return lines.sort();
}

/** Fee lines summed by column (a service may merge lines of one code), in millionths. */
function feeSums(fees: unknown, state: string, taxes: boolean): Map<string, bigint> {
	const sums = new Map<string, bigint>();
	for (const line of feeLines(fees, state, taxes, true)) {
		const at = line.lastIndexOf(':');
		const column = line.slice(0, at);
		const value = line.slice(at + 1);
		// The line's amount is amount()'s decimal text; text that is no amount counts 0.
		sums.set(column, (sums.get(column) ?? 0n) + (micros(value) ?? 0n));
	}
	return sums;
}

/**
 * Fees in form: each column's total within a cent (lines of one code merged). Tax lines: the
 * row's columns only (a service adds tax lines of its own).
 */
function feesInForm(body: IDataObject, invoice: IDataObject, taxes: boolean): boolean {
	const mine = feeSums(body.fees, state(body), taxes);
	const theirs = feeSums(invoice.fees, storedState(invoice), taxes);
	if (!taxes && mine.size !== theirs.size) return false;
	for (const [column, sum] of mine) {
		const other = theirs.get(column);
		if (other === undefined || !microsWithinCent(sum, other)) return false;
	}
	return true;
}

/** An insurer as `who|share`: who by every name it has, share by percent or amount. */
function rowInsurers(insurers: unknown): string[] {
	const items = list(insurers);
	return items.flatMap((item) => {
		if (Array.isArray(item.companies)) return list(item.companies).map((c) => `${who(c)}|`);
		const share = !blank(item.percent)
			? `pct:${cents(item.percent)}`
			: !blank(item.amount)
				? `amt:${cents(item.amount)}`
				: items.length === 1
					? `pct:${cents(100)}`
					: '';
		return [`${who(item)}|${share}`];
	});
}

const who = (item: IDataObject): string =>
	[
		blank(item.company_id) ? '' : `id:${code(item.company_id)}`,
		blank(item.naic) ? '' : `naic:${code(item.naic)}`,
		blank(item.company_name ?? item.name) ? '' : `name:${code(item.company_name ?? item.name)}`,
	]
		.filter(Boolean)
		.join(',');

function storedInsurers(insurers: unknown): string[] {
	return list(insurers).map((item) => {
		const shares = [
			blank(item.percent) ? '' : `pct:${cents(item.percent)}`,
			blank(item.amount) ? '' : `amt:${cents(item.amount)}`,
		];
		return `${who(item)}|${shares.filter(Boolean).join(',')}`;
	});
}

/** Every insurer of the row pairs with its own stored insurer: one of its names and its share. */
function insurersMatch(row: string[], other: string[]): boolean {
	if (row.length !== other.length) return false;
	const left = other.slice();
	return row.every((mine) => {
		const [names, share] = mine.split('|');
		const at = left.findIndex((theirs) => {
			const [theirNames, theirShares] = theirs.split('|');
			const named = names.split(',').some((n) => n && theirNames.split(',').includes(n));
			const shared = !share || !theirShares || theirShares.split(',').includes(share);
			return named && shared;
		});
		if (at < 0) return false;
		left.splice(at, 1);
		return true;
	});
}

const coverageLines = (coverages: unknown): string[] =>
	list(coverages)
		.map((c) => `${code(c.code)}:${cents(c.amount)}`)
		.sort();

/** The service shows only the coverages it matched: each it shows is one the row sends. */
function coveragesMatch(row: string[], other: string[], otherStored: boolean): boolean {
	if (!otherStored) return row.join() === other.join();
	const left = row.slice();
	return other.every((line) => {
		const at = left.indexOf(line);
		if (at >= 0) left.splice(at, 1);
		return at >= 0;
	});
}

/** A line of business: sent by id or (on accounts with lob_name) by name; shown as {id, name} or null. */
const rowLob = (body: IDataObject): string =>
	!blank(body.lob_id)
		? `id:${code(body.lob_id)}`
		: blank(body.lob_name)
			? ''
			: `name:${code(body.lob_name)}`;

function storedLob(value: unknown): string[] {
	if (!value || typeof value !== 'object') return [];
	const lob = value as IDataObject;
	return [
		blank(lob.id) ? '' : `id:${code(lob.id)}`,
		blank(lob.name) ? '' : `name:${code(lob.name)}`,
	].filter(Boolean);
}

/** An insurer's share in millionths of a percent, read from a percent or an amount of the premium. */
function sharesOf(item: IDataObject, premium: unknown, fraction: boolean): bigint[] {
	const out: bigint[] = [];
	const pct = micros(item.percent);
	if (pct !== undefined) out.push(pct, ...(fraction ? [pct * 100n] : []));
	const amt = micros(item.amount);
	const whole = micros(premium);
	if (amt !== undefined && whole !== undefined && whole !== 0n) out.push((amt * 100_000_000n) / whole);
	return out;
}

/**
 * Insurers in form: each row insurer pairs with its own stored insurer by one of its names, and
 * their shares agree within a cent of the premium, a percent read as a fraction (1 for 100) or
 * as an amount of the premium.
 */
function insurersInForm(body: IDataObject, invoice: IDataObject): boolean {
	const row = list(body.insurers).flatMap((item) =>
		Array.isArray(item.companies) ? list(item.companies) : [item],
	);
	const stored = list(invoice.insurers);
	if (row.length !== stored.length) return false;
	const whole = micros(body.net_premium);
	// A share within a cent of the premium, as millionths of a percent.
	const slack = whole && whole !== 0n ? (10_000n * 100_000_000n) / (whole < 0n ? -whole : whole) + 1n : 0n;
	const left = stored.slice();
	return row.every((mine) => {
		const names = who(mine).split(',');
		const mineShares = blank(mine.percent) && blank(mine.amount) ? [] : sharesOf(mine, body.net_premium, false);
		const at = left.findIndex((theirs) => {
			if (!names.some((n) => n && who(theirs).split(',').includes(n))) return false;
			if (!mineShares.length) return true;
			const theirShares = sharesOf(theirs, body.net_premium, true);
			return mineShares.some((m) => theirShares.some((t) => (m > t ? m - t : t - m) <= slack));
		});
		if (at < 0) return false;
		left.splice(at, 1);
		return true;
	});
}

/**
 * Whether a field tells two transactions apart: `always` (differing in substance: another
 * transaction), `whenBothCarry` (so only when both sides have a value), `no` (a difference of
 * substance leaves the rule unable to tell).
 */
export type TellsApart = 'always' | 'whenBothCarry' | 'no';

interface Field {
	name: string;
	tellsApart: TellsApart;
	/** What counts as a difference of form only (docs/safe-reruns.md prints this table). */
	form: string;
	/** The row's value; `sent`: whether the row gives the field at all. */
	row: (body: IDataObject, asStored: boolean) => Read;
	sent: (body: IDataObject) => boolean;
	/** The stored transaction's value as the listing shows it (NOT_SHOWN when it does not). */
	stored: (invoice: IDataObject) => Read;
	/** Whether a stored value that differs exactly is the row's in another form. */
	inForm?: (body: IDataObject, invoice: IDataObject) => boolean;
	/** Why a field the listing does not show cannot be compared. */
	why?: string;
	/** Whether a stored value that matched in form reads two ways (so the match is only one reading). */
	twoWays?: (invoice: IDataObject) => boolean;
	/** Whether the field, differing, tells two transactions apart given both values (else tellsApart). */
	carried?: (value: Read) => boolean;
	match?: (row: Read, other: Read, otherStored: boolean) => boolean;
}

const has =
	(...names: string[]) =>
	(body: IDataObject) =>
		names.some((n) => !blank(body[n]));
const state = (body: IDataObject) => code(body.state_code);
const storedState = (invoice: IDataObject) => {
	const value = invoice.state;
	return code(value && typeof value === 'object' ? (value as IDataObject).code : value);
};

/** A date the service stores as the effective date when none was sent. */
const dateOrEffective = (name: string, tellsApart: TellsApart): Field => ({
	name,
	tellsApart,
	form: `${DATE_FORM}; the effective date when none was sent`,
	row: (b) => day(b[name] ?? b.effective_date),
	sent: has(name),
	stored: (i) => shown(i, name, day),
	inForm: (b, i) => sameDay(b[name] ?? b.effective_date, i[name]),
	twoWays: (i) => readsTwoDays(i[name]),
});

/** A field read the same way from the row and from the listing, under one name. */
const plain = (
	name: string,
	tellsApart: TellsApart,
	read: (value: unknown) => Read,
	form: string,
	inForm?: (row: unknown, stored: unknown) => boolean,
	twoWays?: (stored: unknown) => boolean,
): Field => ({
	name,
	tellsApart,
	form,
	row: (body) => read(body[name]),
	sent: has(name),
	stored: (invoice) => shown(invoice, name, read),
	inForm: inForm && ((body, invoice) => inForm(body[name], invoice[name])),
	twoWays: twoWays && ((invoice) => twoWays(invoice[name])),
});

/** A field the listing does not show: compared only between two rows of one run. */
const unshown = (name: string, why = 'the listing does not show it'): Field => ({
	name,
	tellsApart: 'no',
	form: `not compared with a stored transaction (${why}); two rows of one run must agree`,
	row: (body) => canonicalJson(body[name] ?? null),
	sent: has(name),
	stored: () => NOT_SHOWN,
	why,
});

/** Fee lines of the tax columns (`taxes`) or the others. */
const fees = (name: string, taxes: boolean, form: string): Field => ({
	name,
	tellsApart: 'no',
	form,
	row: (body, asStored) => feeLines(body.fees, state(body), taxes, asStored),
	sent: has('fees'),
	stored: (i) => ('fees' in i ? feeLines(i.fees, storedState(i), taxes, true) : NOT_SHOWN),
	inForm: (body, invoice) => feesInForm(body, invoice, taxes),
});

const sameDay = (row: unknown, stored: unknown) => daysInForm(stored).includes(day(row));
const DATE_FORM = 'another form (MM/DD/YYYY, with a time) or zone (a time with an offset whose UTC day is the day written; one whose UTC day and written day differ reads two ways, and a match through it is never the same by itself)';
const sameName = (row: unknown, stored: unknown) => nameForm(row) === nameForm(stored);
const sameParty = (row: unknown, stored: unknown) => partyNameForm(row) === partyNameForm(stored);
const sameReference = (row: unknown, stored: unknown) => referenceForm(row) === referenceForm(stored);
/**
 * A derived mark is the package's, not the sheet's: a stored transaction without any number (one
 * entered by hand, or filed with the mark switched off) says nothing against it, as Reconcile
 * Sheet reads it too.
 */
const sameReferenceOrOwnMark = (row: unknown, stored: unknown) =>
	sameReference(row, stored) || (isDerivedMark(row) && (stored === null || stored === undefined || String(stored).trim() === ''));
const NAME_FORM = 'letter case, inner spaces, trailing punctuation';
const REFERENCE_FORM = `${NAME_FORM}, leading zeros of a number (INV-0042 and inv-42)`;
const PARTY_FORM = `${NAME_FORM}; accents, punctuation, "&" for "and", Inc./Inc/Incorporated, L.L.C./LLC (one spelling of a legal form)`;

/**
 * The one table of the rule: each field, whether it tells transactions apart, and what counts
 * as form. The code reads it, and docs/safe-reruns.md prints it (a test keeps them one).
 */
export const FIELDS: readonly Field[] = [
	plain('policy_number', 'always', text, REFERENCE_FORM, sameReference),
	{
		name: 'state',
		tellsApart: 'always',
		form: 'letter case; shown as an object or a code',
		row: state,
		sent: has('state_code'),
		stored: (i) => ('state' in i ? storedState(i) : NOT_SHOWN),
	},
	plain('insured_name', 'no', text, PARTY_FORM, sameParty),
	{
		name: 'type',
		tellsApart: 'always',
		form: 'shown by its name or its code',
		row: (b) => typeCode(b.type_code ?? DEFAULT_TYPE_CODE),
		sent: () => true,
		stored: (i) => shown(i, 'type', typeCode),
	},
	plain('effective_date', 'always', day, DATE_FORM, sameDay, readsTwoDays),
	plain('expiration_date', 'always', day, DATE_FORM, sameDay, readsTwoDays),
	// Shown only on accounts with the feature.
	{ ...dateOrEffective('transaction_effective_date', 'always'), why: 'this account does not show it' },
	plain('net_premium', 'always', cents, 'within a cent (rounded to cents, half-up or half-even)', withinCent),
	{
		// The package's own marks (filing/mark.ts) are no caller's reference: they tell
		// transactions apart only through the mark rule (markDecides), never here.
		...plain('invoice_number', 'whenBothCarry', text, `${REFERENCE_FORM}; a mark the package derived (SL…) tells transactions apart only as the mark, and a stored transaction without a number (entered by hand) agrees with it`, sameReferenceOrOwnMark),
		carried: (value) => typeof value === 'string' && value !== '' && !isDerivedMark(value),
	},
	dateOrEffective('invoice_date', 'no'),
	plain('commission', 'no', cents, 'within a cent; 0 where none was sent', (row, stored) =>
		blank(row) ? amount(stored) === '0' : withinCent(row, stored),
	),
	{
		name: 'lob',
		tellsApart: 'no',
		form: 'shown by id only where the row gives a name (listed as matched only in form); none where a name the account does not know was sent',
		row: rowLob,
		sent: has('lob_id', 'lob_name'),
		stored: (i) => shown(i, 'lob', storedLob),
		// A name the account does not know is stored without a line of business (its warning says so).
		match: (row, other, otherStored) =>
			otherStored
				? (row as string) === ''
					? (other as string[]).length === 0
					: (other as string[]).includes(row as string) ||
						((row as string).startsWith('name:') && (other as string[]).length === 0)
				: row === other,
		inForm: (body, invoice) => {
			const lob = invoice.lob as IDataObject | null | undefined;
			return rowLob(body).startsWith('name:') && !!lob && blank(lob.name) && !blank(lob.id);
		},
	},
	plain('notes', 'no', text, NAME_FORM, sameName),
	fees('fees', false, 'lines of one code merged (their total within a cent); amounts within a cent'),
	fees('tax_lines', true, 'tax lines the service adds itself (codes the row does not send); amounts within a cent'),
	{
		name: 'insurers',
		tellsApart: 'always',
		form: 'in any order, by company id, NAIC or name; a percent as a fraction (1 for 100) or as an amount of the premium, within a cent',
		row: (b) => rowInsurers(b.insurers),
		sent: has('insurers'),
		stored: (i) => shown(i, 'insurers', storedInsurers),
		match: (row, other, otherStored) =>
			otherStored
				? insurersMatch(row as string[], other as string[])
				: (row as string[]).join() === (other as string[]).join(),
		inForm: insurersInForm,
	},
	{
		name: 'coverages',
		tellsApart: 'no',
		form: 'only the coverages the service matched are shown: each one shown must be one the row sends',
		row: (b) => coverageLines(b.coverages),
		sent: has('coverages'),
		stored: (i) => shown(i, 'coverages', coverageLines),
		match: (row, other, otherStored) =>
			coveragesMatch(row as string[], other as string[], otherStored),
	},
	unshown('policy_limit'),
	unshown('class_code'),
	unshown('insured_address'),
	unshown('documents', 'documents are also added after filing'),
	{
		// Two rows of one run are one filing only when all they send agrees, coverage limits and
		// titles and insurer groups included (as their derived keys would).
		...unshown('coverages_and_insurers_as_sent', 'compared between two rows of one run only'),
		row: (body) => canonicalJson([body.coverages ?? null, body.insurers ?? null]),
		sent: () => false,
	},
];

const shownValue = (value: Read): string =>
	value === NOT_SHOWN ? '' : Array.isArray(value) ? value.join(', ') || 'none' : value || 'none';

function compare(
	body: IDataObject,
	other: IDataObject,
	otherStored: boolean,
	known: readonly ComparedField[],
	markMayDecide = true,
): Comparison {
	const result: Comparison = {
		answer: 'same',
		same: true,
		compared: [],
		differs: [],
		differences: [],
		inForm: [],
		notComparable: [],
		readTwoWays: [],
	};
	let apart = false;
	const apartBy: string[] = [];
	for (const field of FIELDS) {
		if ((known as readonly string[]).includes(field.name)) continue;
		const mine = field.row(body, otherStored);
		const theirs = otherStored ? field.stored(other) : field.row(other, false);
		if (theirs === NOT_SHOWN) {
			if (field.sent(body))
				result.notComparable.push(`${field.name} (${field.why ?? 'the listing does not show it'})`);
			continue;
		}
		result.compared.push(field.name);
		const equal = field.match
			? field.match(mine, theirs, otherStored)
			: canonicalJson(mine) === canonicalJson(theirs);
		if (equal) continue;
		if (otherStored && field.inForm?.(body, other)) {
			if (!field.twoWays?.(other)) {
				result.inForm.push(field.name);
				continue;
			}
			// Only one of two readings matches: never the same on its strength.
			result.readTwoWays.push(field.name);
			result.differs.push(field.name);
			result.differences.push({ field: field.name, row: shownValue(mine), stored: `${shownValue(theirs)}, which reads as either of two days` });
			continue;
		}
		result.differs.push(field.name);
		result.differences.push({ field: field.name, row: shownValue(mine), stored: shownValue(theirs) });
		const carried = field.carried ?? ((value: Read) => shownValue(value) !== 'none');
		const bothCarry = carried(mine) && carried(theirs);
		if (field.tellsApart === 'always' || (field.tellsApart === 'whenBothCarry' && bothCarry)) {
			apart = true;
			apartBy.push(field.name);
		}
	}
	if (otherStored && list(body.fees).some((f) => code(f.type) === SET_BY_SERVICE))
		result.notComparable.push(`fees.${SET_BY_SERVICE} (the service may set it itself)`);
	result.answer = apart ? 'different' : result.differs.length ? 'cannotTell' : 'same';
	if (otherStored && markMayDecide) markDecides(body, other, result, apartBy);
	if (result.answer === 'different') secondOfTerm(body, result, apartBy);
	result.same = result.answer === 'same';
	if (result.same) result.recognisedBy ??= 'forms';
	return result;
}

/**
 * The mark decides before the forms (MARK_RULE in nodes/shared/service.ts). A stored transaction
 * whose invoice number is the row's mark, of the row's type, is the row's filing: a derived mark
 * is a digest of the whole row, so nothing else need agree; the sheet's own number is the
 * caller's reference, which settles a value shown so that it reads two ways, but any other
 * difference (the row corrected since, the number reused) keeps the comparison's answer. A
 * stored transaction bearing another of the package's marks is never the row's; a field it
 * matches only through a second reading then tells them apart (the package filed it from
 * another row), so two endorsements a day apart are two filings whatever the dates' form.
 */
function markDecides(
	body: IDataObject,
	stored: IDataObject,
	result: Comparison,
	apartBy: string[],
) {
	const mark = body.invoice_number;
	const typeAgrees = !('type' in stored) || typeCode(stored.type) === typeCode(body.type_code ?? DEFAULT_TYPE_CODE);
	if (markForm(mark) !== undefined && sameMark(mark, stored.invoice_number) && typeAgrees) {
		// The sheet's own number decides only what a second reading left open: any other
		// difference (a row corrected since it was filed) keeps the comparison's answer.
		const open = result.differs.filter((f) => !result.readTwoWays.includes(f));
		if (!isDerivedMark(mark) && open.length) return;
		result.answer = 'same';
		result.recognisedBy = `mark ${markForm(mark)}`;
		result.inForm.push(...result.differs.filter((f) => f !== 'invoice_number'));
		result.differs = [];
		result.differences = [];
		return;
	}
	if (isDerivedMark(stored.invoice_number) && result.readTwoWays.length && result.answer === 'cannotTell') {
		const tellsApart = result.readTwoWays.filter((f) => FIELDS.find((x) => x.name === f)?.tellsApart === 'always');
		if (tellsApart.length) {
			result.answer = 'different';
			apartBy.push(...tellsApart);
		}
	}
}

/** Types of which a policy term has one: a second, different one is asked, never filed in silence. */
const ONE_PER_TERM = new Set(['NEW', 'RENEWAL']);
/** What may differ between two New (or Renewal) transactions of one term that are still asked. */
const WITHIN_TERM = new Set(['net_premium', 'invoice_number', 'transaction_effective_date']);

/**
 * A row that would be a second New (or Renewal) of the policy's term (the same type, state,
 * dates and insurers as a stored one, another premium or invoice number) is asked as a
 * look-alike: five New transactions of one policy on one day are never filed in silence.
 */
function secondOfTerm(body: IDataObject, result: Comparison, apartBy: string[]) {
	const type = typeCode(body.type_code ?? DEFAULT_TYPE_CODE);
	if (!ONE_PER_TERM.has(type)) return;
	if (apartBy.some((field) => !WITHIN_TERM.has(field))) return;
	if (result.readTwoWays.some((field) => field === 'effective_date' || field === 'expiration_date')) return;
	result.answer = 'cannotTell';
	result.secondOfTerm = true;
	result.differences.push({
		field: 'type',
		row: type,
		stored: `${type} of the same term (one per policy term)`,
	});
}

/** What `stored` (a transaction the listing shows) is to the filing `body` would make. */
export function compareWithStored(
	stored: IDataObject,
	body: IDataObject,
	known: readonly ComparedField[] = [],
): Comparison {
	return compare(body, stored, true, known);
}

/**
 * A stored invoice the row's mark already recognised, field by field: whether the service holds
 * what the row says (Reconcile Sheet's "as the sheet says" or "differently"; for filing, the mark
 * alone decides that the row is filed). A value that reads two ways, one of them the row's, is no
 * difference here: the mark says which invoice it is.
 */
export function compareMarkedWithStored(stored: IDataObject, body: IDataObject): Comparison {
	const result = compare(body, stored, true, [], false);
	const real = result.differs.filter((field) => !result.readTwoWays.includes(field));
	const differences = result.differences.filter((d) => real.includes(String(d.field)));
	const same = real.length === 0;
	return {
		...result,
		answer: same ? 'same' : 'different',
		same,
		differs: real,
		differences,
		inForm: [...result.inForm, ...result.readTwoWays],
	};
}

/** Whether two rows of one run send the same filing (the same rule, both sides as sent, no form). */
export function sameSentFiling(a: IDataObject, b: IDataObject): boolean {
	return compare(a, b, false, []).same;
}

/**
 * Whether `later`, a row of the run, would be a second, different New (or Renewal) of the term
 * `earlier` (an earlier row of the run) files: the comparison, else undefined.
 */
export function secondOfTermInRun(earlier: IDataObject, later: IDataObject): Comparison | undefined {
	const result = compare(later, earlier, false, []);
	return result.secondOfTerm ? result : undefined;
}

const BUCKET_FIELDS = new Set(['policy_number', 'type', 'effective_date', 'net_premium']);

/**
 * A row's policy, type, effective date and premium in the rule's form: two rows can only be the
 * same filing when these are equal, so rows of one run are compared only within their bucket.
 */
export function filingBucket(body: IDataObject): string {
	return FIELDS.filter((field) => BUCKET_FIELDS.has(field.name))
		.map((field) => canonicalJson(field.row(body, false)))
		.join('|');
}

/** The sentence an item gets about what the rule compared. */
export function comparedNote(comparison: Comparison): string {
	const not = comparison.notComparable.length
		? `; not comparable: ${comparison.notComparable.join(', ')}`
		: '';
	const form = comparison.inForm.length
		? `; matched only in form (the service shows them otherwise): ${comparison.inForm.join(', ')}`
		: '';
	const by = comparison.recognisedBy?.startsWith('mark ')
		? `Recognised by its ${comparison.recognisedBy} (the invoice number the row is filed with). `
		: '';
	const twoWays = comparison.readTwoWays.length
		? `; matched only through one of two readings: ${comparison.readTwoWays.join(', ')}`
		: '';
	return `${by}Compared: ${comparison.compared.join(', ')}${form}${twoWays}${not}.`;
}
