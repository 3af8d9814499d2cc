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

import { DEFAULT_TYPE_CODE, FEE_ALIAS_PAIRS, FEE_CODES } from '../../shared/rules';
import { canonicalJson } from './canonical';

/** What the rule compared for one stored transaction (or one earlier row). */
export interface Comparison {
	same: boolean;
	/** Fields compared (all equal when `same`). */
	compared: string[];
	/** Fields that differ. */
	differs: string[];
	/** Fields the row sends that could not be compared, each with why. */
	notComparable: string[];
}

/** Fields the caller already knows are the row's (the 409 on a derived key proves all but tax lines). */
export type ComparedField = 'tax_lines';

const NOT_SHOWN = Symbol('not shown');
type Read = string | string[] | typeof NOT_SHOWN;

const blank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Free text as the key reads it: trimmed (the canonical body trims), letter case kept. */
const text = (value: unknown): string => (blank(value) ? '' : String(value).trim());

/** A code or a name looked up by the service: letter case does not matter. */
const code = (value: unknown): string => text(value).toLowerCase();

const cents = (value: unknown): string => {
	if (blank(value)) return '';
	const n = Number(value);
	return Number.isFinite(n) ? String(Math.round(n * 100)) : text(value);
};

/** YYYY-MM-DD from the forms a date may come in (ISO with a time, MM/DD/YYYY). */
const day = (value: unknown): string => {
	const raw = text(value);
	const iso = /^(\d{4}-\d{2}-\d{2})/.exec(raw);
	if (iso) return iso[1];
	const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
	return us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : raw;
};

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

/**
 * Fee lines (`taxes`: the tax columns, else the others) as `column:cents`, sorted. `asStored`: as
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
					? 'pct:10000'
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

interface Field {
	name: string;
	/** The row's value; `sent`: whether the row gives the field at all. */
	row: (body: IDataObject, asStored: boolean) => Read;
	sent: (body: IDataObject) => boolean;
	/** The stored transaction's value as the listing shows it (NOT_SHOWN when it does not). */
	stored: (invoice: IDataObject) => Read;
	/** Why a field the listing does not show cannot be compared. */
	why?: string;
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
/** A field read the same way from the row and from the listing, under one name. */
const plain = (name: string, read: (value: unknown) => Read): Field => ({
	name,
	row: (body) => read(body[name]),
	sent: has(name),
	stored: (invoice) => shown(invoice, name, read),
});

/** A field the listing does not show: compared only between two rows of one run. */
const unshown = (name: string, why = 'the listing does not show it'): Field => ({
	name,
	row: (body) => canonicalJson(body[name] ?? null),
	sent: has(name),
	stored: () => NOT_SHOWN,
	why,
});

/** Fee lines of the tax columns (`taxes`) or the others. */
const fees = (name: string, taxes: boolean): Field => ({
	name,
	row: (body, asStored) => feeLines(body.fees, state(body), taxes, asStored),
	sent: has('fees'),
	stored: (i) => ('fees' in i ? feeLines(i.fees, storedState(i), taxes, true) : NOT_SHOWN),
});

const FIELDS: readonly Field[] = [
	plain('policy_number', text),
	{
		name: 'state',
		row: state,
		sent: has('state_code'),
		stored: (i) => ('state' in i ? storedState(i) : NOT_SHOWN),
	},
	plain('insured_name', text),
	{
		name: 'type',
		row: (b) => typeCode(b.type_code ?? DEFAULT_TYPE_CODE),
		sent: () => true,
		stored: (i) => shown(i, 'type', typeCode),
	},
	plain('effective_date', day),
	plain('expiration_date', day),
	{
		// Shown only on accounts with the feature, as effective_date when none was sent.
		name: 'transaction_effective_date',
		row: (b) => day(b.transaction_effective_date ?? b.effective_date),
		sent: has('transaction_effective_date'),
		stored: (i) => shown(i, 'transaction_effective_date', day),
		why: 'this account does not show it',
	},
	plain('net_premium', cents),
	plain('invoice_number', text),
	{
		// The service stores effective_date when none was sent.
		name: 'invoice_date',
		row: (b) => day(b.invoice_date ?? b.effective_date),
		sent: has('invoice_date'),
		stored: (i) => shown(i, 'invoice_date', day),
	},
	plain('commission', cents),
	{
		name: 'lob',
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
	},
	plain('notes', text),
	fees('fees', false),
	fees('tax_lines', true),
	{
		name: 'insurers',
		row: (b) => rowInsurers(b.insurers),
		sent: has('insurers'),
		stored: (i) => shown(i, 'insurers', storedInsurers),
		match: (row, other, otherStored) =>
			otherStored
				? insurersMatch(row as string[], other as string[])
				: (row as string[]).join() === (other as string[]).join(),
	},
	{
		name: 'coverages',
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
];

function compare(
	body: IDataObject,
	other: IDataObject,
	otherStored: boolean,
	known: readonly ComparedField[],
): Comparison {
	const result: Comparison = { same: true, compared: [], differs: [], notComparable: [] };
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
		if (!equal) result.differs.push(field.name);
	}
	if (otherStored && list(body.fees).some((f) => code(f.type) === SET_BY_SERVICE))
		result.notComparable.push(`fees.${SET_BY_SERVICE} (the service may set it itself)`);
	result.same = result.differs.length === 0;
	return result;
}

/** Whether `stored` (a transaction the listing shows) is the filing `body` would make. */
export function compareWithStored(
	stored: IDataObject,
	body: IDataObject,
	known: readonly ComparedField[] = [],
): Comparison {
	return compare(body, stored, true, known);
}

/** Whether two rows of one run send the same filing (the same rule, both sides as sent). */
export function sameSentFiling(a: IDataObject, b: IDataObject): boolean {
	return compare(a, b, false, []).same;
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
	return `Compared: ${comparison.compared.join(', ')}${not}.`;
}
