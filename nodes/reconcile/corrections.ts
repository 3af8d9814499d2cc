/**
 * The change that makes the service agree with the sheet, for a row Reconcile Sheet answers
 * "filed differently". While the state has not accepted the filing (status not success) the
 * service lets the invoice change: an Update (PUT) of the fields that differ, the row's mark
 * included, so a later run recognises it by the mark. An accepted filing cannot change: it is
 * cancelled (a cancellation transaction returning what it filed) and the row filed again as the
 * sheet says, with its mark. Each transaction carries a mark of its own derived from what it is
 * (filing/mark.ts), and the cancellation says in its notes which invoice it corrects, so a re-run
 * finds what was sent and sends nothing twice, and Reconcile Sheet counts the corrected invoice
 * and its cancellation as the row's, not as invoices missing from the sheet.
 */
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../shared/service';
import { deriveIdempotencyKey } from '../filing/idempotency';
import { derivedMark, sameMark } from '../filing/mark';
import { compareMarkedWithStored } from '../filing/sameFiling';
import type { SheetDifference } from './sheetWords';

/** How a cancellation names the invoice it corrects (read back by `correctionOf`). */
const CORRECTS = 'Corrects invoice';
const CORRECTS_RULE = /\bCorrects invoice (\d+)\b/;

/** The invoice a correcting transaction corrects, from its notes; undefined for any other invoice. */
export function correctionOf(invoice: IDataObject): string | undefined {
	const notes = invoice.notes;
	return typeof notes === 'string' ? CORRECTS_RULE.exec(notes)?.[1] : undefined;
}

/** Body fields each compared field is sent in (an Update sends them as the row has them). */
const SENT_AS: Record<string, string[]> = {
	state: ['state_code'],
	type: ['type_code'],
	lob: ['lob_id', 'lob_name'],
	tax_lines: ['fees'],
};
/** What an Update sends for a field the row leaves empty (a field left out keeps the service's value). */
const EMPTY: IDataObject = { commission: 0, notes: '', fees: [], coverages: [], insurers: [], invoice_number: '' };

export type CorrectionAction = 'update' | 'cancel and refile';

export interface CorrectionRequest {
	method: 'PUT' | 'POST';
	path: string;
	body: IDataObject;
	/** What the request does, in a sentence. */
	what: string;
	/** A POST's own mark (its invoice_number): found on the policy, it was sent before. */
	mark?: string;
	idempotencyKey?: string;
}

export interface Correction {
	action: CorrectionAction;
	invoiceId: string;
	requests: CorrectionRequest[];
	/** The item's sentence: what will be (or was) done and why, with both sides' values. */
	said: string;
}

/** The row a correction is planned for: its create body as the account stores it, and its mark. */
export interface CorrectedRow {
	row: number;
	body: IDataObject;
	mark?: string;
}

const storedCode = (value: unknown) =>
	String((value && typeof value === 'object' ? (value as IDataObject).code : value) ?? '').toUpperCase();
const negative = (value: unknown) => {
	const n = Number(value);
	return Number.isFinite(n) && n !== 0 ? -n : 0;
};
const list = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as IDataObject[]) : [];

function updateBody(row: CorrectedRow, invoice: IDataObject, fields: readonly string[]): IDataObject {
	const body: IDataObject = {};
	for (const field of fields) {
		const paths = SENT_AS[field] ?? [field];
		const given = paths.filter((path) => row.body[path] !== undefined && row.body[path] !== null && row.body[path] !== '');
		if (given.length) for (const path of given) body[path] = row.body[path];
		else if (paths[0] in EMPTY) body[paths[0]] = EMPTY[paths[0]];
		else if (row.body[paths[0]] !== undefined) body[paths[0]] = row.body[paths[0]];
	}
	// The row's mark on its filing: a later run (and Create) recognises the invoice by it.
	if (row.mark && !sameMark(row.mark, invoice.invoice_number)) body.invoice_number = row.mark;
	// The type decides where a legacy account reads a change's date: sent with the dates.
	if ((body.effective_date || body.transaction_effective_date) && row.body.type_code) body.type_code = row.body.type_code;
	return body;
}

