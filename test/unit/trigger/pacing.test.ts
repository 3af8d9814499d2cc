/**
 * Schedules that poll more often than the share pays for even at 1 call a poll (n8n accepts a
 * custom cron with a list of seconds): polls are skipped so the share holds, and the trigger says
 * so once. The budget wording is right at every schedule (seconds, minutes, hours).
 */
import nock from 'nock';

import {
	computeBudget,
	coverage,
	coverageWarning,
	describeSpan,
	mayReadNow,
	nextReadAt,
	pacingNotice,
	pollsPerHour,
} from '../../../nodes/SurplusLinesTrigger/budget';
import type { WatchUnit } from '../../../nodes/SurplusLinesTrigger/config';
import type { TriggerState } from '../../../nodes/SurplusLinesTrigger/state';
import { useNockSuite } from '../../helpers/nockSuite';
import { API, activeTrigger, envelope, invoice, rateHeaders, serveAny, servePolicy } from './helpers';

const fake = useNockSuite();

/** Every 5 seconds, as a list of seconds (n8n refuses `*` in the seconds field of a poll). */
const EVERY_5_SECONDS = { item: [{ mode: 'custom', cronExpression: '0,5,10,15,20,25,30,35,40,45,50,55 * * * * *' }] };

/** n8n's Logger as the engine gives it to nodes (`this.logger`): its warnings, kept quiet. */
function warnings(): jest.SpyInstance {
	const common = require(require.resolve('@n8n/backend-common', { paths: [require.resolve('n8n-core')] })) as {
		Logger: { prototype: { warn(message: string): void } };
	};
	return jest.spyOn(common.Logger.prototype, 'warn').mockImplementation(() => undefined);
}

const empty: TriggerState = { v: 1, seq: 0, readSeq: 0, invoices: {}, units: {} };
const invoices = (count: number): WatchUnit[] =>
	Array.from({ length: count }, (_, index) => ({ key: `i:${1001 + index}`, kind: 'invoice', value: String(1001 + index), index }));

afterEach(() => jest.restoreAllMocks());

describe('the budget when the schedule is in seconds', () => {
	it('every 5 s, t2 key, 25%: 720 polls an hour, but the share pays for 250 calls: paced', () => {
		expect(pollsPerHour(EVERY_5_SECONDS)).toBe(720);
		expect(computeBudget('t2', undefined, 0.25, 720)).toMatchObject({ callsPerHour: 250, callsPerPoll: 1, paced: true, readsPerHour: 250 });
		expect(computeBudget('t2', undefined, 1, 720)).toMatchObject({ callsPerHour: 1000, callsPerPoll: 1, paced: false, readsPerHour: 720 });
		expect(computeBudget('t2', undefined, 0.25, 12)).toMatchObject({ paced: false, readsPerHour: 12 });
	});

	it('the notice says what happens, with the figures', () => {
		expect(pacingNotice(computeBudget('t2', undefined, 0.25, 720))).toBe(
			'The schedule polls 720 times an hour, but even 1 call a poll would spend 720 calls an hour, more than the 250 the share allows (1000 calls/hour × 25%). The trigger reads at most 250 times an hour, no more often than every 14.4 seconds, and skips the polls in between. Poll less often, or raise the share, to read on every poll.',
		);
		expect(pacingNotice(computeBudget('t2', undefined, 0.25, 60))).toBeUndefined();
	});
});

describe('wording at every schedule', () => {
	it.each([
		[1, '1 second'],
		[14.4, '14.4 seconds'],
		[43.2, '43.2 seconds'],
		[60, '60 seconds'],
		[300, '5 minutes'],
		[900, '15 minutes'],
		[7500, '2.1 hours'],
		[3 * 3600, '3 hours'],
		[25 * 86400, '25 days'],
	])('%d s → "%s"', (seconds, text) => {
		expect(describeSpan(seconds)).toBe(text);
	});

	it.each([
		// [schedule, polls/hour, share, watched invoices, how often an item is read]
		['every 5 seconds', 720, 0.25, 3, 'about every 43.2 seconds (every 3 reading polls)'],
		['every 5 minutes', 12, 0.25, 50, 'about every 15 minutes (every 3 reading polls)'],
		['every hour', 1, 0.01, 30, 'about every 3 hours (every 3 reading polls)'],
		['every hour, many items', 1, 0.01, 500, 'about every 2.1 days (every 50 reading polls)'],
	])('%s', (_schedule, perHour, share, count, text) => {
		const budget = computeBudget('t2', undefined, share, perHour);
		const warning = coverageWarning(coverage(invoices(count), empty, budget), budget) ?? '';
		expect(warning).toContain(`each item is read ${text}`);
		expect(warning).not.toMatch(/every 0 /);
	});

	it('the sample (Fetch Test Event) gives the figures and the notice', async () => {
		serveAny();
		const trigger = activeTrigger({ invoiceIds: '1001,1002,1003', events: ['invoiceStatus'], pollTimes: EVERY_5_SECONDS });
		const [first] = await trigger.poll('manual');
		expect(first.budget).toMatchObject({
			calls_per_poll: 1,
			polls_per_hour: 720,
			polls_that_read_per_hour: 250,
			polls_to_check_all: 3,
			minutes_between_checks_of_an_item: 0.72,
			time_between_checks_of_an_item: '43.2 seconds',
		});
		expect((first.budget as { warning: string }).warning).toMatch(/^The schedule polls 720 times an hour.* each item is read about every 43.2 seconds/);
	});
});

