/**
 * Map Automatically: what a row's columns give when more than one column gives a field, and what
 * becomes of the columns whose words name something the package knows but that are not one of
 * the service's fields (a cancellation date, a booking date, an endorsement number, a fee with a
 * state in its name). Nothing here is settled by a column's rank when the values differ: the row
 * is refused naming the columns and values, or one of the domain rules below decides and the
 * item says so (`_columnRules`); a column not used is listed with why (`_ignoredColumns`).
 *
 * Domain rules (the docs list them):
 * - state: a Home State column over any other state column, the home state being the taxing
 *   state for surplus lines (the Nonadmitted and Reinsurance Reform Act);
 * - premium: a Gross premium column over a Net one: the service's net_premium is the premium
 *   the insured is charged, on which the state taxes, and commission is its own field;
 * - type: a code with a direction (RPE, APE, FC, PC, Return, Additional) over a plain word of
 *   the same type ("Endorsement", "Cancellation"): the code says which way the premium goes;
 * - a cancellation date on a cancellation row is its date of the change
 *   (transaction_effective_date); on another row it is not used;
 * - an endorsement or transaction number is the invoice number when no column gives one;
 * - "Transaction Date" (and booking or entry dates) is read as the day the transaction was
 *   booked, not as the date of the change: not used, and an endorsement or cancellation that
 *   has no other date of the change is refused rather than filed dated at inception;
 * - a fee with a state in its name ("TX Stamping Fee") is that state's: used on a row of that
 *   state, refused on a row of another state when it holds an amount.
 */
import type { IDataObject } from 'n8n-workflow';

import { headerWords } from './columnWords';
import { readTransaction } from './transactionTypes';
import {
	isBlankValue,
	readAmount,
	readDate,
	readPercent,
	readStateCode,
} from '../shared/values';

/** One column of the row that gives a field. */
export interface Candidate {
	name: string;
	rank: number;
	value: unknown;
	/** A fee column named for a state ("TX Stamping Fee"): that state's code. */
	state?: string;
}

/** How a field's values are compared: as amounts, dates, states, types or text. */
export type ValueKind = 'amount' | 'date' | 'state' | 'type' | 'text';

/** A column not used, with why. */
export interface IgnoredColumn {
	column: string;
	value: unknown;
	reason: string;
}

/** A field a domain rule decided between columns, or took from a column that is not its own. */
export interface ColumnRule {
	field: string;
	column: string;
	value: unknown;
	/** The columns it was chosen over, with their values. */
	over?: Array<{ column: string; value: unknown }>;
	rule: string;
}

export interface SettledColumns {
	values: IDataObject;
	names: Record<string, string>;
	problems: string[];
	ignored: IgnoredColumn[];
	rules: ColumnRule[];
}

/** Column ids read from a row's headers that are not fields of the request. */
export const READ_ONLY_COLUMNS = [
	'cancellation_date',
	'booking_date',
	'transaction_reference',
	'address_state',
	'tax_exempt',
	'commission_percent',
];

const shown = (value: unknown) =>
	typeof value === 'string' ? value.trim() : JSON.stringify(value ?? null);

/** A value as compared between two columns: "$1,000" and 1000 agree, "Texas" and "TX" too. */
function comparable(kind: ValueKind, value: unknown): string {
	const read =
		kind === 'amount'
			? readAmount(value)
			: kind === 'date'
				? readDate(value)
				: kind === 'state'
					? readStateCode(value)
					: undefined;
	if (read?.ok && read.value !== undefined) return String(read.value);
	if (kind === 'type') {
		const type = readTransaction(value);
		if (type.ok && type.value) return `${type.value.code}/${type.value.direction ?? ''}`;
	}
	return String(value).trim().toLowerCase();
}

const byRank = (a: Candidate, b: Candidate) => a.rank - b.rank;
const words = (c: Candidate) => headerWords(c.name);

const disagree = (field: string, list: Candidate[]) =>
	`${field}: columns ${list.map((c) => `"${c.name}" (${shown(c.value)})`).join(' and ')} give this field different values, so the row is not filed; make them agree, leave one empty, or map the columns by hand (Map Each Column Manually)`;

const HOME_STATE_RULE =
	'the Home State column is used: the insured’s home state is the taxing state for surplus lines';
