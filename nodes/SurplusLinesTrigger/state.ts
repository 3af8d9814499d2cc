import type { IDataObject } from 'n8n-workflow';

import { maskKnownKeysDeep } from '../shared/mask';

/**
 * What the trigger remembers between polls, kept in the node's static data, which n8n writes to
 * its database with the workflow so that it survives a restart. Short keys: 500 watched invoices
 * stay a small record.
 */

/** Last values seen of one invoice. */
export interface InvoiceMemory {
	/** status */
	s?: string;
	/** filing.state_status (absent when the account has no filing object) */
	f?: string;
	/** document id → fetch_status */
	d?: Record<string, string>;
	/** Number of changes recorded so far: part of each event's id. */
	c: number;
	/** When the last change (or the baseline) was recorded, ms. */
	at: number;
	/** Sequence number of the request whose reply is recorded here (see TriggerState.readSeq). */
	r: number;
}

/** One watched entry: an invoice id (`i:<id>`) or a policy number (`p:<number>`). */
interface UnitMemory {
	/** Poll sequence at which this unit was last handed to a poll: the round-robin order. */
	picked?: number;
	/** When it was last read successfully, ms. */
	checkedAt?: number;
	/** Policies: pages the listing took last time (its cost in calls). */
	pages?: number;
	/** Policies: when a transaction was last added or changed, ms. */
	at?: number;
	/** Policies: invoice ids seen in its listing. */
	known?: number[];
	/** The service answered 404 NOT_FOUND to two polls in a row: checked only like a settled item. */
	missing?: boolean;
	/** The service answered 404 NOT_FOUND once: read again, and missing if it says so again. */
	notFound?: boolean;
	/** Answered NOT_FOUND in a poll where every read was (nothing marked): found later, it is new. */
	unseen?: boolean;
}

export interface TriggerState {
	v: 1;
	/** Poll counter. */
	seq: number;
	/**
	 * Request counter, taken just before each call. A reply is applied only when its number is
	 * above the one already recorded for the item, so a slow reply from an overlapping poll that
	 * started earlier can neither repeat an event nor move the state backwards.
	 */
	readSeq: number;
	/** When the "list cannot be covered" warning was last logged, ms. */
	warnedAt?: number;
	/** Paced polls (a schedule in seconds): the earliest time the next poll may read, ms. */
	nextReadAt?: number;
	/** `<polls per hour>/<calls per hour>` of the pacing notice last logged, so it is said once. */
	pacingSaid?: string;
	/** Last X-RateLimit-Limit seen for the key. */
	limit?: number;
	invoices: Record<string, InvoiceMemory>;
	units: Record<string, UnitMemory>;
}

/**
 * The state inside the node's static data, created there when absent (at once, so a poll that
 * overlaps this one shares it). Hand it back with `saveState` when the poll ends.
 */
export function loadState(staticData: IDataObject): TriggerState {
	const existing = staticData.trigger as TriggerState | undefined;
	if (existing && existing.v === 1) return existing;
	const created: TriggerState = { v: 1, seq: 0, readSeq: 0, invoices: {}, units: {} };
	staticData.trigger = created;
	return created;
}

/**
 * Hands the state back to n8n after a poll, whatever the poll changed. n8n writes a workflow's
 * static data only when its change flag is set, and only Proxies set it: n8n wraps the static
 * data it loaded from its database and the node's own static data object, not the objects a node
 * assigns into them. On the first activation the state is such an object, so changes inside it
 * set no flag, n8n writes nothing, and its database keeps the first poll's state (after a restart
 * the loaded state is wrapped, but objects added to it since are not). Assigning the state to the
 * node's static data always sets the flag.
 */
export function saveState(staticData: IDataObject, state: TriggerState): void {
	// Static data is stored with the workflow: a key a reply echoed into the state is not kept.
	staticData.trigger = maskKnownKeysDeep(state);
}

export function unitMemory(state: TriggerState, key: string): UnitMemory {
	state.units[key] ??= {};
	return state.units[key];
}

/** Drops memory of entries no longer watched (ids removed from the lists). */
export function prune(state: TriggerState, unitKeys: Set<string>): void {
	for (const key of Object.keys(state.units)) if (!unitKeys.has(key)) delete state.units[key];
	const keep = new Set<string>();
	for (const key of unitKeys) {
		if (key.startsWith('i:')) keep.add(key.slice(2));
		for (const id of state.units[key]?.known ?? []) keep.add(String(id));
	}
	for (const id of Object.keys(state.invoices)) if (!keep.has(id)) delete state.invoices[id];
}