describe('paced polls keep the share', () => {
	it('every 5 s for an hour (n8n a few ms late each time): 240 reading polls, within the 250 of the share', () => {
		const budget = computeBudget('t2', undefined, 0.25, 720);
		const state: TriggerState = { ...empty };
		const reading: number[] = [];
		for (let poll = 0; poll < 720; poll++) {
			const now = poll * 5000 + (poll % 4); // the schedule fires on the second, a few ms late
			if (!mayReadNow(state, budget, now)) continue;
			reading.push(poll);
			state.nextReadAt = nextReadAt(budget, now, 1);
		}
		expect(reading).toHaveLength(240);
		expect(reading.slice(0, 4)).toEqual([0, 3, 6, 9]); // every third poll: 15 s ≥ 14.4 s
	});

	it('in n8n’s engine: every third poll reads, and the notice is said once', async () => {
		const { reads } = serveAny();
		const warned = warnings();
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'], pollTimes: EVERY_5_SECONDS });
		const readingPolls: number[] = [];
		for (let poll = 0; poll < 24; poll++) {
			const before = reads.length;
			fake().advance(poll % 4);
			await trigger.poll();
			if (reads.length > before) readingPolls.push(poll);
			fake().advance(5000 - (poll % 4));
		}
		expect(readingPolls).toEqual([0, 3, 6, 9, 12, 15, 18, 21]);
		const notices = warned.mock.calls.filter(([message]) => /The schedule polls 720 times an hour/.test(String(message)));
		expect(notices).toHaveLength(1);
	});

	it('a policy listing of 3 pages pays for 3 calls: the next read waits 3 × 14.4 s', async () => {
		warnings();
		const rows = Array.from({ length: 250 }, (_, i) => invoice(3000 + i, { policy_number: 'POL-BIG' }));
		const calls: number[] = [];
		nock(API)
			.persist()
			.get('/invoices')
			.query(true)
			.reply(200, (uri) => {
				const page = Number(new URL(uri, API).searchParams.get('page'));
				calls.push(page);
				return envelope({ invoices: rows.slice((page - 1) * 100, page * 100), pagination: { page, per_page: 100, total: 250 } });
			}, rateHeaders());
		const trigger = activeTrigger({ policyNumbers: 'POL-BIG', events: ['newTransaction'], pollTimes: EVERY_5_SECONDS });
		const readAt: number[] = [];
		for (let poll = 0; poll < 24; poll++) {
			const before = calls.length;
			await trigger.poll();
			if (calls.length > before) readAt.push(poll * 5);
			fake().advance(5000);
		}
		expect(readAt).toEqual([0, 45, 90]); // 3 calls each: 43.2 s, so the poll at 45 s
		expect(calls).toHaveLength(9);
	});

	it('a skipped poll reads nothing and changes nothing n8n would write; the change comes at the next reading poll', async () => {
		warnings();
		const trigger = activeTrigger({ policyNumbers: 'POL-1', events: ['invoiceStatus'], pollTimes: EVERY_5_SECONDS });
		servePolicy('POL-1', [invoice(1001)]);
		await trigger.poll();
		const written = trigger.staticData;
		fake().advance(5000);
		expect(await trigger.poll()).toEqual([]); // nock would refuse a call
		fake().advance(5000);
		expect(await trigger.poll()).toEqual([]);
		expect(trigger.poller.live).toEqual(written);
		fake().advance(5000);
		servePolicy('POL-1', [invoice(1001, { status: 'sent' })]);
		expect((await trigger.poll()).map((e) => [e.previous, e.current])).toEqual([['new', 'sent']]);
	});

	it('a larger share reads on every poll again', async () => {
		const { reads } = serveAny();
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'], pollTimes: EVERY_5_SECONDS, options: { budgetShare: 100 } });
		for (let poll = 0; poll < 12; poll++) {
			await trigger.poll();
			fake().advance(5000);
		}
		expect(reads).toHaveLength(12);
	});
});
