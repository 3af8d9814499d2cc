/**
 * The watched values of an invoice and the rule that says nothing more is expected of it: the
 * trigger and the Invoice node's watch list read invoices the same way and agree on when one is
 * settled.
 */
import type { IDataObject } from 'n8n-workflow';

import { FINAL_FILING_REFUSAL } from './service';

/** status, filing.state_status, document id → fetch_status; a part missing from a reply stays undefined. */
export interface InvoiceSnapshot {
	s?: string;
	f?: string;
	d?: Record<string, string>;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

export function documentsOf(invoice: IDataObject): IDataObject[] | undefined {
	return Array.isArray(invoice.documents) ? (invoice.documents as IDataObject[]) : undefined;
}

export function filingOf(invoice: IDataObject): IDataObject | undefined {
	const filing = invoice.filing;
	return filing && typeof filing === 'object' && !Array.isArray(filing)
		? (filing as IDataObject)
		: undefined;
}

/** The watched values of an invoice as read. */
export function snapshot(invoice: IDataObject): InvoiceSnapshot {
	const documents = documentsOf(invoice);
	const d = documents
		? Object.fromEntries(
				documents
					.filter((doc) => doc.id !== undefined && text(doc.fetch_status) !== undefined)
					.map((doc) => [String(doc.id), String(doc.fetch_status)]),
			)
		: undefined;
	return { s: text(invoice.status), f: text(filingOf(invoice)?.state_status), d };
}

/**
 * Settled, with no document fetch under way: status success with its filing confirmed (or no
 * filing object), since a success invoice can no longer change (the service refuses updates with
 * 409); or its filing refused, the state's last answer (`FINAL_FILING_REFUSAL`). A refused
 * invoice resent with Update is recorded again by the filing workflow.
 */
export function isSettledInvoice(invoice: InvoiceSnapshot): boolean {
	const documentsSettled = Object.values(invoice.d ?? {}).every(
		(s) => s !== 'pending' && s !== 'fetching',
	);
	const finished =
		invoice.f === FINAL_FILING_REFUSAL ||
		(invoice.s === 'success' && (invoice.f === undefined || invoice.f === 'confirmed'));
	return finished && documentsSettled;
}