const GROSS_RULE =
	'the Gross premium column is used: net_premium is the premium charged to the insured, which the state taxes; a net premium is net of commission (send commission in its own column)';
const DIRECTION_RULE =
	'the code’s direction is used over the plain word: it says whether premium is added or returned';

/**
 * A domain rule that picks one of several disagreeing columns, or undefined. `groups` holds the
 * distinct values, each with its columns, best rank first.
 */
function domainPick(
	field: string,
	groups: Candidate[][],
): { pick: Candidate; rule: string } | undefined {
	const only = (test: (c: Candidate) => boolean) => {
		const chosen = groups.filter((g) => g.some(test));
		// One value among the rule's columns, and every other value from columns the rule outranks.
		return chosen.length === 1 ? chosen[0].find(test) : undefined;
	};
	if (field === 'state_code') {
		const pick = only((c) => words(c).includes('home'));
		if (pick) return { pick, rule: HOME_STATE_RULE };
	}
	if (field === 'net_premium') {
		const gross = (c: Candidate) => words(c).includes('gross');
		const pick = only(gross);
		const othersNet = groups
			.filter((g) => !g.some(gross))
			.every((g) => g.every((c) => words(c).includes('net')));
		if (pick && othersNet) return { pick, rule: GROSS_RULE };
	}
	if (field === 'type_code') {
		const readings = groups.map((g) => readTransaction(g[0].value));
		if (readings.some((r) => !r.ok || !r.value)) return undefined;
		const codes = new Set(readings.map((r) => r.ok && r.value?.code));
		const directions = new Set(readings.flatMap((r) => (r.ok && r.value?.direction) || []));
		if (codes.size !== 1 || directions.size !== 1) return undefined;
		const withDirection = groups.find((_, n) => {
			const r = readings[n];
			return r.ok && r.value?.direction;
		});
		if (withDirection) return { pick: withDirection[0], rule: DIRECTION_RULE };
	}
	return undefined;
}

/** One field from its columns: the one non-empty value, the values that agree, or a rule. */
function settleField(
	field: string,
	kind: ValueKind,
	candidates: Candidate[],
	out: SettledColumns,
): void {
	const sorted = [...candidates].sort(byRank);
	const filled = sorted.filter((c) => !isBlankValue(c.value));
	const use = (c: Candidate) => {
		out.values[field] = c.value as IDataObject[string];
		out.names[field] = c.name;
	};
	if (filled.length <= 1) return use(filled[0] ?? sorted[0]);
	const groups = new Map<string, Candidate[]>();
	for (const c of filled) {
		const key = comparable(kind, c.value);
		groups.set(key, [...(groups.get(key) ?? []), c]);
	}
	if (groups.size === 1) return use(filled[0]);
	const decided = domainPick(field, [...groups.values()]);
	if (!decided) {
		// Kept only to name the column in the messages: a row with a problem is never filed.
		use(filled[0]);
		out.problems.push(disagree(field, filled));
		return;
	}
	use(decided.pick);
	const key = comparable(kind, decided.pick.value);
	out.rules.push({
		field,
		column: decided.pick.name,
		value: decided.pick.value,
		over: filled
			.filter((c) => comparable(kind, c.value) !== key)
			.map((c) => ({ column: c.name, value: c.value })),
		rule: decided.rule,
	});
}

const CHANGE_TYPES = new Set(['ENDORSEMENT', 'CANCELLATION']);

/** The row's type as the service's code (NEW when no column gives one), or undefined unread. */
function rowType(values: IDataObject): string | undefined {
	const read = readTransaction(values.type_code);
	if (!read.ok) return undefined;
	return read.value?.code ?? 'NEW';
}

const CANCELLATION_DATE_RULE =
	'a cancellation date on a cancellation row is its date of the change';
const REFERENCE_RULE =
	'an endorsement or transaction number is sent as the invoice number when no column gives one, so two transactions that differ only there are kept apart';

/** A field taken from a column that is not its own, said on the item. */
function takeFrom(
	out: SettledColumns,
	field: string,
	column: string,
	value: unknown,
	rule: string,
) {
	out.values[field] = value as IDataObject[string];
	out.names[field] = column;
	out.rules.push({ field, column, value, rule });
}

