import type { IDataObject } from 'n8n-workflow';

import type { Tier } from '../shared/credentials';
import { HOURLY_CALL_LIMITS } from '../shared/rules';
import type { TriggerConfig, WatchUnit } from './config';
import type { TriggerState } from './state';

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

export interface Budget {
	/** Calls per hour the key may make (X-RateLimit-Limit, else the tier's documented limit). */
	limit: number;
	limitSource: 'headers' | 'tier';
	pollsPerHour: number;
	/** floor(limit × share ÷ polls per hour), at least 1. */
	callsPerPoll: number;
}

export function computeBudget(
	tier: Tier,
	headerLimit: number | undefined,
	share: number,
	perHour: number,
): Budget {
	const limit = headerLimit && headerLimit > 0 ? headerLimit : HOURLY_CALL_LIMITS[tier];
	return {
		limit,
		limitSource: headerLimit && headerLimit > 0 ? 'headers' : 'tier',
		pollsPerHour: perHour,
		callsPerPoll: Math.max(1, Math.floor((limit * share) / perHour)),
	};
}

/** Calls a unit is expected to cost: a policy its pages of 100 transactions last time. */
export function unitCost(unit: WatchUnit, state: TriggerState): number {
	return unit.kind === 'policy' ? Math.max(1, state.units[unit.key]?.pages ?? 1) : 1;
}

/**
 * Settled: nothing more is expected. An invoice with status success, its filing confirmed (or no
 * filing) and no document fetch under way; or any item unchanged for the set number of days; or
 * one the service no longer finds.
 */
export function isSettled(
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
	const documentsSettled = Object.values(invoice.d ?? {}).every(
		(s) => s !== 'pending' && s !== 'fetching',
	);
	return (
		invoice.s === 'success' &&
		(invoice.f === undefined || invoice.f === 'confirmed') &&
		documentsSettled
	);
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
	/** Polls needed to read every due unit once. */
	pollsPerRound: number;
	/** Minutes between two reads of the same item at this schedule. */
	minutesPerRound: number;
	covered: boolean;
}

export function coverage(due: WatchUnit[], state: TriggerState, budget: Budget): Coverage {
	const dueCalls = due.reduce((sum, unit) => sum + unitCost(unit, state), 0);
	const pollsPerRound = Math.max(1, Math.ceil(dueCalls / budget.callsPerPoll));
	return {
		dueUnits: due.length,
		dueCalls,
		pollsPerRound,
		minutesPerRound: Math.round((pollsPerRound * 60) / budget.pollsPerHour),
		covered: pollsPerRound <= 1,
	};
}

export function coverageWarning(cover: Coverage, budget: Budget): string | undefined {
	if (cover.covered) return undefined;
	return `${cover.dueCalls} calls are needed to check every watched item, but one poll may spend ${budget.callsPerPoll} (${Math.round(budget.limit)} calls/hour × share ÷ ${budget.pollsPerHour} polls/hour): each item is read about every ${cover.minutesPerRound} minutes (every ${cover.pollsPerRound} polls). Poll less often, raise the share, watch policy numbers instead of single invoices, or use a higher tier key.`;
}
