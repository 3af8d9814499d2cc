import type { IDataObject } from 'n8n-workflow';

import { documentsOf, filingOf, snapshot } from '../shared/invoiceState';
import { saidFields, sayChange } from '../shared/whatToDo';
import type { EventKind, TriggerConfig } from './config';
import type { InvoiceMemory, TriggerState } from './state';

/** The `event` value of each kind, as it appears on the emitted item. */
const EVENT_NAMES: Record<EventKind, string> = {
	invoiceStatus: 'invoice_status_changed',
	filingState: 'filing_state_changed',
	documentFetchStatus: 'document_fetch_status_changed',
	newTransaction: 'new_transaction',
};

function text(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

export interface EventFactory {
	config: TriggerConfig;
	detectedAt: string;
	/** Sample (manual run): show every value, ignoring the target-value filters. */
	ignoreFilters?: boolean;
}

function passes(factory: EventFactory, kind: EventKind, value: string | undefined): boolean {
	if (!factory.config.events.has(kind)) return false;
	if (factory.ignoreFilters || kind === 'newTransaction') return true;
	const wanted = factory.config.filters[kind];
	return wanted.length === 0 || (value !== undefined && wanted.includes(value));
}

function baseEvent(
	kind: EventKind,
	invoice: IDataObject,
	previous: string | null,
	current: string | null,
	eventId: string,
	detectedAt: string,
): IDataObject {
	return {
		event: EVENT_NAMES[kind],
		event_id: eventId,
		invoice_id: invoice.id ?? null,
		policy_number: invoice.policy_number ?? null,
		previous,
		current,
		detected_at: detectedAt,
	};
}

function filingEvent(
	invoice: IDataObject,
	previous: string | null,
	eventId: string,
	detectedAt: string,
): IDataObject {
	const filing = filingOf(invoice) ?? {};
	return {
		...baseEvent(
			'filingState',
			invoice,
			previous,
			text(filing.state_status) ?? null,
			eventId,
			detectedAt,
		),
		message: filing.message ?? null,
		confirmation_number: filing.confirmation_number ?? null,
		...saidFields(sayChange('filing', invoice, previous, text(filing.state_status) ?? 'unknown')),
		invoice,
	};
}

function documentEvent(
	invoice: IDataObject,
	documentId: string,
	previous: string | null,
	eventId: string,
	detectedAt: string,
): IDataObject {
	const document = documentsOf(invoice)?.find((doc) => String(doc.id) === documentId) ?? {};
	return {
		...baseEvent(
			'documentFetchStatus',
			invoice,
			previous,
			text(document.fetch_status) ?? null,
			eventId,
			detectedAt,
		),
		document_id: document.id ?? null,
		doc_uuid: document.external_doc_uuid ?? null,
		...saidFields(sayChange('document', invoice, previous, text(document.fetch_status) ?? 'unknown', documentId)),
		document,
		invoice,
	};
}

function statusEvent(
	invoice: IDataObject,
	previous: string | null,
	eventId: string,
	detectedAt: string,
): IDataObject {
	return {
		...baseEvent(
			'invoiceStatus',
			invoice,
			previous,
			text(invoice.status) ?? null,
			eventId,
			detectedAt,
		),
		...saidFields(sayChange('status', invoice, previous, text(invoice.status) ?? 'unknown')),
		invoice,
	};
}

type ValueKind = Exclude<EventKind, 'newTransaction'>;

/**
 * Values people act on: the ends of each value's path in the service's description (an error is
 * followed by a resubmission, but someone has to look at it). An invoice first seen after the
 * baseline already at one of these reached it unseen, so the value is reported (see
 * `firstSeenEvents`); at any other value its first reading is only recorded.
 */
const ACTIONABLE_VALUES: Record<ValueKind, readonly string[]> = {
	invoiceStatus: ['success', 'error'],
	filingState: ['confirmed', 'rejected', 'refused'],
	documentFetchStatus: ['fetched', 'failed'],
};

/** The invoice's current values as events with `previous: null`, those `keep` accepts. */
function valueEvents(
	invoice: IDataObject,
	factory: EventFactory,
	keep: (kind: ValueKind, value: string) => boolean,
	mark: IDataObject,
): IDataObject[] {
	const now = snapshot(invoice);
	const id = String(invoice.id);
	const at = factory.detectedAt;
	const wanted = (kind: ValueKind, value: string) =>
		keep(kind, value) && passes(factory, kind, value);
	const events: IDataObject[] = [];
	if (now.s !== undefined && wanted('invoiceStatus', now.s))
		events.push(statusEvent(invoice, null, `${id}:status:${now.s}:0`, at));
	if (now.f !== undefined && wanted('filingState', now.f))
		events.push(filingEvent(invoice, null, `${id}:filing:${now.f}:0`, at));
	for (const [docId, status] of Object.entries(now.d ?? {})) {
		if (wanted('documentFetchStatus', status)) {
			events.push(documentEvent(invoice, docId, null, `${id}:document:${docId}:${status}:0`, at));
		}
	}
	return events.map((event) => ({ ...event, ...mark }));
}

/**
 * The invoice's current values as events with `previous: null`: the first poll when "Emit
 * Current State First" is on, and the sample of a manual run.
 */
export function currentStateEvents(invoice: IDataObject, factory: EventFactory): IDataObject[] {
	return valueEvents(invoice, factory, () => true, {});
}

/**
 * An invoice first seen after the baseline (a new transaction on a watched policy, a watched id
 * the service did not find before): its actionable values, each as the change to it would be
 * (same filters), with `previous: null` and `first_seen: true`.
 */
function firstSeenEvents(invoice: IDataObject, factory: EventFactory): IDataObject[] {
	return valueEvents(invoice, factory, (kind, value) => ACTIONABLE_VALUES[kind].includes(value), {
		first_seen: true,
	});
}

/**
 * How a first reading of an invoice counts. `baseline`: it was there when watching began (the
 * first poll, or a listing not yet complete), so its values are recorded, emitted only with "Emit
 * Current State First". `firstSeen`: it appeared since (see `firstSeenEvents`).
 */
export type FirstReading = 'baseline' | 'firstSeen';

interface Observation {
	events: IDataObject[];
	/** Something changed (or the invoice was new): resets its "unchanged for N days" clock. */
	changed: boolean;
	/** First time this invoice was seen: the reading is its first record. */
	baseline: boolean;
}

/**
 * Compares an invoice as read with what was recorded and records it, in one synchronous step
 * (JavaScript runs it without interruption, so an overlapping poll sees either the old or the
 * new record, never half of it). A change is emitted once: the record moves to the new value as
 * the event is made, and a reply older than the record (`readSeq`) is ignored.
 */
export function observeInvoice(
	state: TriggerState,
	invoice: IDataObject,
	readSeq: number,
	now: number,
	factory: EventFactory,
	firstReading: FirstReading,
): Observation {
	const id = String(invoice.id);
	const read = snapshot(invoice);
	const memory: InvoiceMemory | undefined = state.invoices[id];
	if (!memory) {
		state.invoices[id] = { ...read, c: 0, at: now, r: readSeq };
		let events: IDataObject[] = [];
		if (firstReading === 'firstSeen') events = firstSeenEvents(invoice, factory);
		else if (factory.config.emitCurrentState) events = currentStateEvents(invoice, factory);
		return { events, changed: true, baseline: true };
	}
	if (memory.r >= readSeq) return { events: [], changed: false, baseline: false };
	memory.r = readSeq;

	const events: IDataObject[] = [];
	const at = factory.detectedAt;
	let changed = false;
	const record = (
		kind: EventKind,
		field: string,
		value: string,
		make: (eventId: string) => IDataObject,
	) => {
		changed = true;
		memory.c += 1;
		memory.at = now;
		if (passes(factory, kind, value)) events.push(make(`${id}:${field}:${value}:${memory.c}`));
	};

	if (read.s !== undefined) {
		const previous = memory.s;
		memory.s = read.s;
		if (previous !== undefined && previous !== read.s)
			record('invoiceStatus', 'status', read.s, (eventId) =>
				statusEvent(invoice, previous, eventId, at),
			);
	}
	if (read.f !== undefined) {
		const previous = memory.f;
		memory.f = read.f;
		if (previous !== undefined && previous !== read.f)
			record('filingState', 'filing', read.f, (eventId) =>
				filingEvent(invoice, previous, eventId, at),
			);
	}
	if (read.d !== undefined) {
		const before = memory.d;
		memory.d = read.d;
		// Without an earlier list of documents there is nothing to compare with.
		for (const [docId, status] of before ? Object.entries(read.d) : []) {
			const previous = before?.[docId];
			if (previous === status) continue;
			record('documentFetchStatus', `document:${docId}`, status, (eventId) =>
				documentEvent(invoice, docId, previous ?? null, eventId, at),
			);
		}
	}
	return { events, changed, baseline: false };
}

/** A transaction that appeared in a watched policy's listing since the last read. */
export function newTransactionEvent(
	invoice: IDataObject,
	factory: EventFactory,
): IDataObject | undefined {
	if (!passes(factory, 'newTransaction', undefined)) return undefined;
	const type = (invoice.type as IDataObject | undefined)?.name;
	return {
		...baseEvent(
			'newTransaction',
			invoice,
			null,
			text(invoice.status) ?? null,
			`${String(invoice.id)}:transaction:new`,
			factory.detectedAt,
		),
		transaction_type: type ?? null,
		summary: `New transaction: invoice ${String(invoice.id)} (${String(type ?? 'type not given')}) on policy ${String(invoice.policy_number ?? '?')}${typeof invoice.insured_name === 'string' ? `, insured ${invoice.insured_name}` : ''}.`,
		next_step: 'Nothing to do unless it was not expected: its own changes come in later messages.',
		needs_action: false,
		invoice,
	};
}
