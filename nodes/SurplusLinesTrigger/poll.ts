import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { getServiceCredential } from '../shared/credentials';
import { eventWithoutLinks } from '../shared/links';
import { maskKnownKeysDeep } from '../shared/mask';
import { lastRateLimit } from '../shared/rateLimit';
import { clock } from '../shared/timing';
import {
	computeBudget,
	coverage,
	coverageWarning,
	dueUnits,
	mayReadNow,
	nextReadAt,
	pacingNotice,
	pickUnits,
	pollsPerHour,
	unitCost,
	type Budget,
} from './budget';
import { readConfig, type TriggerConfig, type WatchUnit } from './config';
import { newTransactionEvent, observeInvoice, type EventFactory } from './events';
import { classifyFailure, readInvoice, readPolicy } from './read';
import { sampleRun } from './sample';
import { loadState, prune, saveState, unitMemory, type TriggerState } from './state';

interface PollRun {
	ctx: IPollFunctions;
	state: TriggerState;
	factory: EventFactory;
	now: number;
	events: IDataObject[];
	/** Calls this poll may still make: its budget bounds policy listings too. */
	callsLeft: number;
}

async function checkInvoice(run: PollRun, unit: WatchUnit): Promise<void> {
	const { state } = run;
	const seq = ++state.readSeq;
	// Not found before: the invoice did not exist yet when it was first looked for.
	const memory = state.units[unit.key];
	const reading = memory?.missing || memory?.notFound || memory?.unseen ? 'firstSeen' : 'baseline';
	run.callsLeft--;
	const invoice = await readInvoice.call(run.ctx, unit.value);
	run.events.push(...observeInvoice(state, invoice, seq, run.now, run.factory, reading).events);
}

async function checkPolicy(run: PollRun, unit: WatchUnit): Promise<void> {
	const { state, factory, now } = run;
	const memory = unitMemory(state, unit.key);
	// A transaction is new only against a complete earlier listing: a first listing counts once all its pages are read.
	const baseline = memory.known === undefined;
	const firstListing = new Set<number>();
	const read = await readPolicy.call(
		run.ctx,
		unit.value,
		Math.max(1, run.callsLeft),
		() => ++state.readSeq,
		(rows, seq, last) => {
			// The record as it is now, not as it was when the poll began: an overlapping poll may have added to it.
			const known = new Set<number>(memory.known ?? []);
			for (const row of rows) {
				const id = Number(row.id);
				if (!baseline && !known.has(id)) {
					const event = newTransactionEvent(row, factory);
					if (event) run.events.push(event);
					run.events.push(...observeInvoice(state, row, seq, now, factory, 'firstSeen').events);
					memory.at = now;
				} else {
					const observed = observeInvoice(state, row, seq, now, factory, 'baseline');
					run.events.push(...observed.events);
					if (observed.changed && !observed.baseline) memory.at = now;
				}
				known.add(id);
				firstListing.add(id);
			}
			if (!baseline) memory.known = [...known];
			else if (last) {
				memory.known = [...new Set([...(memory.known ?? []), ...firstListing])];
				memory.at = now;
			}
		},
	);
	memory.pages = read.calls;
	run.callsLeft -= read.calls;
	if (read.cut !== undefined)
		run.ctx.logger.warn(`Surplus Lines Trigger: ${read.cut}`, logContext(run.ctx));
}

/** Reads one unit; returns the failure instead of throwing, so the poll decides what it means. */
async function attempt(run: PollRun, unit: WatchUnit): Promise<unknown> {
	try {
		await (unit.kind === 'policy' ? checkPolicy(run, unit) : checkInvoice(run, unit));
	} catch (error) {
		return error ?? new Error('unknown failure');
	}
	const memory = unitMemory(run.state, unit.key);
	memory.checkedAt = run.now;
	delete memory.missing;
	delete memory.notFound;
	delete memory.unseen;
	return undefined;
}

function asNodeError(ctx: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error);
}

function logContext(ctx: IPollFunctions): IDataObject {
	return { node: ctx.getNode().name, workflowId: ctx.getWorkflow().id };
}

/**
 * A schedule in seconds polls more often than even 1 call a poll allows: says so once (per
 * schedule and limit), and tells whether this poll may read or is skipped to keep the share.
 */
function pacedPollMayRead(
	ctx: IPollFunctions,
	state: TriggerState,
	budget: Budget,
	now: number,
): boolean {
	const notice = pacingNotice(budget);
	if (notice === undefined) return true;
	const said = `${budget.pollsPerHour}/${budget.callsPerHour}`;
	if (state.pacingSaid !== said) {
		state.pacingSaid = said;
		ctx.logger.warn(`Surplus Lines Trigger: ${notice}`, logContext(ctx));
	}
	return mayReadNow(state, budget, now);
}

/**
 * The service's "not found" answers of one poll: a unit is checked like a settled item only when
 * two polls in a row hear it; nothing is marked when no read of the poll succeeded (a key of the
 * other environment, test or live, or of another account, finds nothing of the list).
 */