/**
 * A commission percent: the commission is the premium times it, said in `_columnRules`; beside
 * a Commission column it must agree with it, or the row is refused naming both.
 */
function settleCommissionPercent(column: string, value: unknown, out: SettledColumns): void {
	const percent = readPercent(value);
	const premium = readAmount(out.values.net_premium);
	if (!percent.ok || percent.value === undefined || !premium.ok || premium.value === undefined) {
		out.problems.push(
			`commission: column "${column}" (${shown(value)}) is a commission percent, and ${percent.ok ? 'the premium is not read' : 'it is not read as a percent'}, so the commission cannot be worked out and the row is not filed`,
		);
		return;
	}
	const commission = Math.round(premium.value * percent.value) / 100;
	const how = `the commission is the premium ${premium.value} × ${percent.value}% = ${commission}`;
	if (isBlankValue(out.values.commission)) {
		takeFrom(out, 'commission', column, commission, `${how} (column "${column}")`);
		return;
	}
	const given = readAmount(out.values.commission);
	if (given.ok && given.value !== undefined && Math.abs(given.value - commission) <= 0.01) {
		out.ignored.push({
			column,
			value,
			reason: `agrees with column "${out.names.commission}": ${how}`,
		});
		return;
	}
	out.problems.push(
		`commission: columns "${out.names.commission}" (${shown(out.values.commission)}) and "${column}" (${shown(value)}) disagree: ${how}, so the row is not filed; make them agree or leave one empty`,
	);
}

const NOT_EXEMPT = new Set(['n', 'no', 'false', '0', 'none', 'notexempt']);
const EXEMPT = new Set(['y', 'yes', 'true', '1', 'x', 'exempt', 'taxexempt']);

/**
 * A tax exemption column: "N" is listed (not exempt); "Y" refuses the row, since the package
 * cannot tell which taxes the exemption covers and billing them would file what the sheet does
 * not say; anything else refuses the row as unread.
 */
function settleExempt(column: string, value: unknown, out: SettledColumns): void {
	const key = String(value)
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '');
	if (NOT_EXEMPT.has(key)) {
		out.ignored.push({ column, value, reason: 'the row is not tax exempt: nothing to change' });
		return;
	}
	const said = EXEMPT.has(key)
		? 'marks the row exempt from tax; the package does not know which taxes the exemption covers, so the row is not filed rather than billed a tax the sheet says is not due: give each tax column its amount (0 for an exempt tax, which is filed as 0 and kept over the computed tax), then leave this column out (Columns Not to File)'
		: 'is not read as exempt or not exempt (write Y or N), so the row is not filed';
	out.problems.push(`column "${column}" (${shown(value)}) ${said}`);
}