/** A cancellation returning what `invoice` filed, as of its own date, naming it in its notes. */
function cancellationOf(invoice: IDataObject, row: CorrectedRow): IDataObject {
	const body: IDataObject = {
		policy_number: invoice.policy_number,
		insured_name: invoice.insured_name,
		state_code: storedCode(invoice.state),
		type_code: 'CANCELLATION',
		net_premium: negative(invoice.net_premium),
		effective_date: invoice.effective_date,
		expiration_date: invoice.expiration_date,
		notes: `${CORRECTS} ${String(invoice.id)}: cancelled so that sheet row ${row.row} is filed again as the sheet says.`,
	};
	// A keyed account keeps the policy term and the change's date apart; a legacy one shows no
	// transaction_effective_date and its effective_date is already the transaction's date.
	if ('transaction_effective_date' in invoice)
		body.transaction_effective_date = invoice.transaction_effective_date ?? invoice.effective_date;
	const insurers = list(invoice.insurers)
		.filter((i) => i.company_id !== undefined && i.company_id !== null)
		.map((i) => (i.percent !== undefined && i.percent !== null ? { company_id: i.company_id, percent: i.percent } : { company_id: i.company_id, amount: negative(i.amount) }));
	if (insurers.length) body.insurers = insurers;
	const lob = invoice.lob as IDataObject | null | undefined;
	if (lob && lob.id !== undefined && lob.id !== null) body.lob_id = lob.id;
	const fees = list(invoice.fees)
		.filter((f) => negative(f.amount) !== 0)
		.map((f) => ({ type: f.type, amount: negative(f.amount) }));
	if (fees.length) body.fees = fees;
	return { ...body, invoice_number: derivedMark(body) };
}

/**
 * A POST of a correction. Its key is derived from the body and the invoice it corrects: the row
 * filed again sends the body Create sent first, whose own key a keyed account would replay (the
 * first filing returned, nothing filed) for 24 hours.
 */
const post = (body: IDataObject, what: string, corrects: string): CorrectionRequest => ({
	method: 'POST',
	path: PATHS.invoices,
	body,
	what,
	mark: String(body.invoice_number),
	idempotencyKey: deriveIdempotencyKey(PATHS.invoices, { corrects, body }),
});

/**
 * The correction of one "filed differently" row. `fields`: the rule's differing fields;
 * `differences`: the same in the sheet's words (said on the item).
 */
export function planCorrection(
	row: CorrectedRow,
	invoice: IDataObject,
	fields: readonly string[],
	differences: readonly SheetDifference[],
): Correction {
	const id = String(invoice.id);
	const both = differences.map((d) => `${d.column}: ${d.service} → ${d.sheet}`).join('; ');
	if (invoice.status !== 'success') {
		return {
			action: 'update',
			invoiceId: id,
			requests: [{ method: 'PUT', path: PATHS.invoice(id), body: updateBody(row, invoice, fields), what: `Update invoice ${id} (status ${String(invoice.status ?? 'unknown')}: the state has not accepted it, so it may change)` }],
			said: `Invoice ${id} is updated to what sheet row ${row.row} says (${both}); its status ${String(invoice.status ?? 'unknown')} lets it change.`,
		};
	}
	const refile = { ...row.body, ...(row.mark ? { invoice_number: row.mark } : {}) };
	return {
		action: 'cancel and refile',
		invoiceId: id,
		requests: [
			post(cancellationOf(invoice, row), `Cancel invoice ${id} (accepted by the state, so it cannot change): a cancellation returning its premium and fees`, id),
			post(refile, `File sheet row ${row.row} again as the sheet says, with its mark`, id),
		],
		said: `Invoice ${id} was accepted (status success) and cannot change: a cancellation returns it and sheet row ${row.row} is filed again as the sheet says (${both}).`,
	};
}

/**
 * Whether a POST of a correction was sent before: an invoice of the policy carries its mark (the
 * refiled row: and is as the row says). The account's listing, as the run read it, answers.
 */
export function sentBefore(request: CorrectionRequest, invoices: readonly IDataObject[]): IDataObject | undefined {
	if (request.method !== 'POST' || !request.mark) return undefined;
	return invoices.find(
		(invoice) =>
			sameMark(request.mark, invoice.invoice_number) &&
			(correctionOf(request.body) !== undefined
				? correctionOf(invoice) === correctionOf(request.body)
				: compareMarkedWithStored(invoice, request.body).same),
	);
}
