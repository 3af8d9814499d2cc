/**
 * What changed between the state a row recorded and the invoice as read: the events, named as the
 * trigger names them, and one line of text a person can act on.
 */
import type { IDataObject } from 'n8n-workflow';

import { filingOf, type InvoiceSnapshot } from '../shared/invoiceState';

export interface Change {
	event: 'invoice_status_changed' | 'filing_state_changed' | 'document_fetch_status_changed';
	previous: string | null;
	current: string;
	document_id?: string;
}

export function changesBetween(before: InvoiceSnapshot, now: InvoiceSnapshot): Change[] {
	const changes: Change[] = [];
	if (now.s !== undefined && now.s !== before.s)
		changes.push({ event: 'invoice_status_changed', previous: before.s ?? null, current: now.s });
	if (now.f !== undefined && now.f !== before.f)
		changes.push({ event: 'filing_state_changed', previous: before.f ?? null, current: now.f });
	// Without an earlier list of documents there is nothing to compare with (as in the trigger).
	const earlier = before.d;
	for (const [id, status] of earlier ? Object.entries(now.d ?? {}) : []) {
		if (earlier?.[id] === status) continue;
		changes.push({
			event: 'document_fetch_status_changed',
			previous: earlier?.[id] ?? null,
			current: status,
			document_id: id,
		});
	}
	return changes;
}

const WORDS: Record<Change['event'], string> = {
	invoice_status_changed: 'status',
	filing_state_changed: 'filing',
	document_fetch_status_changed: 'document',
};

/** "Invoice 12 (policy POL-1): status sent → error; filing sent → rejected: Missing SL-2". */
export function describeChanges(invoice: IDataObject, changes: Change[]): string {
	if (changes.length === 0) return '';
	const parts = changes.map((c) => {
		const what = c.document_id ? `${WORDS[c.event]} ${c.document_id}` : WORDS[c.event];
		return `${what} ${c.previous ?? '(none)'} → ${c.current}`;
	});
	const message = filingOf(invoice)?.message;
	const reason = typeof message === 'string' && message ? `: ${message}` : '';
	return `Invoice ${String(invoice.id)} (policy ${String(invoice.policy_number ?? '?')}): ${parts.join('; ')}${reason}`;
}
