import type { IDataObject } from 'n8n-workflow';

import { describeSpan, type Budget } from '../shared/callBudget';
import { isSettledInvoice } from '../shared/invoiceState';
import type { TriggerConfig, WatchUnit } from './config';
import type { TriggerState } from './state';

// The budget and the settled rule are shared with the Invoice node's watch list.
export { computeBudget, describeSpan, type Budget } from '../shared/callBudget';

const DAY_MS = 24 * 60 * 60 * 1000;
/** When the schedule cannot be read, assume the worst n8n allows: a poll every minute. */
const UNKNOWN_SCHEDULE_PER_HOUR = 60;

/** How many values a cron field matches in 0..59 (seconds or minutes); undefined when unreadable. */
function cronFieldCount(field: string): number | undefined {
	let total = 0;
	for (const part of field.split(',')) {
		const match = /^(\*|\d+(?:-\d+)?)(?:\/(\d+))?$/.exec(part);
		if (!match) return undefined;
		const [from, to] =
			match[1] === '*'
				? [0, 59]
				: match[1].includes('-')
					? match[1].split('-').map(Number)
					: [Number(match[1]), match[2] ? 59 : Number(match[1])];
		const step = match[2] ? Number(match[2]) : 1;
		if (!(step > 0) || to < from) return undefined;
		total += Math.floor((to - from) / step) + 1;
	}
	return total;
}

/**
 * Polls in the busiest clock hour of n8n's `pollTimes` (the service counts calls per clock hour).
 * Every entry adds its own polls; a custom cron is read from its seconds and minutes fields.
 */
