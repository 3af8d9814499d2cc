/**
 * What changed between the state a row recorded and the invoice as read: the events, named as the
 * trigger names them, and one line of text a person can act on.
 */
import type { IDataObject } from 'n8n-workflow';

import { filingOf, type InvoiceSnapshot } from '../shared/invoiceState';
import { needsAction, sayChange, type SaidPart, type WatchedPart } from '../shared/whatToDo';

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

const PARTS: Record<Change['event'], WatchedPart> = {
	invoice_status_changed: 'status',
	filing_state_changed: 'filing',
	document_fetch_status_changed: 'document',
};

/** One change in words and its next step (shared/whatToDo.ts, the trigger's words too). */
export function sayOne(invoice: IDataObject, change: Change): SaidPart {
	return sayChange(PARTS[change.event], invoice, change.previous, change.current, change.document_id);
}

/**
 * The message of a look: each change in words, then the next step of the first change someone
 * must act on (or of the last change when none asks for action). "State filing: Invoice 12
 * (policy POL-1, insured Harbor Marine) was REJECTED by the state (sent → rejected). Reason: Missing
 * SL-2. Next step: …".
 */
export function describeChanges(invoice: IDataObject, changes: Change[]): string {
	if (changes.length === 0) return '';
	const said = changes.map((change) => sayOne(invoice, change));
	// What asks for action leads, the filing's answer first (its reason is the state's); else the
	// filing, then the status: the document of a settling invoice is the least news.
	const main =
		said.find((s) => s.needs_action && s.part === 'filing') ??
		said.find((s) => s.needs_action) ??
		said.find((s) => s.part === 'filing') ??
		said.find((s) => s.part === 'status') ??
		said[0];
	const others = said.filter((s) => s !== main).map((s) => s.short);
	const also = others.length ? ` Also: ${others.join('; ')}.` : '';
	return `${main.summary}${also} Next step: ${main.next_step}`;
}

/** Whether any of the changes asks someone to act. */
export function anyNeedsAction(invoice: IDataObject, changes: Change[]): boolean {
	return changes.some((change) => sayOne(invoice, change).needs_action);
}

/**
 * A reminder of an invoice still waiting for someone (its filing rejected, its status error),
 * in the words of the change that put it there.
 */
export function describeReminder(invoice: IDataObject, since: string): string {
	const filing = filingOf(invoice)?.state_status;
	const status = invoice.status;
	const said =
		typeof filing === 'string' && needsAction('filing', filing)
			? sayChange('filing', invoice, undefined, filing)
			: sayChange('status', invoice, undefined, String(status));
	return `Reminder, still not settled since ${since}: ${said.summary} Next step: ${said.next_step}`;
}
