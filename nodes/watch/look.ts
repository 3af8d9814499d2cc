/**
 * One look over the watch list: read what the key's budget share allows, by policy where one
 * listing covers several watched invoices, the rows read longest ago first; compare each invoice
 * with the state its row recorded. Nothing is written here: the workflow's Data table node
 * updates a row only where it still holds the state this look read, so what two overlapping
 * looks both saw is sent once, and a row the look could not read keeps its place in line.
 *
 * Enters: the run (its service), the watch list's rows, the look's settings and a policy pager
 * (the operation gives it, over the listing's page reader: shared/invoiceSource.ts).
 * Leaves: one result per row read, and the look's summary.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { computeBudget, describeSpan, type Budget } from '../shared/callBudget';
import {
	describeCut,
	type InvoicePagerOptions,
	type InvoicePages,
} from '../shared/invoiceList';
import { isSettledInvoice, snapshot, type InvoiceSnapshot } from '../shared/invoiceState';
import { classifyFailure } from '../shared/readFailure';
import type { Run } from '../shared/run';
import { clock } from '../shared/timing';
import { invoiceJson, invoiceView } from '../SurplusLinesInvoice/output';
import { anyNeedsAction, changesBetween, describeChanges, describeReminder, sayOne, type Change } from './changes';
import { saidFields } from '../shared/whatToDo';
import { EVERY_READ_NOT_FOUND, NOT_FOUND_ONCE, markNotFound, wasNotFound } from './notFound';
import { decodeState, encodeState, remindedAtOf, type WatchRow } from './rowState';

/** A look never waits for the rate limit: a 429 ends it, the rows not read come first next time. */
const LOOK_SETTINGS = { maxRateLimitWaitSeconds: 0 };

export interface LookSettings {
	looksPerHour: number;
	/** 0..1 */
	share: number;
	/** The node's typeVersion (the invoice's fields are named by it). */
	version: number;
	/** How often an invoice still rejected (or in error) is said again, ms; 0: never. */
	remindEveryMs?: number;
}

/** A policy's pages, as the operation reads them (shared/invoiceList.ts). */
export type PolicyPager = (
	options: InvoicePagerOptions,
) => Promise<InvoicePages>;

interface Unit {
	key: string;
	policyNumber?: string;
	rows: WatchRow[];
	/** Calls expected: a policy's pages of 100 (at least its watched rows), an invoice 1. */
	cost: number;
	checkedAt: number;
}

export interface RowResult {
	itemIndexes: number[];
	json: IDataObject;
}

interface LookRun {
	node: Run;
	page: PolicyPager;
	version: number;
	remindEveryMs: number;
	calls: number;
	callsPerLook: number;
	now: number;
	results: RowResult[];
	rowsRead: number;
	/** Policies whose listing stopped before its end (the look's budget, the paging rule). */
	cuts: string[];
	/** Rows the service said are not found this look: settled or marked once the look ends. */
	notFound: WatchRow[];
}

function unitsOf(rows: WatchRow[]): Unit[] {
	const units = new Map<string, Unit>();
	for (const row of rows) {
		const key = row.policyNumber ? `p:${row.policyNumber}` : `i:${row.invoiceId}`;
		const unit = units.get(key) ?? {
			key,
			policyNumber: row.policyNumber,
			rows: [],
			cost: 1,
			checkedAt: Infinity,
		};
		unit.rows.push(row);
		unit.cost = Math.max(1, Math.ceil(unit.rows.length / 100));
		// Never read counts as read longest ago.
		unit.checkedAt = Math.min(unit.checkedAt, row.checkedAt ?? -Infinity);
		units.set(key, unit);
	}
	return [...units.values()].sort(
		(a, b) => a.checkedAt - b.checkedAt || a.key.localeCompare(b.key),
	);
}

/** Keeps the oldest row of each invoice; later copies (a filing recorded twice) leave the list. */
function withoutCopies(rows: WatchRow[], results: RowResult[]): WatchRow[] {
	const ordered = [...rows].sort(
		(a, b) => (a.rowId ?? Infinity) - (b.rowId ?? Infinity) || a.itemIndex - b.itemIndex,
	);
	const kept = new Map<number, WatchRow>();
	for (const row of ordered) {
		const first = kept.get(row.invoiceId);
		if (!first) {
			kept.set(row.invoiceId, row);
			continue;
		}
		results.push({
			itemIndexes: [row.itemIndex],
			json: {
				...rowFields(row),
				state: row.state,
				settled: true,
				changed: false,
				duplicate_of: first.rowId ?? null,
				last_event: '',
				events: [],
			},
		});
	}
	return [...kept.values()];
}

function rowFields(row: WatchRow): IDataObject {
	return {
		row_id: row.rowId ?? null,
		invoice_id: row.invoiceId,
		policy_number: row.policyNumber ?? null,
		previous_state: row.state,
	};
}

