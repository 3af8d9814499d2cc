/**
 * Transaction types as bordereaux and filing platforms write them, read to the service's four
 * (NEW, RENEWAL, ENDORSEMENT, CANCELLATION), and the sign rules of the premiums they carry.
 *
 * Codes read: the service's own words and their usual shortenings (New, NB, Renewal, RN, Endt,
 * Cxl...), stamping-office codes (PN new policy, PR renewal, APE / RPE additional / return
 * premium endorsement, FC / PC flat / pro-rata cancellation) and the Lloyd's coverholder words
 * (Original, Additional, Return premium). Codes for transactions the service does not take (AE
 * audit endorsement, BD binder, RW rewrite, reinstatement) are refused with the reason; a code
 * that could mean two types ("RE") is refused rather than guessed.
 *
 * Signs: a code with a direction (APE, RPE, FC, PC, Additional, Return) decides how an unsigned
 * premium is read; a premium sign that contradicts the code is refused. On any endorsement or
 * cancellation the other amounts of the change (coverage and insurer amounts, billed taxes and
 * their pass-through twins) have the premium's sign: unsigned ones follow a returned premium,
 * one written against it is refused. A plain Cancellation with a positive premium is warned of
 * (warnings.ts), not changed.
 */
import type { IDataObject } from 'n8n-workflow';

import { BILLED_TAX_OF, MESSAGES, TYPE_CODES } from '../shared/rules';
import { type Read, isBlankValue, readAmount, squash } from '../shared/values';

export type TypeCode = (typeof TYPE_CODES)[number];
type Direction = 'additional' | 'return';

interface TransactionReading {
	code: TypeCode;
	/** What the sheet's word was read as, said on the item ("RPE: return premium endorsement"). */
	meaning: string;
	direction?: Direction;
}

const reading = (code: TypeCode, meaning: string, direction?: Direction) => ({
	code,
	meaning,
	direction,
});

const NEW_POLICY = reading('NEW', 'new policy');
const RENEWAL = reading('RENEWAL', 'renewal policy');
const ENDORSEMENT = reading('ENDORSEMENT', 'endorsement');
const CANCELLATION = reading('CANCELLATION', 'cancellation');
const ADDITIONAL = reading('ENDORSEMENT', 'additional premium endorsement', 'additional');
const RETURN = reading('ENDORSEMENT', 'return premium endorsement', 'return');
const FLAT_CANCEL = reading('CANCELLATION', 'flat cancellation, premium returned', 'return');
const PRO_RATA_CANCEL = reading(
	'CANCELLATION',
	'pro-rata cancellation, premium returned',
	'return',
);
const SHORT_RATE_CANCEL = reading(
	'CANCELLATION',
	'short-rate cancellation, premium returned',
	'return',
);

// ACORD transaction codes, as agency-management systems export them.
const ACORD_NEW = reading('NEW', 'ACORD NBS: new business');
const ACORD_RENEWAL = reading('RENEWAL', 'ACORD renewal (RWL/RNL)');
const ACORD_CHANGE = reading('ENDORSEMENT', 'ACORD PCH: policy change, an endorsement');
const ACORD_CANCEL = reading('CANCELLATION', 'ACORD XLN: cancellation');

/** Sheet words, lower case with letters and digits only, → their reading. */
const READINGS: Record<string, TransactionReading> = {
	nbs: ACORD_NEW,
	rwl: ACORD_RENEWAL,
	rnl: ACORD_RENEWAL,
	pch: ACORD_CHANGE,
	xln: ACORD_CANCEL,
	new: NEW_POLICY,
	newbusiness: NEW_POLICY,
	nb: NEW_POLICY,
	pn: NEW_POLICY,
	newpolicy: NEW_POLICY,
	original: NEW_POLICY,
	originalpremium: NEW_POLICY,
	renewal: RENEWAL,
	renew: RENEWAL,
	rn: RENEWAL,
	ren: RENEWAL,
	pr: RENEWAL,
	renewalpolicy: RENEWAL,
	renewalpremium: RENEWAL,
	endorsement: ENDORSEMENT,
	endt: ENDORSEMENT,
	end: ENDORSEMENT,
	policychange: ENDORSEMENT,
	ape: ADDITIONAL,
	ap: ADDITIONAL,
	additional: ADDITIONAL,
	additionalpremium: ADDITIONAL,
	additionalpremiumendorsement: ADDITIONAL,
	rpe: RETURN,
	rp: RETURN,
	return: RETURN,
	returnpremium: RETURN,
	returnpremiumendorsement: RETURN,
	cancellation: CANCELLATION,
	cancel: CANCELLATION,
	cancelled: CANCELLATION,
	canceled: CANCELLATION,
	canc: CANCELLATION,
	cxl: CANCELLATION,
	cnl: CANCELLATION,
	can: CANCELLATION,
	cnx: CANCELLATION,
	cncl: CANCELLATION,
	canx: CANCELLATION,
	fc: FLAT_CANCEL,
	flatcancel: FLAT_CANCEL,
	flatcancellation: FLAT_CANCEL,
	pc: PRO_RATA_CANCEL,
	proratacancel: PRO_RATA_CANCEL,
	proratacancellation: PRO_RATA_CANCEL,
	src: SHORT_RATE_CANCEL,
	shortratecancel: SHORT_RATE_CANCEL,
	shortratecancellation: SHORT_RATE_CANCEL,
};

