/**
 * What each watched value means to the person who gets the message, and what they do next: one
 * table that the trigger's events and the watch list's messages both read, so a mail or a Slack
 * post says what happened and what to do in the same words wherever it comes from.
 */
import type { IDataObject } from 'n8n-workflow';

import { filingOf } from './invoiceState';

export type WatchedPart = 'status' | 'filing' | 'document';

interface Meaning {
	/** After "Invoice 1003 (policy P, insured I) …". */
	said: string;
	/** The next step in n8n; `{id}` is the invoice's id. */
	next: string;
	/** Someone must act; false: the message is news, or an alarm that clears. */
	action: boolean;
}

const WAIT = 'Nothing to do yet: the next change comes in a later message.';
const DONE = 'No action needed.';
const RESEND =
	'Correct what the reason names, then send the invoice again from n8n with Surplus Lines Invoice → Update (Invoice ID {id}); a form the state asks for goes on with Surplus Lines Document → Attach. Reminders come until it is settled.';

const TABLE: Record<WatchedPart, Record<string, Meaning>> = {
	status: {
		new: { said: 'is filed with the service and waits to be sent', next: WAIT, action: false },
		sent: { said: 'was sent by the service', next: WAIT, action: false },
		're-submitted': {
			said: 'was sent again after a correction (the earlier alarm clears)',
			next: WAIT,
			action: false,
		},
		success: { said: 'was completed by the service', next: DONE, action: false },
		error: {
			said: 'failed at the service',
			next: 'Open it with Surplus Lines Invoice → Get (Invoice ID {id}) to read the error, correct it with Surplus Lines Invoice → Update, and it is sent again. Reminders come until it is settled.',
			action: true,
		},
	},
	filing: {
		not_sent: { said: 'is not sent to the state yet', next: WAIT, action: false },
		sent: { said: 'was sent to the state', next: WAIT, action: false },
		accepted: {
			said: 'was accepted by the state (a confirmation follows)',
			next: WAIT,
			action: false,
		},
		confirmed: { said: 'was confirmed by the state', next: DONE, action: false },
		rejected: { said: 'was REJECTED by the state', next: RESEND, action: true },
		refused: {
			said: 'was REFUSED by the state for good',
			next: 'This invoice cannot be sent again: file the policy transaction again as a new invoice once corrected (Surplus Lines Invoice → Create), or ask the service operator. No more messages come for this invoice.',
			action: true,
		},
	},
	document: {
		pending: { said: 'waits to be fetched by the service', next: WAIT, action: false },
		fetching: { said: 'is being fetched by the service', next: WAIT, action: false },
		fetched: { said: 'was fetched by the service', next: 'No action needed.', action: false },
		failed: {
			said: 'could not be fetched by the service',
			next: 'Attach it again with a link that opens (Surplus Lines Document → Attach, Invoice ID {id}).',
			action: true,
		},
	},
};

const PART_WORDS: Record<WatchedPart, string> = {
	status: 'Invoice status',
	filing: 'State filing',
	document: 'Document',
};

/** Whether a value asks someone to act (rejected, refused, error, failed). */
export function needsAction(part: WatchedPart, value: string | null | undefined): boolean {
	return value ? (TABLE[part][value]?.action ?? false) : false;
}

/** "Invoice 1003 (policy BDX-1, insured Harbor Marine Repair)". */
export function invoiceWords(invoice: IDataObject): string {
	const insured = typeof invoice.insured_name === 'string' ? invoice.insured_name : '';
	return `Invoice ${String(invoice.id ?? '?')} (policy ${String(invoice.policy_number ?? '?')}${insured ? `, insured ${insured}` : ''})`;
}

/** The state's reason for a rejection, where the service gave one. */
export function reasonOf(invoice: IDataObject): string | undefined {
	const filing = filingOf(invoice);
	for (const value of [filing?.message, filing?.api_error]) {
		if (typeof value === 'string' && value.trim()) return value.trim();
	}
	return undefined;
}

export interface Said {
	/** One sentence: what happened, with the reason. */
	summary: string;
	/** What to do next in n8n. */
	next_step: string;
	needs_action: boolean;
}

/** The change without the invoice's name, for a second change of one message. */
export interface SaidPart extends Said {
	part: WatchedPart;
	/** "state filing was REJECTED by the state (sent → rejected)". */
	short: string;
}

/**
 * One change in words: "State filing: Invoice 1003 (policy P, insured I) was REJECTED by the
 * state (sent → rejected). Reason: Missing SL-2 form." and the next step. `documentId` names the
 * document of a document change.
 */
export function sayChange(
	part: WatchedPart,
	invoice: IDataObject,
	previous: string | null | undefined,
	current: string,
	documentId?: string,
): SaidPart {
	const meaning = TABLE[part][current];
	const what = part === 'document' ? `${invoiceWords(invoice)}: document ${documentId ?? '?'}` : invoiceWords(invoice);
	const said = meaning?.said ?? `is now ${current}`;
	const before = previous ? ` (${previous} → ${current})` : '';
	const reason = part !== 'document' && meaning?.action ? reasonOf(invoice) : undefined;
	const confirmation = filingOf(invoice)?.confirmation_number;
	const number =
		part === 'filing' && current === 'confirmed' && typeof confirmation === 'string' && confirmation
			? ` Confirmation number: ${confirmation}.`
			: '';
	return {
		part,
		short: `${PART_WORDS[part].toLowerCase()}${part === 'document' ? ` ${documentId ?? '?'}` : ''} ${said}${before}`,
		summary: `${PART_WORDS[part]}: ${what} ${said}${before}.${reason ? ` Reason: ${reason}.` : ''}${number}`,
		next_step: (meaning?.next ?? WAIT).replace('{id}', String(invoice.id ?? '?')),
		needs_action: meaning?.action ?? false,
	};
}

/** The fields an event item carries: what happened, what to do, whether someone must. */
export function saidFields(said: Said): Said {
	return { summary: said.summary, next_step: said.next_step, needs_action: said.needs_action };
}