/**
 * An event's id: the invoice, the value, the move, and the version of the state the move starts
 * from: the time the look that stored it read it (`checked_at`), or, before any look, the row
 * itself. Looks that overlap read the same version and give the same id, so a step downstream
 * that drops repeated ids drops the copy; a move made again later (rejected after a resend)
 * starts from a later version and gets an id of its own.
 */
function eventId(row: WatchRow, change: Change): string {
	const version =
		row.checkedAt !== undefined
			? new Date(row.checkedAt).toISOString()
			: `row-${row.rowId ?? 'new'}`;
	return `${row.invoiceId}:${change.event}:${change.document_id ?? ''}:${change.previous ?? ''}>${change.current}@${version}`;
}

/** Waiting for someone: a rejected filing or a status error, not settled (refused is final). */
function waitsForSomeone(snap: InvoiceSnapshot): boolean {
	if (isSettledInvoice(snap)) return false;
	return snap.f === 'rejected' || snap.s === 'error';
}

function observe(run: LookRun, row: WatchRow, invoice: IDataObject): void {
	const before = decodeState(row.state);
	const read = snapshot(invoice);
	// A part missing from the reply is not a change: the row keeps what it had.
	const now: InvoiceSnapshot = {
		s: read.s ?? before.s,
		f: read.f ?? before.f,
		d: read.d ?? before.d,
	};
	const changes = changesBetween(before, now);
	const detectedAt = new Date(run.now).toISOString();
	const policyNumber = (invoice.policy_number as string | undefined) ?? row.policyNumber ?? null;
	const waits = waitsForSomeone(now);
	// The reminder clock: set when the wait begins or is said again, kept otherwise.
	let remindedAt = waits ? (remindedAtOf(row.state) ?? row.checkedAt) : undefined;
	let lastEvent = describeChanges(invoice, changes);
	let reminder = false;
	if (changes.length && waits) remindedAt = run.now;
	else if (
		!changes.length &&
		waits &&
		run.remindEveryMs > 0 &&
		run.now - (remindedAt ?? -Infinity) >= run.remindEveryMs
	) {
		reminder = true;
		const since = remindedAtOf(row.state) ?? row.checkedAt;
		lastEvent = describeReminder(
			invoice,
			since === undefined ? 'it was recorded' : new Date(since).toISOString(),
		);
		remindedAt = run.now;
	}
	run.rowsRead++;
	run.results.push({
		itemIndexes: [row.itemIndex],
		json: {
			...rowFields(row),
			policy_number: policyNumber,
			state: encodeState(now, remindedAt),
			checked_at: detectedAt,
			settled: isSettledInvoice(now),
			changed: changes.length > 0,
			reminder,
			needs_action: reminder || anyNeedsAction(invoice, changes),
			last_event: lastEvent,
			events: changes.map((change) => ({
				...change,
				...saidFields(sayOne(invoice, change)),
				event_id: eventId(row, change),
				invoice_id: row.invoiceId,
				policy_number: policyNumber,
				detected_at: detectedAt,
			})),
			invoice: invoiceJson(invoice, invoiceView(run.version, true)),
		},
	});
}

function gone(run: LookRun, row: WatchRow): void {
	run.rowsRead++;
	run.results.push({
		itemIndexes: [row.itemIndex],
		json: {
			...rowFields(row),
			state: row.state,
			checked_at: new Date(run.now).toISOString(),
			settled: true,
			changed: true,
			last_event: `Invoice ${row.invoiceId} (policy ${row.policyNumber ?? '?'}) is no longer found at the service (it answered "not found" to two looks in a row: deleted?): it leaves the watch list. Next step: look for the policy's transactions with Surplus Lines Invoice → Get Many to see whether it was replaced.`,
			events: [],
		},
	});
}

/** The service said this look that the invoice is not found: remembered, not settled (notFound.ts). */
function notFoundOnce(run: LookRun, row: WatchRow): void {
	run.rowsRead++;
	run.results.push({
		itemIndexes: [row.itemIndex],
		json: {
			...rowFields(row),
			state: markNotFound(row.state),
			checked_at: new Date(run.now).toISOString(),
			settled: false,
			changed: false,
			last_event: '',
			events: [],
			note: NOT_FOUND_ONCE(row.invoiceId),
		},
	});
}

/** The look's "not found" answers: none settled when no read of the look found anything. */
function settleNotFound(run: LookRun): void {
	if (!run.notFound.length) return;
	if (run.rowsRead === 0) {
		run.cuts.push(EVERY_READ_NOT_FOUND(run.notFound.length));
		return;
	}
	for (const row of run.notFound) {
		if (wasNotFound(row.state)) gone(run, row);
		else notFoundOnce(run, row);
	}
}

function asNodeError(node: Run, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node.node, error as Error);
}

