/**
 * Whether an invoice the service returned for a create is the row that was sent: its policy,
 * type, effective date and premium (in the comparison's forms, sameFiling.ts: the service keeps
 * values in its own case, number and date forms), and the row's mark where the service shows an
 * invoice number. A reply describing another filing (another policy's invoice, a neighbour's
 * batch result) is never output as the row's. Batch results are paired by what they describe,
 * the `index` only choosing between results that describe the row equally well.
 */
import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { serviceError } from '../shared/errors';
import type { Run } from '../shared/run';
import { MARK_FIELD } from '../shared/service';
import type { ApiReply } from '../shared/transport';
import { canonicalJson } from './canonical';
import { markForm, sameMark } from './mark';
import { FIELDS } from './sameFiling';

/** The fields a reply to a create must agree on with the row sent. */
const ASKED = ['policy_number', 'type', 'effective_date', 'net_premium'] as const;
const ASKED_FIELDS = FIELDS.filter((field) => (ASKED as readonly string[]).includes(field.name));

const shown = (value: unknown): string =>
	typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : String(value);

/**
 * The differences between the row sent and the invoice the service returned for it (empty when
 * the invoice is the row's): each as `field: sent "…", answered "…"`. A field the reply does not
 * show is no difference (readers are tolerant of missing fields).
 */
export function replyDifferences(invoice: IDataObject, body: IDataObject): string[] {
	const out: string[] = [];
	for (const field of ASKED_FIELDS) {
		const theirs = field.stored(invoice);
		if (typeof theirs === 'symbol') continue;
		const mine = field.row(body, true);
		const equal = field.match
			? field.match(mine, theirs, true)
			: canonicalJson(mine) === canonicalJson(theirs);
		if (equal || field.inForm?.(body, invoice)) continue;
		out.push(`${field.name}: sent "${shown(mine)}", answered "${shown(theirs)}"`);
	}
	const mark = body[MARK_FIELD];
	const stored = invoice[MARK_FIELD];
	if (markForm(mark) !== undefined && markForm(stored) !== undefined && !sameMark(mark, stored))
		out.push(`${MARK_FIELD}: sent "${String(mark)}", answered "${String(stored)}"`);
	return out;
}

/** Whether the returned invoice is the row's filing. */
export const describesRow = (invoice: unknown, body: IDataObject): boolean =>
	!!invoice &&
	typeof invoice === 'object' &&
	!Array.isArray(invoice) &&
	replyDifferences(invoice as IDataObject, body).length === 0;

/** A sentence naming what the service answered instead of the row. */
export function answeredInstead(invoice: unknown, body: IDataObject): string {
	if (!invoice || typeof invoice !== 'object' || Array.isArray(invoice))
		return 'the reply holds no invoice';
	const record = invoice as IDataObject;
	const differences = replyDifferences(record, body);
	return `the service answered with invoice ${shown(record.id ?? '(no id)').slice(0, 40)}, which is not this row (${differences.join('; ')})`;
}

/** One result of `POST /invoices/batch` (gaps.md): `{index, success, invoice?, error?}`. */
export type BatchResult = IDataObject;

/**
 * Pairs the batch reply's results with the rows sent (position in the chunk → result), or
 * leaves a row unpaired when nothing tells which result is its own. A successful result goes to
 * the row its invoice describes: the row at its `index` when that row is described, else the
 * first such row not yet paired. A failed result describes no row: it goes to the row at its
 * `index` only when the reply's numbering holds, that is when every successful result's invoice
 * describes the row at its own `index`. Results numbered from 1, or in another order, therefore
 * never give a row its neighbour's invoice or error.
 */
export function pairBatchResults(
	bodies: IDataObject[],
	results: BatchResult[],
): Map<number, BatchResult> {
	const paired = new Map<number, BatchResult>();
	const position = (result: BatchResult) => {
		const n = Number(result.index);
		return Number.isInteger(n) && n >= 0 && n < bodies.length ? n : undefined;
	};
	let numberingHolds = true;
	for (const result of results) {
		if (result.success !== true) continue;
		const at = position(result);
		if (at !== undefined && !paired.has(at) && describesRow(result.invoice, bodies[at])) {
			paired.set(at, result);
			continue;
		}
		numberingHolds = false;
		const other = bodies.findIndex(
			(body, n) => !paired.has(n) && describesRow(result.invoice, body),
		);
		if (other >= 0) paired.set(other, result);
	}
	if (!numberingHolds) return paired;
	for (const result of results) {
		if (result.success === true) continue;
		const at = position(result);
		if (at !== undefined && !paired.has(at)) paired.set(at, result);
	}
	return paired;
}

const NOT_THE_ROW = new WeakSet<NodeApiError>();

/**
 * The error of a create answered with an invoice that is not the row: it says what the service
 * answered, and that the row may or may not be stored (its policy's listing is read to tell).
 */
export function replyNotTheRow(
	ctx: Pick<Run, 'getNode'>,
	reply: ApiReply<unknown>,
	body: IDataObject,
	itemIndex: number,
) {
	const error = serviceError(
		ctx,
		{
			code: 'REPLY_NOT_THE_ROW',
			httpStatus: reply.statusCode,
			message: `${answeredInstead(reply.data, body)}; nothing of that reply is output as this row's filing`,
			requestId: reply.requestId,
		},
		{
			itemIndex,
			hint: `The row was not found on policy ${String(body.policy_number)} either, so whether the service stored it is not known: check the policy's transactions (Get Many) before running this item again. A cache or proxy between n8n and the service may answer for another request: check the Base URL.`,
		},
	);
	NOT_THE_ROW.add(error);
	return error;
}

export const isReplyNotTheRow = (error: unknown): error is NodeApiError =>
	error instanceof NodeApiError && NOT_THE_ROW.has(error);

/** The note of a row whose create was answered with another invoice, its own found on its policy. */
export const FOUND_DESPITE_REPLY = (error: unknown) =>
	`The create's reply was not this row (${(error as Error).message}); the row's filing was found among the policy's transactions instead.`;
