/**
 * The watch list in queue mode: a filing workflow (a production webhook, so a worker runs it)
 * files 50 rows with Create Many and records them in a real data table (in Postgres); the Slack
 * example, active on a short schedule, looks on whichever worker takes the job; the sandbox moves
 * statuses of some of the 50 in two waves, each after the looks have seen the one before. Every
 * change people act on comes out as one Slack message (through the Slack stand-in): none missed,
 * none repeated over further looks, and none for a change nobody acts on ("sent").
 *
 * The filing runs while the notification workflow is already active, so looks and filing overlap.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RestSession } from '../e2e/n8n';
import type { SlackStandIn } from '../e2e/slack';
import { freshWatchTable, holds, looksSince, ok, scheduledWatchSlack, until } from '../e2e/watchList';
import type { RunningSandbox } from '../sandbox';
import { fire } from './load';
import { executionsStartedBy, type Proc } from './stack';
import { watchFilingWorkflow, type Credential } from './workflows';

export const WATCH_FILING = { id: 'slQueueWatchFile', path: 'sl-queue-watch-file', webhookId: 'c7000000-0000-4000-8000-0000000000c3' };
export const WATCH_NOTIFY_ID = 'slQueueWatchSlack';

/** A look every 10 s (the example looks every 5 minutes); 50 rows on 25 policies, two filings at once. */
const LOOK_SECONDS = 10;
const POLICIES = 25;
const FILINGS = 2;
/**
 * The looks run 30 times as often as the example's: the key's hourly limit is raised in
 * proportion (the budget reads it from the service's headers), so that one look may read every
 * policy: 36,000 × 50% ÷ 360 looks an hour = 50 calls a look, 25 needed.
 */
const T2_LIMIT = 36_000;
const BUDGET_SHARE = 50;
/** Bounds a loaded 2-core machine keeps: a look every 10 s, so several looks fit in each. */
const SEEN_MS = 180_000;
/** Looks started after the last expected message, which must post nothing more. */
const QUIET_LOOKS = 3;
const MORE_LOOKS = 12;

export interface WatchStage {
	sandbox: RunningSandbox;
	session: RestSession;
	mainUrl: string;
	workers: Proc[];
	slack: SlackStandIn;
}

const log = (text: string) => console.log(`[queue] ${text}`);

/** Both workflows, as import:workflow takes them. */
export function watchWorkflows(credential: Credential, slack: Credential): Record<string, unknown> {
	return {
		'watch-filing.json': watchFilingWorkflow({ ...WATCH_FILING, credential }),
		'watch-slack.json': { id: WATCH_NOTIFY_ID, ...scheduledWatchSlack({ seconds: LOOK_SECONDS, budgetShare: BUDGET_SHARE, credential, slack }), active: false },
	};
}

