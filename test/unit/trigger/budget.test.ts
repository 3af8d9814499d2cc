import nock from 'nock';

import { computeBudget, pollsPerHour } from '../../../nodes/SurplusLinesTrigger/budget';
import { forgetRateLimits } from '../../../nodes/shared/rateLimit';
import { useNockSuite } from '../../helpers/nockSuite';
import { API, activeTrigger, envelope, filing, invoice, rateHeaders, serveAny, servePolicy, type TriggerParams } from './helpers';

const fake = useNockSuite();

function ids(from: number, count: number): string {
	return Array.from({ length: count }, (_, i) => from + i).join(',');
}

describe('schedule → polls per hour', () => {
	it.each([
		[{ item: [{ mode: 'everyMinute' }] }, 60],
		[{ item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] }, 12],
		[{ item: [{ mode: 'everyX', value: 7, unit: 'minutes' }] }, 9],
		[{ item: [{ mode: 'everyHour', minute: 3 }] }, 1],
		[{ item: [{ mode: 'everyX', value: 2, unit: 'hours' }] }, 1],
		[{ item: [{ mode: 'everyDay', hour: 8, minute: 0 }] }, 1],
		[{ item: [{ mode: 'custom', cronExpression: '0 */10 * * * *' }] }, 6],
		[{ item: [{ mode: 'custom', cronExpression: '*/15 9-17 * * 1-5' }] }, 4],
		[{ item: [{ mode: 'custom', cronExpression: '0 0,30 * * * *' }] }, 2],
		[{ item: [{ mode: 'custom', cronExpression: '@hourly' }] }, 60],
		[{ item: [{ mode: 'everyX', value: 10, unit: 'minutes' }, { mode: 'everyHour', minute: 0 }] }, 7],
		[{}, 60],
	])('%j → %i', (pollTimes, expected) => {
		expect(pollsPerHour(pollTimes)).toBe(expected);
	});

	it('calls per poll = floor(limit × share ÷ polls per hour), at least 1', () => {
		expect(computeBudget('t2', undefined, 0.25, 12)).toEqual({
			limit: 1000,
			limitSource: 'tier',
			share: 0.25,
			pollsPerHour: 12,
			callsPerHour: 250,
			callsPerPoll: 20,
			paced: false,
			readsPerHour: 12,
		});
		expect(computeBudget('t2', 600, 0.25, 12).callsPerPoll).toBe(12);
		expect(computeBudget('t1', undefined, 0.25, 60).callsPerPoll).toBe(1);
		expect(computeBudget('t3', undefined, 0.5, 12).callsPerPoll).toBe(208);
	});
});

