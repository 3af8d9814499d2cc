import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { clock } from '../shared/timing';
import {
	coverage,
	coverageWarning,
	describeSpan,
	pacingNotice,
	pickUnits,
	type Budget,
} from './budget';
import type { TriggerConfig } from './config';
import { currentStateEvents, newTransactionEvent, type EventFactory } from './events';
import { readInvoice, readPolicy } from './read';
import type { TriggerState } from './state';

/** The budget as the user should see it on a test run. */
function budgetSummary(config: TriggerConfig, budget: Budget): IDataObject {
	const empty: TriggerState = { v: 1, seq: 0, readSeq: 0, invoices: {}, units: {} };
	const cover = coverage(config.units, empty, budget);
	return {
		calls_per_poll: budget.callsPerPoll,
		hourly_limit: budget.limit,
		hourly_limit_from: budget.limitSource === 'headers' ? 'X-RateLimit-Limit' : 'key tier',
		share_percent: Math.round(config.share * 100),
		polls_per_hour: budget.pollsPerHour,
		polls_that_read_per_hour: budget.readsPerHour,
		watched_items: config.units.length,
		polls_to_check_all: cover.pollsPerRound,
		minutes_between_checks_of_an_item: Math.round((cover.secondsPerRound / 60) * 100) / 100,
		time_between_checks_of_an_item: describeSpan(cover.secondsPerRound),
		warning:
			[pacingNotice(budget), coverageWarning(cover, budget)].filter(Boolean).join(' ') || null,
	};
}

/** Current values of one invoice as sample events; at least its status, so the user sees data. */
function sampleEvents(
	invoice: IDataObject,
	factory: EventFactory,
	fromPolicy: boolean,
): IDataObject[] {
	const events = currentStateEvents(invoice, factory);
	if (fromPolicy) {
		const created = newTransactionEvent(invoice, factory);
		if (created) events.push(created);
	}
	if (events.length) return events;
	return currentStateEvents(invoice, {
		...factory,
		config: { ...factory.config, events: new Set(['invoiceStatus']) },
	});
}

/**
 * A manual run ("Fetch Test Event"): the current state of the watched items, as many as one
 * poll's budget reads, in list order, with `previous: null`. It leaves the stored state alone, and
 * any failure is thrown so the user sees it.
 */
export async function sampleRun(
	ctx: IPollFunctions,
	config: TriggerConfig,
	budget: Budget,
): Promise<IDataObject[]> {
	const scratch: TriggerState = { v: 1, seq: 0, readSeq: 0, invoices: {}, units: {} };
	const factory: EventFactory = {
		config,
		detectedAt: new Date(clock.now()).toISOString(),
		ignoreFilters: true,
	};
	const summary = budgetSummary(config, budget);
	const events: IDataObject[] = [];
	// As a poll: the budget bounds policy listings too (a paced one, the hour’s share).
	let callsLeft = budget.paced ? budget.callsPerHour : budget.callsPerPoll;
	for (const unit of pickUnits(config.units, scratch, budget.callsPerPoll)) {
		if (unit.kind === 'invoice') {
			callsLeft--;
			events.push(...sampleEvents(await readInvoice.call(ctx, unit.value), factory, false));
		} else {
			const read = await readPolicy.call(
				ctx,
				unit.value,
				Math.max(1, callsLeft),
				() => 0,
				(rows) => {
					for (const row of rows) events.push(...sampleEvents(row, factory, true));
				},
			);
			callsLeft -= read.calls;
			if (read.cut !== undefined) ctx.logger.warn(`Surplus Lines Trigger: ${read.cut}`);
		}
	}
	return events.map((event) => ({ ...event, sample: true, budget: summary }));
}