const NOT_INVOICES =
	'which cannot be filed as an invoice (the service takes no audits, reinstatements or rewrites)';

/** Transactions the service does not take, with why. */
const REFUSED: Record<string, string> = {
	ae: `is an audit endorsement, ${NOT_INVOICES}`,
	audit: `is an audit, ${NOT_INVOICES}`,
	auditendorsement: `is an audit endorsement, ${NOT_INVOICES}`,
	auditpremium: `is an audit premium, ${NOT_INVOICES}`,
	ri: `is a reinstatement, ${NOT_INVOICES}`,
	rei: `is a reinstatement, ${NOT_INVOICES}`,
	reinstatement: `is a reinstatement, ${NOT_INVOICES}`,
	reinstate: `is a reinstatement, ${NOT_INVOICES}`,
	reinstated: `is a reinstatement, ${NOT_INVOICES}`,
	rw: `is a rewrite, ${NOT_INVOICES}; file a cancellation of the old policy and the new policy`,
	rewrite: `is a rewrite, ${NOT_INVOICES}; file a cancellation of the old policy and the new policy`,
	bd: 'is a binder: a binder is not filed as an invoice; file the policy once it is issued (PN, new policy)',
	binder:
		'is a binder: a binder is not filed as an invoice; file the policy once it is issued (PN, new policy)',
	aud: `is an audit (ACORD AUD), ${NOT_INVOICES}`,
	rew: `is a rewrite (ACORD REW), ${NOT_INVOICES}; file a cancellation of the old policy and the new policy`,
	nbq: 'is a new-business quote (ACORD NBQ): a quote is not filed; file the policy once it is bound and issued (NBS)',
	rix: `is a reissue (ACORD RIX), ${NOT_INVOICES}; file the changes as an endorsement (PCH)`,
	re: 'could be a renewal, a return premium or a reinstatement; write RN/PR, RPE or the type itself',
};

/** The reading of a sheet's transaction type, or why it is refused. Blank gives undefined. */
export function readTransaction(value: unknown): Read<TransactionReading | undefined> {
	if (isBlankValue(value)) return { ok: true, value: undefined };
	if (typeof value !== 'string') return { ok: false, message: MESSAGES.typeCode };
	const key = squash(value);
	const found = READINGS[key];
	if (found) return { ok: true, value: found };
	const why = REFUSED[key];
	return {
		ok: false,
		message: why ? `"${value.trim()}" ${why}. ${MESSAGES.typeCode}` : MESSAGES.typeCode,
	};
}

/** A transaction type from its code or a sheet's word for it ("New", "PN", "RPE", "Cxl"). */
export function readTypeCode(value: unknown): Read<string | undefined> {
	const read = readTransaction(value);
	return read.ok ? { ok: true, value: read.value?.code } : read;
}

/** A value the sign rules changed, said on the item with `_converted`'s other entries. */
interface SignedAmount {
	field: string;
	from: unknown;
	to: number;
	why: string;
}

interface SignReading {
	body: IDataObject;
	/** The type's reading, when the sheet's word was not the type's own name in some case. */
	typeNote?: { from: string; to: TypeCode; why: string };
	signed: SignedAmount[];
	problems: string[];
}

type Written = '-' | '+' | 'unsigned' | 'zero' | 'unread';

/** How the sheet wrote an amount's sign: a minus (or accounting brackets), a plus, or none. */
function writtenSign(raw: unknown): Written {
	const read = readAmount(raw);
	if (!read.ok || read.value === undefined) return 'unread';
	if (read.value === 0) return 'zero';
	if (read.value < 0) return '-';
	return typeof raw === 'string' && /^\s*\+/.test(raw) ? '+' : 'unsigned';
}

const list = (value: unknown) =>
	Array.isArray(value) ? (value as unknown[]).filter((v) => v && typeof v === 'object') : [];

type Step = string | number;

/**
 * Where the amounts of the change besides the premium are, which the service wants with the
 * premium's sign: coverage amounts and their limits' premiums, insurer amounts, billed tax lines
 * and the pass-through twins stored in a tax's column (filing_fee, clearinghouse_fee,
 * fire_marshall_tax). Policy, inspection and broker fees are not: they keep the sheet's sign.
 */
function changeAmounts(body: IDataObject): Step[][] {
	const found: Step[][] = [];
	list(body.coverages).forEach((c, n) => {
		found.push(['coverages', n, 'amount']);
		list((c as IDataObject).limits).forEach((_, m) =>
			found.push(['coverages', n, 'limits', m, 'premium']),
		);
	});
	list(body.insurers).forEach((i, n) => {
		found.push(['insurers', n, 'amount']);
		list((i as IDataObject).companies).forEach((_, m) =>
			found.push(['insurers', n, 'companies', m, 'amount']),
		);
	});
	list(body.fees).forEach((f, n) => {
		if (BILLED_TAX_OF.has(String((f as IDataObject).type))) found.push(['fees', n, 'amount']);
	});
	return found;
}