/** The read-only columns' meaning on this row: used for a field, not used, or a refusal. */
function settleReadOnly(
	pseudo: IDataObject,
	pseudoNames: Record<string, string>,
	out: SettledColumns,
): void {
	const type = rowType(out.values);
	const has = (field: string) => !isBlankValue(out.values[field]);
	// An empty cell (a sheet read with its empty cells kept) is nothing to use and nothing to say.
	const given = (id: string) => (isBlankValue(pseudo[id]) ? undefined : pseudoNames[id]);
	const cancel = given('cancellation_date');
	if (cancel) {
		const value = pseudo.cancellation_date;
		if (type !== 'CANCELLATION') {
			out.ignored.push({
				column: cancel,
				value,
				reason: `a cancellation date, and this row is ${type ? `a ${type}` : 'of an unread type'}: only a cancellation row files one (as its date of the change)`,
			});
		} else if (!has('transaction_effective_date')) {
			takeFrom(out, 'transaction_effective_date', cancel, value, CANCELLATION_DATE_RULE);
		} else if (
			comparable('date', value) !== comparable('date', out.values.transaction_effective_date)
		) {
			out.problems.push(
				disagree('transaction_effective_date', [
					{
						name: out.names.transaction_effective_date,
						rank: 0,
						value: out.values.transaction_effective_date,
					},
					{ name: cancel, rank: 0, value },
				]),
			);
		}
	}
	const booking = given('booking_date');
	if (booking) {
		const value = pseudo.booking_date;
		if (type && CHANGE_TYPES.has(type) && !has('transaction_effective_date')) {
			out.problems.push(
				`transaction_effective_date: column "${booking}" (${shown(value)}) is read as the day the transaction was booked, not the date of the ${type.toLowerCase()}, and no other column gives that date, so the row is not filed (it would be dated at the policy's inception); name the column of the date of the change "Transaction Effective Date" (or "Endorsement Effective Date", "Cancellation Date"), or map it by hand`,
			);
		} else {
			out.ignored.push({
				column: booking,
				value,
				reason: has('transaction_effective_date')
					? `read as the day the transaction was booked; the date of the change is column "${out.names.transaction_effective_date}"`
					: 'read as the day the transaction was booked, which the service does not take; a new or renewal policy is dated by its effective date',
			});
		}
	}
	const address = given('address_state');
	if (address) {
		out.ignored.push({
			column: address,
			value: pseudo.address_state,
			reason:
				'an address’s state (where the insured gets mail), not the state where the risk is taxed; not used',
		});
	}
	const percent = given('commission_percent');
	if (percent) settleCommissionPercent(percent, pseudo.commission_percent, out);
	const exempt = given('tax_exempt');
	if (exempt) settleExempt(exempt, pseudo.tax_exempt, out);
	const reference = given('transaction_reference');
	if (reference) {
		const value = pseudo.transaction_reference;
		if (has('invoice_number')) {
			out.ignored.push({
				column: reference,
				value,
				reason: `an endorsement or transaction number; the invoice number is column "${out.names.invoice_number}"`,
			});
		} else {
			takeFrom(out, 'invoice_number', reference, value, REFERENCE_RULE);
		}
	}
}

/** A fee header that starts with a state's code ("NY Stamping Fee"). */
const STATE_CODE_FIRST = /^\s*[A-Za-z]{2}[\s_:-]+/;

/**
 * A fee column named for a state: a fee of the row's state joins the fee's other columns; an
 * amount for another state is refused; empty or 0 is no fee.
 */
function scopedFees(
	field: string,
	list: Candidate[],
	rowState: string | undefined,
	out: SettledColumns,
): Candidate[] {
	const kept: Candidate[] = [];
	for (const c of list) {
		const amount = readAmount(c.value);
		if (!c.state || isBlankValue(c.value) || (amount.ok && amount.value === 0)) {
			if (!c.state) kept.push(c);
			continue;
		}
		if (c.state === rowState) {
			kept.push(c);
			out.rules.push({
				field: `fees (${field.slice('fee_'.length)})`,
				column: c.name,
				value: c.value,
				rule: `a fee named for ${c.state} is filed on a ${c.state} row`,
			});
		} else {
			out.problems.push(
				`fees: column "${c.name}" (${shown(c.value)}) is a fee for ${c.state}, but the row's state is ${rowState ?? 'not read'}, so the row is not filed; move the amount to the row's state's column or a column without a state${STATE_CODE_FIRST.test(c.name) ? ` ("${c.name.replace(STATE_CODE_FIRST, '')}")` : ''}`,
			);
		}
	}
	return kept;
}

/** Every field from the row's columns, by the rules above. */
export function settleColumns(
	candidates: Map<string, Candidate[]>,
	kindOf: (id: string) => ValueKind,
): SettledColumns {
	const out: SettledColumns = { values: {}, names: {}, problems: [], ignored: [], rules: [] };
	// The state first: a fee named for a state is read against it.
	const states = candidates.get('state_code');
	if (states) settleField('state_code', 'state', states, out);
	const rowState = readStateCode(out.values.state_code);
	const pseudo: SettledColumns = { values: {}, names: {}, problems: [], ignored: [], rules: [] };
	for (const [field, list] of candidates) {
		if (field === 'state_code') continue;
		const own = field.startsWith('fee_')
			? scopedFees(field, list, rowState.ok ? rowState.value : undefined, out)
			: list;
		if (!own.length) continue;
		settleField(field, kindOf(field), own, READ_ONLY_COLUMNS.includes(field) ? pseudo : out);
	}
	out.problems.push(...pseudo.problems);
	settleReadOnly(pseudo.values, pseudo.names, out);
	return out;
}