export function pollsPerHour(pollTimes: unknown): number {
	const items = ((pollTimes as IDataObject | undefined)?.item ?? []) as IDataObject[];
	if (!Array.isArray(items) || items.length === 0) return UNKNOWN_SCHEDULE_PER_HOUR;
	let total = 0;
	for (const item of items) {
		const value = Number(item.value);
		switch (item.mode) {
			case 'everyMinute':
				total += 60;
				break;
			case 'everyX':
				total +=
					item.unit === 'minutes' && value >= 1
						? Math.ceil(60 / value)
						: item.unit === 'hours'
							? 1
							: UNKNOWN_SCHEDULE_PER_HOUR;
				break;
			case 'everyHour':
			case 'everyDay':
			case 'everyWeek':
			case 'everyMonth':
				total += 1;
				break;
			default: {
				const fields = String(item.cronExpression ?? '')
					.trim()
					.split(/\s+/);
				const seconds = fields.length === 6 ? cronFieldCount(fields[0]) : 1;
				const minutes = cronFieldCount(fields[fields.length === 6 ? 1 : 0] ?? '');
				total +=
					seconds && minutes && fields.length >= 5 ? seconds * minutes : UNKNOWN_SCHEDULE_PER_HOUR;
			}
		}
	}
	return total;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Paced polls read only from the time the last reading poll has paid for: each call it made
 * buys an hour ÷ calls-per-hour. Times are taken to the whole second, as n8n's schedule fires
 * on whole seconds (a few ms late), so a poll on time is never skipped for being a few ms early.
 */
export function mayReadNow(state: TriggerState, budget: Budget, now: number): boolean {
	return !budget.paced || Math.floor(now / 1000) * 1000 >= (state.nextReadAt ?? 0);
}

/** When the next paced poll may read, after one that started at `now` and made `calls` calls. */
export function nextReadAt(budget: Budget, now: number, calls: number): number {
	return Math.floor(now / 1000) * 1000 + Math.ceil((calls * HOUR_MS) / budget.callsPerHour);
}

const percent = (budget: Budget) => `${Math.round(budget.share * 100)}%`;

/** Said once per schedule and limit when polls are skipped to keep the share. */
export function pacingNotice(budget: Budget): string | undefined {
	if (!budget.paced) return undefined;
	return `The schedule polls ${budget.pollsPerHour} times an hour, but even 1 call a poll would spend ${budget.pollsPerHour} calls an hour, more than the ${budget.callsPerHour} the share allows (${Math.round(budget.limit)} calls/hour × ${percent(budget)}). The trigger reads at most ${budget.callsPerHour} times an hour, no more often than every ${describeSpan(3600 / budget.callsPerHour)}, and skips the polls in between. Poll less often, or raise the share, to read on every poll.`;
}

/** Calls a unit is expected to cost: a policy its pages of 100 transactions last time. */
export function unitCost(unit: WatchUnit, state: TriggerState): number {
	return unit.kind === 'policy' ? Math.max(1, state.units[unit.key]?.pages ?? 1) : 1;
}

/**
 * Settled: nothing more is expected. An invoice settled by `isSettledInvoice` (success with its
 * filing confirmed, or its filing refused); or any item unchanged for the set number of days; or
 * one the service no longer finds.
 */
function isSettled(
	unit: WatchUnit,
	state: TriggerState,
	config: TriggerConfig,
	now: number,
): boolean {
	const memory = state.units[unit.key];
	if (memory?.missing) return true;
	const staleMs = config.settledAfterDays * DAY_MS;
	if (unit.kind === 'policy')
		return staleMs > 0 && memory?.at !== undefined && now - memory.at >= staleMs;
	const invoice = state.invoices[unit.value];
	if (!invoice) return false;
	if (staleMs > 0 && now - invoice.at >= staleMs) return true;
	return isSettledInvoice(invoice);
}

function coveredByPolicy(unit: WatchUnit, units: WatchUnit[], state: TriggerState): boolean {
	if (unit.kind !== 'invoice') return false;
	const id = Number(unit.value);
	return units.some((u) => u.kind === 'policy' && (state.units[u.key]?.known ?? []).includes(id));
}

/** Units to check now: not settled, or settled and not read for a day (unless told never). */
export function dueUnits(
	units: WatchUnit[],
	state: TriggerState,
	config: TriggerConfig,
	now: number,
): WatchUnit[] {
	return units.filter((unit) => {
		if (coveredByPolicy(unit, units, state)) return false;
		if (!isSettled(unit, state, config, now)) return true;
		if (config.settledCheck === 'never') return false;
		const checkedAt = state.units[unit.key]?.checkedAt;
		return checkedAt === undefined || now - checkedAt >= DAY_MS;
	});
}

/**
 * Round-robin: the units handed out longest ago (never first) fill the poll's calls, in list
 * order on ties. Stops at the first unit that does not fit, so a large policy is not skipped for
 * ever; a poll always takes at least one unit.
 */
export function pickUnits(
	due: WatchUnit[],
	state: TriggerState,
	callsPerPoll: number,
): WatchUnit[] {
	const order = [...due].sort(
		(a, b) =>
			(state.units[a.key]?.picked ?? -1) - (state.units[b.key]?.picked ?? -1) || a.index - b.index,
	);
	const picked: WatchUnit[] = [];
	let cost = 0;
	for (const unit of order) {
		const next = unitCost(unit, state);
		if (picked.length > 0 && cost + next > callsPerPoll) break;
		picked.push(unit);
		cost += next;
	}
	return picked;
}

export interface Coverage {
	dueUnits: number;
	dueCalls: number;
	/** Reading polls needed to read every due unit once. */
	pollsPerRound: number;
	/** Seconds between two reads of the same item at this schedule. */
	secondsPerRound: number;
	covered: boolean;
}

export function coverage(due: WatchUnit[], state: TriggerState, budget: Budget): Coverage {
	const dueCalls = due.reduce((sum, unit) => sum + unitCost(unit, state), 0);
	const pollsPerRound = Math.max(1, Math.ceil(dueCalls / budget.callsPerPoll));
	return {
		dueUnits: due.length,
		dueCalls,
		pollsPerRound,
		secondsPerRound: (pollsPerRound * 3600) / budget.readsPerHour,
		covered: pollsPerRound <= 1,
	};
}

export function coverageWarning(cover: Coverage, budget: Budget): string | undefined {
	if (cover.covered) return undefined;
	const perPoll = budget.paced
		? `one poll may spend 1, on at most ${budget.callsPerHour} of the ${budget.pollsPerHour} polls an hour (${Math.round(budget.limit)} calls/hour × ${percent(budget)})`
		: `one poll may spend ${budget.callsPerPoll} (${Math.round(budget.limit)} calls/hour × ${percent(budget)} ÷ ${budget.pollsPerHour} polls/hour)`;
	return `${cover.dueCalls} calls are needed to check every watched item, but ${perPoll}: each item is read about every ${describeSpan(cover.secondsPerRound)} (every ${cover.pollsPerRound} reading polls). Poll less often, raise the share, watch policy numbers instead of single invoices, or use a higher tier key.`;
}