describe('spreading watched items over polls', () => {
	it('50 invoices, t2 key, every 5 minutes: exactly 20 calls a poll, round-robin, each read once per round', async () => {
		const server = serveAny();
		const trigger = activeTrigger({ invoiceIds: ids(1001, 50), events: ['invoiceStatus'] });
		const perPoll: number[][] = [];
		for (let poll = 0; poll < 5; poll++) {
			await trigger.poll();
			perPoll.push(server.take());
			fake().advance(5 * 60_000);
		}
		expect(perPoll.map((p) => p.length)).toEqual([20, 20, 20, 20, 20]);
		expect(perPoll[0]).toEqual(Array.from({ length: 20 }, (_, i) => 1001 + i));
		expect(perPoll[1]).toEqual(Array.from({ length: 20 }, (_, i) => 1021 + i));
		expect(perPoll[2]).toEqual([...Array.from({ length: 10 }, (_, i) => 1041 + i), ...Array.from({ length: 10 }, (_, i) => 1001 + i)]);
		// Over the first 2.5 polls every invoice is read exactly once.
		const firstRound = [...perPoll[0], ...perPoll[1], ...perPoll[2].slice(0, 10)];
		expect(new Set(firstRound).size).toBe(50);
	});

	it('takes the limit from X-RateLimit-Limit once a reply has given it', async () => {
		const server = serveAny(() => 'sent', 600);
		const trigger = activeTrigger({ invoiceIds: ids(1001, 50), events: ['invoiceStatus'] });
		await trigger.poll();
		expect(server.take()).toHaveLength(20); // before any reply: the t2 tier's 1,000
		forgetRateLimits(); // a restart: the limit is remembered in the static data
		await trigger.poll();
		expect(server.take()).toHaveLength(12); // 600 × 25% ÷ 12
		expect((trigger.staticData.trigger as { limit: number }).limit).toBe(600);
	});

	it('a share of 10% at every minute gives 1 call a poll (1000 × 10% ÷ 60 = 1.7)', async () => {
		const server = serveAny();
		const trigger = activeTrigger({ invoiceIds: ids(1001, 3), options: { budgetShare: 10 }, pollTimes: { item: [{ mode: 'everyMinute' }] } });
		await trigger.poll();
		expect(server.take()).toEqual([1001]);
		fake().advance(60_000);
		await trigger.poll();
		expect(server.take()).toEqual([1002]);
	});

	it('settled invoices (success, filing confirmed) are read once a day; "never" stops reading them', async () => {
		const settled = (id: number, over = {}) => invoice(id, { ...over, filing: id === 1001 ? filing('confirmed') : filing('sent') });
		const server = serveAny((id) => (id === 1001 ? 'success' : 'sent'), 1000, settled);
		const daily = activeTrigger({ invoiceIds: '1001,1002' });
		await daily.poll();
		expect(server.take()).toEqual([1001, 1002]);
		fake().advance(5 * 60_000);
		await daily.poll();
		expect(server.take()).toEqual([1002]);
		fake().advance(24 * 60 * 60_000);
		await daily.poll();
		expect(server.take()).toEqual([1001, 1002]);

		const never = activeTrigger({ invoiceIds: '1001,1002', options: { settledCheck: 'never' } });
		await never.poll();
		server.take();
		fake().advance(2 * 24 * 60 * 60_000);
		await never.poll();
		expect(server.take()).toEqual([1002]);
	});

	it('an item unchanged for the set days counts as settled', async () => {
		const server = serveAny();
		const trigger = activeTrigger({ invoiceIds: '1001', options: { settledAfterDays: 2 } });
		await trigger.poll();
		fake().advance(24 * 60 * 60_000);
		await trigger.poll();
		expect(server.take()).toEqual([1001, 1001]);
		fake().advance(24 * 60 * 60_000); // two days without change: settled, read once a day
		await trigger.poll();
		expect(server.take()).toEqual([1001]);
		fake().advance(5 * 60_000);
		await trigger.poll();
		expect(server.take()).toEqual([]);
	});

	it('an invoice id that a watched policy already lists costs no extra call', async () => {
		const trigger = activeTrigger({ policyNumbers: 'POL-1', invoiceIds: '1001' });
		const row = invoice(1001, { status: 'sent' });
		const first = [servePolicy('POL-1', [row]), nock(API).get('/invoices/1001').reply(200, envelope(row), rateHeaders())];
		await trigger.poll();
		first.forEach((s) => s.done());
		const second = servePolicy('POL-1', [invoice(1001, { status: 'success' })]);
		const events = await trigger.poll();
		second.done(); // and no GET /invoices/1001 (nock would refuse it)
		expect(events.map((e) => [e.event, e.current])).toEqual([['invoice_status_changed', 'success']]);
	});
});

describe('figures: calls per poll at a 5-minute interval with a t2 key (25% share)', () => {
	const rows: string[] = [];
	afterAll(() => {
		console.log(['watched invoices | calls per poll (polls 1-6) | polls to read each once | minutes between reads of one invoice', ...rows].join('\n'));
	});

	it.each([
		[1, [1, 1, 1, 1, 1, 1], 1],
		[50, [20, 20, 20, 20, 20, 20], 3],
		[500, [20, 20, 20, 20, 20, 20], 25],
	])('%i watched invoices', async (count, expected, round) => {
		const server = serveAny();
		const params: TriggerParams = { invoiceIds: ids(1001, count) };
		const trigger = activeTrigger(params);
		const calls: number[] = [];
		const seen = new Map<number, number>();
		for (let poll = 1; poll <= Math.max(6, round); poll++) {
			await trigger.poll();
			const read = server.take();
			if (poll <= 6) calls.push(read.length);
			for (const id of read) if (!seen.has(id)) seen.set(id, poll);
			fake().advance(5 * 60_000);
		}
		expect(calls).toEqual(expected);
		expect(Math.max(...seen.values())).toBe(round);
		expect(seen.size).toBe(count);
		rows.push(`${count} | ${calls.join(', ')} | ${round} | ${round * 5}`);
	});
});