function settleNotFound(
	ctx: IPollFunctions,
	state: TriggerState,
	notFound: Array<{ unit: WatchUnit; message: string }>,
	readOk: number,
	now: number,
): void {
	if (!notFound.length) return;
	if (readOk === 0) {
		ctx.logger.warn(
			`Surplus Lines Trigger: every item this poll read (${notFound.length}) was answered "not found", so none is taken as gone: the credential's key may be of the other environment (test or live) or of another account. ${notFound[0].message}`,
			logContext(ctx),
		);
		// Not gone, but not there when looked for: found later, it is a new invoice (first seen).
		for (const { unit } of notFound) unitMemory(state, unit.key).unseen = true;
		return;
	}
	for (const { unit, message } of notFound) {
		const memory = unitMemory(state, unit.key);
		if (memory.notFound) {
			Object.assign(memory, { missing: true, checkedAt: now });
			delete memory.notFound;
			ctx.logger.warn(
				`Surplus Lines Trigger: ${unit.kind} ${unit.value} was not found by two polls in a row; it is checked like a settled item from now on. ${message}`,
				logContext(ctx),
			);
		} else {
			memory.notFound = true;
			ctx.logger.warn(
				`Surplus Lines Trigger: ${unit.kind} ${unit.value} was not found; it is read again before it counts as gone. ${message}`,
				logContext(ctx),
			);
		}
	}
}

/**
 * One poll of an active workflow: read the units the budget allows (round-robin), compare with
 * the stored values, emit each change once. The stored state moves only for what was read.
 */
async function trackChanges(
	ctx: IPollFunctions,
	state: TriggerState,
	config: TriggerConfig,
	budgetOf: (state: TriggerState) => Budget,
) {
	const now = clock.now();
	prune(state, new Set(config.units.map((u) => u.key)));
	const budget = budgetOf(state);
	if (!pacedPollMayRead(ctx, state, budget, now)) return [];
	const due = dueUnits(config.units, state, config, now);
	const warning = coverageWarning(coverage(due, state, budget), budget);
	// Once an hour is enough to be seen in the log without flooding it.
	if (warning && now - (state.warnedAt ?? 0) >= 60 * 60 * 1000) {
		state.warnedAt = now;
		ctx.logger.warn(`Surplus Lines Trigger: ${warning}`, logContext(ctx));
	}

	const seq = ++state.seq;
	const picked = pickUnits(due, state, budget.callsPerPoll);
	// Claimed at once, so a poll that overlaps this one takes the next units instead.
	const before = new Map(picked.map((u) => [u.key, state.units[u.key]?.picked]));
	for (const unit of picked) unitMemory(state, unit.key).picked = seq;
	const callsOf = (units: WatchUnit[]) =>
		units.reduce((sum, unit) => sum + unitCost(unit, state), 0);
	if (budget.paced) state.nextReadAt = nextReadAt(budget, now, callsOf(picked));

	const run: PollRun = {
		ctx,
		state,
		now,
		events: [],
		factory: { config, detectedAt: new Date(now).toISOString() },
		// A paced poll pays for its calls by waiting before the next read: the hour's share bounds it.
		callsLeft: budget.paced ? budget.callsPerHour : budget.callsPerPoll,
	};
	let attempted = picked;
	const notFound: Array<{ unit: WatchUnit; message: string }> = [];
	let readOk = 0;
	for (const [index, unit] of picked.entries()) {
		const failure = await attempt(run, unit);
		if (failure === undefined) {
			readOk++;
			continue;
		}
		const outcome = classifyFailure(failure);
		const message = (failure as Error).message;
		if (outcome === 'missing') {
			notFound.push({ unit, message });
			continue;
		}
		// Units not read go back to their place, first in line for the next poll.
		for (const rest of picked.slice(index)) {
			const memory = state.units[rest.key];
			if (memory?.picked === seq) memory.picked = before.get(rest.key);
		}
		attempted = picked.slice(0, index + 1);
		if (outcome === 'fatal' && run.events.length === 0) throw asNodeError(ctx, failure);
		const log = outcome === 'fatal' ? ctx.logger.error : ctx.logger.warn;
		log.call(
			ctx.logger,
			`Surplus Lines Trigger: poll stopped after ${index} of ${picked.length} items, the rest is read next time: ${message}`,
			logContext(ctx),
		);
		break;
	}
	settleNotFound(ctx, state, notFound, readOk, now);
	// The calls as made: a policy listing may have grown by a page since last time.
	if (budget.paced) state.nextReadAt = nextReadAt(budget, now, callsOf(attempted));
	return run.events;
}

/** The trigger's `poll()`. */
export async function pollTrigger(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const config = readConfig(this);
	const credential = await getServiceCredential(this);
	const perHour = pollsPerHour(this.getNodeParameter('pollTimes', {}));
	const budgetOf = (state?: TriggerState) =>
		computeBudget(
			credential.tier,
			lastRateLimit(credential.fingerprint)?.limit ?? state?.limit,
			config.share,
			perHour,
		);

	if (this.getMode() === 'manual') {
		const sample = await sampleRun(this, config, budgetOf());
		return sample.length
			? [this.helpers.returnJsonArray(sample.map(eventWithoutLinks).map(maskKnownKeysDeep))]
			: null;
	}

	const staticData = this.getWorkflowStaticData('node');
	const state = loadState(staticData);
	try {
		const events = await trackChanges(this, state, config, budgetOf);
		return events.length
			? [this.helpers.returnJsonArray(events.map(eventWithoutLinks).map(maskKnownKeysDeep))]
			: null;
	} finally {
		const limit = lastRateLimit(credential.fingerprint)?.limit;
		if (limit) state.limit = limit;
		// Every path ends here: first poll, polls that only record, polls that emit, failed polls.
		saveState(staticData, state);
	}
}