const valueAt = (value: unknown, steps: Step[]): unknown =>
	steps.reduce<unknown>(
		(at, step) => (at && typeof at === 'object' ? (at as Record<Step, unknown>)[step] : undefined),
		value,
	);

const pathText = (steps: Step[]) =>
	steps.map((s, n) => (typeof s === 'number' ? `[${s}]` : n ? `.${s}` : s)).join('');

/** Transactions whose amounts are the amounts of a change, negative when premium is returned. */
const CHANGES = new Set<TypeCode>(['ENDORSEMENT', 'CANCELLATION']);

/** Whether a raw body is a change whose premium is returned, and whether its type said so. */
function returnedPremium(raw: IDataObject): { returned: boolean; byType: boolean } {
	const read = readTransaction(raw.type_code);
	const premium = writtenSign(raw.net_premium);
	if (!read.ok || !read.value || !CHANGES.has(read.value.code))
		return { returned: false, byType: false };
	const byType = read.value.direction === 'return' && premium === 'unsigned';
	return { returned: byType || premium === '-', byType };
}

/**
 * An amount of the raw body as it will be filed: on a change with premium returned, an unsigned
 * amount is negative (so the sum rules compare what is sent). Undefined when it is not an amount.
 */
export function signedAmountReader(raw: IDataObject): (value: unknown) => number | undefined {
	const { returned } = returnedPremium(raw);
	return (value) => {
		const read = readAmount(value);
		if (!read.ok || read.value === undefined) return undefined;
		return returned && writtenSign(value) === 'unsigned' ? -read.value : read.value;
	};
}

/**
 * Applies the sign rules to a checked body (`raw` is the body as given, for the signs the sheet
 * wrote). On an endorsement or a cancellation every amount of the change has the premium's sign:
 * with a returned premium (written negative, or unsigned under a return code) the unsigned ones
 * are filed negative and one written `+` is refused; with a positive premium one written negative
 * is refused. The checked body is not changed; a new one is returned when a sign was set.
 */
export function readTransactionSigns(raw: IDataObject, checked: IDataObject): SignReading {
	const result: SignReading = { body: checked, signed: [], problems: [] };
	const read = readTransaction(raw.type_code);
	if (!read.ok || !read.value) return result;
	const { code, meaning, direction } = read.value;
	const word = String(raw.type_code).trim();
	if (squash(word) !== squash(code))
		result.typeNote = { from: word, to: code, why: `${word}: ${meaning}` };
	const premium = writtenSign(raw.net_premium);
	if (premium === 'zero' || premium === 'unread') return result;

	const shown = String(raw.net_premium).trim();
	if (direction === 'additional' && premium === '-') {
		result.problems.push(
			`net_premium: ${shown} is negative, but type_code "${word}" is an additional premium; write the premium positive, or give a return type (RPE)`,
		);
	} else if (direction === 'return' && premium === '+') {
		result.problems.push(
			`net_premium: ${shown} is written positive, but type_code "${word}" returns premium; write it unsigned or negative`,
		);
	}
	if (result.problems.length || !CHANGES.has(code)) return result;

	const { returned, byType } = returnedPremium(raw);
	// Unsigned amounts follow a returned premium, said in `_converted`; a sign the sheet wrote
	// against the premium's is refused, naming the amount (and so its column).
	const why = byType
		? `${word} returns premium: an unsigned amount is filed negative`
		: `the premium ${shown} is returned: an unsigned amount of the change is filed negative`;
	const body = JSON.parse(JSON.stringify(checked)) as IDataObject;
	const amounts = byType ? [['net_premium'], ...changeAmounts(body)] : changeAmounts(body);
	for (const steps of amounts) {
		const holder = valueAt(body, steps.slice(0, -1)) as Record<Step, unknown>;
		const key = steps[steps.length - 1];
		const value = holder[key];
		const from = valueAt(raw, steps);
		const sign = writtenSign(from);
		if (typeof value !== 'number' || value === 0) continue;
		const at = pathText(steps);
		if (returned && sign === '+') {
			result.problems.push(
				`${at}: ${String(from).trim()} is written positive, but the premium (${shown}) is returned and every amount of a change has the premium's sign; write it unsigned or negative`,
			);
		} else if (!returned && sign === '-') {
			result.problems.push(
				`${at}: ${String(from).trim()} is negative, but the premium (${shown}) is positive and every amount of a change has the premium's sign; write it positive, or the premium negative`,
			);
		} else if (returned && sign === 'unsigned' && value > 0) {
			holder[key] = -value;
			result.signed.push({ field: at, from, to: -value, why });
		}
	}
	if (result.problems.length) return { ...result, signed: [] };
	result.body = body;
	return result;
}
