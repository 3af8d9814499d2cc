/**
 * One watch-list row as the data table holds it, and the invoice state it records. The state is
 * one text column ("status|filing|document=fetch,..."), so n8n's Data table node can update a row
 * only where it still holds the state a look read (a condition on one column), which is what
 * keeps two overlapping looks from sending the same change twice.
 */
import type { IDataObject } from 'n8n-workflow';

import { snapshot, type InvoiceSnapshot } from '../shared/invoiceState';

/** The data table's columns and types, as the docs and examples have users create them. */
export const WATCH_LIST_COLUMNS = [
	{ name: 'invoice_id', type: 'number' },
	{ name: 'policy_number', type: 'string' },
	{ name: 'state', type: 'string' },
	{ name: 'checked_at', type: 'string' },
	{ name: 'last_event', type: 'string' },
	{ name: 'settled', type: 'boolean' },
] as const;

export interface WatchRow {
	/** The data table's own row id (n8n adds it). */
	rowId?: number;
	invoiceId: number;
	policyNumber?: string;
	/** The state as stored (encoded). */
	state: string;
	/** When a look last read it, ms; undefined: never. */
	checkedAt?: number;
	itemIndex: number;
}

/**
 * The documents part: `id=status,...`, empty for an invoice known to have none, `?` when the
 * item had no list (a simplified output). An empty list is a list: the first document's first
 * status is a change from it, as in the trigger; only an unknown list has nothing to compare.
 */
const UNKNOWN_DOCUMENTS = '?';

/**
 * The state column: `status|filing|documents`, and `|r=<time>` while the invoice waits for
 * someone (a rejected filing, a status error): when it was last said, so a reminder comes once
 * per interval (the conditional update makes it once across overlapping looks, as a change).
 */
export function encodeState(snap: InvoiceSnapshot, remindedAt?: number): string {
	const docs = snap.d
		? Object.entries(snap.d)
				.sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b))
				.map(([id, status]) => `${id}=${status}`)
				.join(',')
		: UNKNOWN_DOCUMENTS;
	const reminded = remindedAt === undefined ? '' : `|r=${new Date(remindedAt).toISOString()}`;
	return `${snap.s ?? ''}|${snap.f ?? ''}|${docs}${reminded}`;
}

/** When the state column says the invoice's wait for someone was last said; undefined: never. */
export function remindedAtOf(state: string): number | undefined {
	const part = state.split('|').slice(3).find((tag) => tag.startsWith('r='));
	if (part === undefined) return undefined;
	const ms = Date.parse(part.slice(2));
	return Number.isNaN(ms) ? undefined : ms;
}

/** A state without its documents part (written by hand, or cut short) leaves them unknown. */
export function decodeState(state: string): InvoiceSnapshot {
	const [s, f, docs] = state.split('|');
	const d =
		docs === undefined || docs === UNKNOWN_DOCUMENTS
			? undefined
			: Object.fromEntries(
					docs
						.split(',')
						.filter(Boolean)
						.map((pair) => pair.split('=') as [string, string]),
				);
	return { s: s || undefined, f: f || undefined, d };
}

/**
 * The state of an invoice as the Invoice node output it (full or simplified: the simplified
 * item has `filing_state` and no documents) or as the service lists it.
 */
export function stateOfInvoice(invoice: IDataObject): string {
	const snap = snapshot(invoice);
	if (snap.f === undefined && typeof invoice.filing_state === 'string') snap.f = invoice.filing_state;
	return encodeState(snap);
}

/**
 * The state a row starts from when this run did not file the invoice (found already filed, or a
 * replayed reply): the invoice as filed (status new; filing not sent where the account reports
 * filings; documents unknown), not as read now. Recorded as it is now, a rejection made before
 * the re-run would be the row's starting point and never posted; from the filing, the first look
 * posts every move since, once (a copy of a row still on the list leaves it unposted).
 */
export function stateAsFiled(invoice: IDataObject): string {
	const hasFiling = snapshot(invoice).f !== undefined || typeof invoice.filing_state === 'string';
	return encodeState({ s: 'new', f: hasFiling ? 'not_sent' : undefined, d: undefined });
}

function positiveInteger(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

function timeOf(value: unknown): number | undefined {
	if (value instanceof Date) return value.getTime();
	if (typeof value !== 'string' || value === '') return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : ms;
}

/** A row read from an input item; undefined when it names no invoice (the look says which). */
export function readWatchRow(json: IDataObject, itemIndex: number): WatchRow | undefined {
	const invoiceId = positiveInteger(json.invoice_id);
	if (invoiceId === undefined) return undefined;
	const policy = typeof json.policy_number === 'string' ? json.policy_number.trim() : '';
	return {
		rowId: positiveInteger(json.id),
		invoiceId,
		policyNumber: policy || undefined,
		state: typeof json.state === 'string' ? json.state : '',
		checkedAt: timeOf(json.checked_at),
		itemIndex,
	};
}