async function control(sandbox: RunningSandbox, path: string, body: unknown): Promise<void> {
	const res = await fetch(`${new URL(sandbox.baseUrl).origin}/_sandbox${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`sandbox control ${path}: ${res.status} ${await res.text()}`);
}

/** A status move in the sandbox, and the message it must bring (none for a change nobody acts on). */
interface Move {
	invoice: number;
	body: IDataObject;
	message?: RegExp;
}

/** Wave 1 and wave 2 over the invoices in filing order; 29 messages in all. */
function waves(ids: number[]): Move[][] {
	const rejected = { status: 'error', state_status: 'rejected', message: 'Missing SL-2 form' };
	const confirmed = { status: 'success', state_status: 'confirmed' };
	const first: Move[] = [
		...ids.slice(0, 8).map((invoice) => ({ invoice, body: rejected, message: /was REJECTED by the state \(not_sent → rejected\)\. Reason: Missing SL-2 form/ })),
		...ids.slice(8, 16).map((invoice) => ({ invoice, body: confirmed, message: /was confirmed by the state \(not_sent → confirmed\)/ })),
		...ids.slice(16, 20).map((invoice) => ({ invoice, body: { status: 'error' }, message: /Invoice status: .* failed at the service \(new → error\)\. Next step/ })),
		...ids.slice(20, 25).map((invoice) => ({ invoice, body: { status: 'sent', state_status: 'sent' } })),
	];
	const second: Move[] = [
		...ids.slice(0, 4).map((invoice) => ({ invoice, body: confirmed, message: /was confirmed by the state \(rejected → confirmed\)/ })),
		...ids.slice(20, 23).map((invoice) => ({ invoice, body: { state_status: 'refused', message: 'Not a surplus lines risk' }, message: /was REFUSED by the state for good \(sent → refused\)\. Reason: Not a surplus lines risk/ })),
		...ids.slice(16, 18).map((invoice) => ({ invoice, body: { status: 'success' }, message: /Invoice status: .* was completed by the service \(error → success\)\. Next step/ })),
	];
	return [first, second];
}

export async function watchList(stage: WatchStage): Promise<void> {
	const { sandbox, session, slack, workers } = stage;
	sandbox.reset();
	await control(sandbox, '/rate-limit', { limits: { t2: T2_LIMIT } });
	slack.clear();
	const table = await freshWatchTable(session);
	const rows = () => table.rows(session);
	const texts = () => slack.messages.map((m) => m.text);

	const wf = await ok<{ versionId: string }>(session, 'GET', `/rest/workflows/${WATCH_NOTIFY_ID}`);
	await ok(session, 'POST', `/rest/workflows/${WATCH_NOTIFY_ID}/activate`, { versionId: wf.versionId });
	try {
		// Two filings of 25 rows at once, each row on one of 25 policies (two invoices a policy).
		const bodies = Array.from({ length: FILINGS }, (_, f) =>
			Array.from({ length: POLICIES }, (_, p) => ({
				policy_number: `Q-WATCH-${p + 1}`,
				insured_name: `Watch Insured ${p + 1}`,
				state_code: 'TX',
				net_premium: 2000 + 10 * p + f,
				effective_date: '2026-01-01',
				expiration_date: '2027-01-01',
				type_code: f === 0 ? 'NEW' : 'END',
			})),
		);
		const filed = await fire(`${stage.mainUrl}/webhook/${WATCH_FILING.path}`, bodies);
		if (filed.badCalls.length) throw new Error(`filing: ${filed.badCalls.join(' | ')}`);
		const listed = await rows();
		const ids = listed.map((r) => Number(r.invoice_id)).sort((a, b) => a - b);
		log(`watch list: ${FILINGS} filings at once recorded ${listed.length} rows (${new Set(ids).size} invoices) while the looks ran`);
		if (listed.length !== FILINGS * POLICIES || new Set(ids).size !== listed.length) throw new Error(`${listed.length} rows recorded for ${FILINGS * POLICIES} rows filed`);

		await until('every row read by a look', async () => (await rows()).every((r) => r.checked_at), () => `${texts().length} messages`, SEEN_MS);
		if (slack.messages.length) throw new Error(`messages before any change: ${JSON.stringify(texts())}`);

		const [first, second] = waves(ids);
		let expected = 0;
		for (const [n, wave] of [first, second].entries()) {
			for (const move of wave) await control(sandbox, `/invoices/${move.invoice}/status`, move.body);
			expected += wave.filter((m) => m.message).length;
			// The wave is seen when its messages are in and every moved row holds its new state (or left).
			await until(
				`wave ${n + 1}: ${expected} messages and the moved rows stored`,
				async () => {
					if (slack.messages.length < expected) return false;
					const now = new Map((await rows()).map((r) => [Number(r.invoice_id), String(r.state)]));
					return wave.every((m) => holds(now.get(m.invoice), m.body));
				},
				() => `${slack.messages.length} of ${expected} messages`,
				SEEN_MS,
			);
			log(`watch list: wave ${n + 1}, ${wave.length} statuses moved: ${slack.messages.length} messages so far`);
		}

		// Further looks must post nothing more: at least QUIET_LOOKS that start after this point and
		// succeed, and more (up to MORE_LOOKS) until both workers have looked, which BullMQ decides.
		const before = new Set((await looksSince(session, WATCH_NOTIFY_ID, new Set())).map((e) => e.id));
		const bothLooked = async () => {
			const ids = (await looksSince(session, WATCH_NOTIFY_ID, new Set())).map((e) => e.id);
			return workers.every((w) => ids.some((id) => executionsStartedBy(w).has(id)));
		};
		await until(
			`${QUIET_LOOKS} more looks`,
			async () => {
				const quiet = (await looksSince(session, WATCH_NOTIFY_ID, before)).filter((e) => e.status === 'success').length;
				return quiet >= MORE_LOOKS || (quiet >= QUIET_LOOKS && (await bothLooked()));
			},
			() => `${slack.messages.length} messages`,
			SEEN_MS * 2,
		);
		await ok(session, 'POST', `/rest/workflows/${WATCH_NOTIFY_ID}/deactivate`, {});
		const all = await looksSince(session, WATCH_NOTIFY_ID, new Set());

		const problems: string[] = [];
		const moves = [...first, ...second].filter((m) => m.message);
		for (const move of moves) {
			const posted = texts().filter((t) => t.includes(`Invoice ${move.invoice} (`) && move.message?.test(t));
			if (posted.length !== 1) problems.push(`invoice ${move.invoice} ${JSON.stringify(move.body)}: ${posted.length} messages`);
		}
		const unexpected = texts().filter((t) => !moves.some((m) => t.includes(`Invoice ${m.invoice} (`) && m.message?.test(t)));
		if (unexpected.length) problems.push(`${unexpected.length} unexpected messages: ${JSON.stringify(unexpected.slice(0, 5))}`);
		const left = await rows();
		// Confirmed with success, and refused (the filing's last answer), leave the list.
		const settled = [...ids.slice(8, 16), ...ids.slice(0, 4), ...ids.slice(20, 23)];
		if (left.length !== ids.length - settled.length || left.some((r) => settled.includes(Number(r.invoice_id))))
			problems.push(`${left.length} rows left on the list, expected ${ids.length - settled.length} (the settled ones leave)`);
		const failed = all.filter((e) => e.status !== 'success' && e.status !== 'running' && e.status !== 'new');
		if (failed.length) problems.push(`${failed.length} looks did not succeed: ${failed.map((e) => `${e.id} ${e.status}`).join(', ')}`);
		const perWorker = workers.map((w) => {
			const started = executionsStartedBy(w);
			return all.filter((e) => started.has(e.id)).map((e) => e.id);
		});
		log(
			`watch list: ${slack.messages.length} messages for ${moves.length} changes people act on (${first.length + second.length - moves.length} moves nobody acts on), ` +
				`${all.length} looks, run by the workers ${perWorker.map((ids) => ids.length).join('/')} ` +
				`(${perWorker.map((ids, i) => `worker ${i + 1}: ${ids.sort((a, b) => Number(a) - Number(b)).join(',')}`).join('; ')}); ${left.length} rows left`,
		);
		// Which worker takes a job is BullMQ's choice: one worker taking every look is said, not failed.
		if (perWorker.some((ids) => ids.length === 0)) log(`watch list: every look ran on one worker (${all.length} looks)`);
		if (problems.length) throw new Error(problems.join('\n'));
	} finally {
		await session.request('POST', `/rest/workflows/${WATCH_NOTIFY_ID}/deactivate`, {});
	}
}