/** GET /invoices/{id}, for a row without a policy number or one its policy's listing lacks. */
async function readOne(run: LookRun, row: WatchRow): Promise<void> {
	run.calls++;
	try {
		const reply = await run.node.service.get(String(row.invoiceId), undefined, LOOK_SETTINGS);
		observe(run, row, { id: row.invoiceId, ...((reply.data ?? {}) as IDataObject) });
	} catch (error) {
		if (classifyFailure(error) !== 'missing') throw asNodeError(run.node, error);
		run.notFound.push(row);
	}
}

async function readUnit(run: LookRun, unit: Unit): Promise<void> {
	if (!unit.policyNumber) return await readOne(run, unit.rows[0]);
	const listed = new Map<number, IDataObject>();
	const pages = await run.page({
		policyNumber: unit.policyNumber,
		settings: LOOK_SETTINGS,
		// The look's budget bounds the listing too (always at least one page).
		maxPages: Math.max(1, run.callsPerLook - run.calls),
		// Counted as sent: a failed page still spent its call.
		beforeRequest: () => {
			run.calls++;
		},
		onPage: (rows) => {
			for (const invoice of rows) listed.set(Number(invoice.id), invoice);
		},
	});
	if (pages.cut !== undefined)
		run.cuts.push(
			describeCut(`The listing of policy ${unit.policyNumber} was not read whole`, pages),
		);
	for (const row of unit.rows) {
		const invoice = listed.get(row.invoiceId);
		if (invoice) observe(run, row, invoice);
		else if (run.calls < run.callsPerLook) await readOne(run, row);
	}
}

export interface LookSummary {
	json: IDataObject;
	/** Said over the output when a look cannot read every watched invoice. */
	behind?: string;
	/** Said when the look stopped early (429, network): the rest is read next time. */
	stopped?: string;
	/** Said for each policy listing stopped before its end. */
	cuts: string[];
}

function summarize(
	run: LookRun,
	units: Unit[],
	unitsRead: number,
	rows: number,
	budget: Budget,
	settings: LookSettings,
): LookSummary {
	const sweepCalls = units.reduce((sum, unit) => sum + unit.cost, 0);
	const looksPerSweep = Math.max(1, Math.ceil(sweepCalls / budget.callsPerPoll));
	const sweep = describeSpan((looksPerSweep * 3600) / settings.looksPerHour);
	const waiting = rows - run.rowsRead;
	const json: IDataObject = {
		watched_invoices: rows,
		invoices_read: run.rowsRead,
		invoices_waiting: waiting,
		policies_and_invoices_to_read: units.length,
		read_this_look: unitsRead,
		calls: run.calls,
		calls_per_look: budget.callsPerPoll,
		calls_for_full_sweep: sweepCalls,
		looks_per_full_sweep: looksPerSweep,
		full_sweep_takes: sweep,
		budget: `${Math.round(budget.limit)} calls/hour (${budget.limitSource === 'headers' ? 'from the service' : 'the tier’s limit'}) × ${Math.round(budget.share * 100)}% ÷ ${settings.looksPerHour} looks/hour = ${budget.callsPerPoll} calls a look`,
	};
	const behind =
		looksPerSweep > 1
			? `${waiting} of ${rows} watched invoices were not read this look: reading all of them takes ${sweepCalls} calls, ${looksPerSweep} looks at ${budget.callsPerPoll} calls a look, so each invoice is read about every ${sweep}. Raise Budget Share, look less often, or use a higher tier key to read them sooner.`
			: undefined;
	return { json, behind, cuts: run.cuts };
}

/** One look over the rows given; returns one result per row read (and per copy leaving the list). */
export async function lookAtRows(
	node: Run,
	rows: WatchRow[],
	settings: LookSettings,
	page: PolicyPager,
): Promise<{ results: RowResult[]; summary: LookSummary }> {
	const key = await node.service.keyBudget(0);
	const budget = computeBudget(key.tier, key.limit, settings.share, settings.looksPerHour);
	const run: LookRun = {
		node,
		page,
		version: settings.version,
		remindEveryMs: settings.remindEveryMs ?? 0,
		calls: 0,
		callsPerLook: budget.callsPerPoll,
		now: clock.now(),
		results: [],
		rowsRead: 0,
		cuts: [],
		notFound: [],
	};
	const kept = withoutCopies(rows, run.results);
	const units = unitsOf(kept);
	let unitsRead = 0;
	let stopped: string | undefined;
	for (const unit of units) {
		if (unitsRead > 0 && run.calls + unit.cost > run.callsPerLook) break;
		try {
			await readUnit(run, unit);
			unitsRead++;
		} catch (error) {
			const outcome = classifyFailure(error);
			const message = (error as Error).message;
			// A refused key or a wrong Base URL: a setting to fix, said at once when nothing was read.
			if (outcome === 'fatal' && run.results.length === 0) throw asNodeError(node, error);
			stopped = `The look stopped after ${unitsRead} of the policies and invoices it meant to read: ${message}. The rest is read first next time.`;
			break;
		}
	}
	settleNotFound(run);
	const summary = summarize(run, units, unitsRead, kept.length, budget, settings);
	summary.stopped = stopped;
	return { results: run.results, summary };
}
