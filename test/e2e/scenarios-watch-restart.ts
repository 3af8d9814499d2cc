/**
 * The watch list across a stop and start of n8n: the filing example records the sample bordereau;
 * the Slack example, active on a short schedule, posts a change made while n8n runs; n8n stops;
 * the sandbox moves statuses meanwhile (one invoice a second time); after the start each of those
 * changes is posted once, the one from before not again, over further looks. The list and what
 * each row last saw are in n8n's database (a data table), so nothing of it lives in the process.
 */
import assert from 'node:assert/strict';

import type { IDataObject } from 'n8n-workflow';

import { control, type Context, type Scenario, type ServerControl } from './context';
import type { Run } from './runData';
import { fileWithExample, freshWatchTable, holds, looksSince, ok, scheduledWatchSlack, SLACK_EXAMPLE, until } from './watchList';

/** A look every 5 s (the example: every 5 minutes). */
const LOOK_SECONDS = 5;
/**
 * 720 looks an hour: the key's hourly limit raised in proportion (the budget reads it from the
 * service's headers) so a look may read every policy: 100,000 × 50% ÷ 720 = 69 calls, 25 needed.
 * The first look after a start has not seen the headers yet and reads one policy: the test waits.
 */
const T2_LIMIT = 100_000;
const BUDGET_SHARE = 50;
/** Bounds a loaded machine keeps: many looks fit in each. */
const SEEN_MS = 150_000;
const QUIET_LOOKS = 3;

interface Move {
	invoice: number;
	body: IDataObject;
	message?: RegExp;
}

const REJECTED = { status: 'error', state_status: 'rejected', message: 'Missing SL-2 form' };
const CONFIRMED = { status: 'success', state_status: 'confirmed' };

async function apply(ctx: Context, moves: Move[]): Promise<void> {
	for (const move of moves) await control(ctx, `/invoices/${move.invoice}/status`, move.body);
}

async function drive(ctx: Context, n8n: ServerControl): Promise<Run[]> {
	const slack = ctx.slack;
	assert.ok(slack, 'the e2e run has a Slack stand-in');
	await control(ctx, '/rate-limit', { limits: { t2: T2_LIMIT } });
	const table = await freshWatchTable(n8n.session);
	const texts = () => slack.messages.map((m) => m.text);

	const { filing, recorded } = await fileWithExample(n8n.session, n8n.bin, table);
	// The filing run's summary is not a change: the count below is of changes only.
	slack.clear();
	const ids = recorded.map((r) => Number(r.invoice_id)).sort((a, b) => a - b);
	assert.ok(ids.length >= 5, `${ids.length} rows recorded: the scenario moves five`);

	const scheduled = scheduledWatchSlack({ seconds: LOOK_SECONDS, budgetShare: BUDGET_SHARE });
	const notify = await ok<{ id: string; versionId: string }>(n8n.session, 'POST', '/rest/workflows', scheduled);
	await ok(n8n.session, 'POST', `/rest/workflows/${notify.id}/activate`, { versionId: notify.versionId });
	try {
		const seen = async (moves: Move[], messages: number) => {
			await until(
				`${messages} messages and the moved rows stored`,
				async () => {
					if (slack.messages.length < messages) return false;
					const now = new Map((await table.rows(n8n.session)).map((r) => [Number(r.invoice_id), String(r.state)]));
					return moves.every((m) => holds(now.get(m.invoice), m.body));
				},
				() => `${slack.messages.length} messages: ${JSON.stringify(texts())}`,
				SEEN_MS,
			);
		};
		await until('every row read by a look', async () => (await table.rows(n8n.session)).every((r) => r.checked_at), () => `${texts().length} messages`, SEEN_MS);
		assert.deepEqual(texts(), [], 'nothing changed, nothing posted');

		const [a, b, c, d, e] = ids;
		const beforeStop: Move[] = [{ invoice: a, body: REJECTED, message: /was REJECTED by the state \(not_sent → rejected\)\. Reason: Missing SL-2 form/ }];
		await apply(ctx, beforeStop);
		await seen(beforeStop, 1);

		await n8n.stop();
		// While n8n is down: the rejected invoice is resent and confirmed (its second change), another
		// is rejected, one confirmed, one errs, one is sent (a change nobody acts on).
		const whileDown: Move[] = [
			{ invoice: a, body: CONFIRMED, message: /was confirmed by the state \(rejected → confirmed\).*Also: invoice status was completed by the service \(error → success\)/ },
			{ invoice: b, body: REJECTED, message: /was REJECTED by the state \(not_sent → rejected\)\. Reason: Missing SL-2 form/ },
			{ invoice: c, body: CONFIRMED, message: /was confirmed by the state \(not_sent → confirmed\)/ },
			{ invoice: d, body: { status: 'error' }, message: /Invoice status: Invoice \d+ .* failed at the service \(new → error\)\. Next step: Open it/ },
			{ invoice: e, body: { status: 'sent', state_status: 'sent' } },
		];
		await apply(ctx, whileDown);
		await n8n.start();
		const moves = [...beforeStop, ...whileDown].filter((m) => m.message);
		await seen(whileDown, moves.length);

		const before = new Set((await looksSince(n8n.session, notify.id, new Set())).map((x) => x.id));
		await until(
			`${QUIET_LOOKS} more looks`,
			async () => (await looksSince(n8n.session, notify.id, before)).filter((x) => x.status === 'success').length >= QUIET_LOOKS,
			() => `${slack.messages.length} messages`,
			SEEN_MS,
		);
		for (const move of moves) {
			const posted = texts().filter((t) => t.includes(`Invoice ${move.invoice} (`) && move.message?.test(t));
			assert.equal(posted.length, 1, `invoice ${move.invoice} ${JSON.stringify(move.body)}: ${posted.length} messages in ${JSON.stringify(texts())}`);
		}
		assert.equal(texts().length, moves.length, `one message per change people act on, nothing else: ${JSON.stringify(texts())}`);
		const left = (await table.rows(n8n.session)).map((r) => Number(r.invoice_id));
		assert.deepEqual(left.filter((id) => id === a || id === c), [], 'the confirmed invoices left the watch list');
		assert.equal(left.length, ids.length - 2);
		const looks = await looksSince(n8n.session, notify.id, new Set());
		const failed = looks.filter((x) => x.status !== 'success' && x.status !== 'running' && x.status !== 'new');
		console.log(`[e2e]         watch list across a restart: ${ids.length} rows, ${moves.length} messages (${moves.length - 1} for changes made while n8n was down), ${looks.length} looks, ${failed.length} not successful`);
		assert.deepEqual(failed.map((x) => `${x.id} ${x.status}`), [], 'every look succeeded');
	} finally {
		await n8n.session.request('POST', `/rest/workflows/${notify.id}/deactivate`, {});
	}
	return [filing];
}

const watchRestart: Scenario = {
	name: 'watch list across a restart',
	workflow: SLACK_EXAMPLE,
	example: true,
	compat: true,
	via: 'restart',
	restart: drive,
	check(_run, _ctx, runs) {
		assert.equal(runs.length, 1);
	},
};

export const WATCH_RESTART_SCENARIOS: Scenario[] = [watchRestart];
