/**
 * The polling trigger across restarts of n8n: the workflow stays active while `n8n start` is
 * stopped and started again on the same database, and every change comes out exactly once. The
 * trigger's state is read from n8n's own database after a poll that emitted.
 *
 * Twice on n8n >= 2.37: as n8n polls by default (the trigger's state saved in the workflow after
 * the execution) and with durable poll cursors (n8n's scheduler runs the polls and commits the
 * state with the execution, in its `poller_state` table).
 */
import assert from 'node:assert/strict';
import type { IDataObject } from 'n8n-workflow';

import { api, control, invoiceBody, type Context, type Scenario, type ServerControl } from './context';
import { querySqlite, sleep } from './n8n';
import { json, unflatten, type Run } from './runData';
import { listExecutions } from './serverRun';

const TRIGGER = 'Policy Changed';
/**
 * The two workflows (their own ids: a workflow's saved trigger state outlives its deactivation,
 * and the sandbox starts again at invoice 1001 for each scenario; durable cursors are kept per
 * workflow and trigger node id). `quietMs`: how long no new execution may come after each step,
 * two polls' worth, and at the end at least one poll.
 *
 * The default one polls every 5 s through twelve once-a-minute poll times. The durable one polls
 * once a minute through one poll time: n8n's scheduler keeps a job per poll time, and after a
 * restart it ran the jobs that had come due together, each poll from the same committed state, so
 * the same change came out of each (the trigger shares its state between overlapping polls only
 * within one copy of it, and each of these polls gets its own).
 */
const WORKFLOWS = {
	default: { file: 'trigger-restart.json', id: 'slE2eTriggerRst1', triggerNodeId: 'f3000000-0000-4000-8000-000000000001', quietMs: [11_000, 11_000, 11_000], timeoutMs: 120_000 },
	durable: { file: 'trigger-restart-durable.json', id: 'slE2eTriggerRst2', triggerNodeId: 'f3000000-0000-4000-8000-000000000011', quietMs: [1_000, 1_000, 65_000], timeoutMs: 240_000 },
};

/** n8n's settings for durable poll cursors: the cursor setting alone does nothing without the other three. */
export const DURABLE_POLL_CURSORS: Record<string, string> = {
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};
const POLICY = 'E2E-RST-1';

/** The trigger's events across the runs, as [event, invoice, previous, current]. */
function events(runs: Run[]): IDataObject[] {
	return runs.flatMap((run) => json(run, TRIGGER));
}

/**
 * The trigger node's saved state as n8n's database holds it: the workflow's static data, or with
 * durable cursors the node's cursor row.
 */
async function savedTriggerState(n8n: ServerControl, durable: boolean): Promise<SavedTrigger | undefined> {
	const workflow = durable ? WORKFLOWS.durable : WORKFLOWS.default;
	if (durable) {
		const sql = 'SELECT cursor FROM poller_state WHERE workflowId = ? AND nodeId = ?';
		const [row] = await querySqlite<{ cursor: string | null }>(n8n.bin, n8n.database, sql, [workflow.id, workflow.triggerNodeId]);
		return (JSON.parse(row?.cursor ?? '{}') as { trigger?: SavedTrigger }).trigger;
	}
	const [row] = await querySqlite<{ staticData: string | null }>(n8n.bin, n8n.database, 'SELECT staticData FROM workflow_entity WHERE id = ?', [workflow.id]);
	const staticData = JSON.parse(row?.staticData ?? '{}') as IDataObject;
	return (staticData[`node:${TRIGGER}`] as { trigger?: SavedTrigger } | undefined)?.trigger;
}

interface SavedTrigger {
	invoices: Record<string, { s?: string; f?: string }>;
	units: Record<string, { known?: number[] }>;
}

/**
 * Waits until the saved state shows `expected`: up to 30 s (n8n writes as the execution starts,
 * or as its activation's poll ends, which a busy machine delays), or `waitMs` when the state comes
 * from a scheduled poll that may be most of a minute away.
 */
async function expectSaved(n8n: ServerControl, durable: boolean, expected: (state: SavedTrigger | undefined) => boolean, what: string, waitMs = 60_000): Promise<void> {
	const deadline = Date.now() + waitMs;
	let state: SavedTrigger | undefined;
	for (;;) {
		state = await savedTriggerState(n8n, durable);
		if (expected(state)) return;
		if (Date.now() > deadline) break;
		await sleep(500);
	}
	assert.fail(`n8n's database does not hold ${what}; it holds ${JSON.stringify(state?.invoices)} ${JSON.stringify(state?.units)}`);
}

/**
 * Collects the finished executions of the workflow into `seen` until `until` holds and `quietMs`
 * more pass without a new one (further polls must emit nothing).
 */
async function collect(n8n: ServerControl, workflowId: string, seen: Map<string, Run>, until: (runs: Run[]) => boolean, quietMs: number, timeoutMs = 120_000): Promise<Run[]> {
	const deadline = Date.now() + timeoutMs;
	let settledAt: number | undefined;
	for (;;) {
		for (const summary of await listExecutions(n8n.session, workflowId)) {
			if (seen.has(summary.id) || summary.status === 'running' || summary.status === 'new') continue;
			const res = await n8n.session.request<{ data: { status?: string; finished?: boolean; data: unknown } }>('GET', `/rest/executions/${summary.id}`);
			const execution = res.body.data;
			seen.set(summary.id, { status: execution.status, finished: execution.finished, data: unflatten(n8n.bin, execution.data) });
			settledAt = undefined;
		}
		const runs = [...seen.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, run]) => run);
		if (until(runs)) {
			settledAt ??= Date.now();
			if (Date.now() - settledAt >= quietMs) return runs;
		}
		if (Date.now() > deadline) {
			throw new Error(`${runs.length} executions with ${events(runs).length} events in ${timeoutMs} ms, not what was expected: ${JSON.stringify(brief(events(runs)))}`);
		}
		await sleep(500);
	}
}

function brief(list: IDataObject[]): unknown[][] {
	return list.map((e) => [e.event, e.invoice_id, e.previous, e.current]);
}

async function drive(ctx: Context, n8n: ServerControl, durable: boolean): Promise<Run[]> {
	const { id, quietMs, timeoutMs } = durable ? WORKFLOWS.durable : WORKFLOWS.default;
	const workflow = await n8n.session.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${id}`);
	const activated = await n8n.session.request('POST', `/rest/workflows/${id}/activate`, { versionId: workflow.body.data.versionId });
	if (activated.status !== 200) throw new Error(`activating ${id}: ${activated.status} ${JSON.stringify(activated.body)}`);
	const seen = new Map<string, Run>();
	try {
		// Activation polls once (the baseline), which n8n 2.41 may do just after the activate call
		// returns. With durable cursors only the scheduler's polls commit state, and the first one
		// comes at the next minute: up to 60 s after activating, plus a busy machine's delay.
		const baselineWaitMs = durable ? 100_000 : 60_000;
		await expectSaved(n8n, durable, (s) => s?.invoices['1001']?.s === 'new', 'the baseline: invoice 1001 as new', baselineWaitMs);
		await control(ctx, '/invoices/1001/status', { status: 'sent', state_status: 'sent' });
		await collect(n8n, id, seen, (runs) => events(runs).length >= 2, quietMs[0], timeoutMs);
		await expectSaved(n8n, durable, (s) => s?.invoices['1001']?.s === 'sent' && s.invoices['1001'].f === 'sent', 'invoice 1001 as sent (the emitting poll’s state)');

		await n8n.stop();
		// While n8n is down: invoice 1001 succeeds and an endorsement is filed on the policy.
		await control(ctx, '/invoices/1001/status', { status: 'success' });
		const endorsement = invoiceBody({ policy_number: POLICY, type_code: 'ENDORSEMENT', net_premium: 500, transaction_effective_date: '2026-06-01' });
		assert.equal((await api(ctx, 'POST', '/invoices', endorsement)).status, 201);
		// n8n activates the workflow again as it starts; its first poll (at activation, or with
		// n8n's scheduler the next scheduled one) sees what changed meanwhile.
		await n8n.start();
		await collect(n8n, id, seen, (runs) => events(runs).length >= 4, quietMs[1], timeoutMs);

		await control(ctx, '/invoices/1002/status', { status: 'sent' });
		await collect(n8n, id, seen, (runs) => events(runs).length >= 5, quietMs[2], timeoutMs);
		await expectSaved(n8n, durable, (s) => s?.invoices['1002']?.s === 'sent' && (s.units[`p:${POLICY}`]?.known ?? []).includes(1002), 'invoice 1002 as sent, known on the policy');
	} finally {
		await n8n.session.request('POST', `/rest/workflows/${id}/deactivate`, {});
	}
	return [...seen.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, run]) => run);
}

function triggerRestart(durable: boolean): Scenario {
	return {
		name: durable ? 'trigger-restart-durable' : 'trigger-restart',
		workflow: durable ? WORKFLOWS.durable.file : WORKFLOWS.default.file,
		via: 'restart',
		...(durable ? { minN8n: [2, 37] as [number, number], serverEnv: DURABLE_POLL_CURSORS } : { compat: true as const }),
		async before(ctx) {
			assert.equal((await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: POLICY }))).status, 201);
		},
		restart: async (ctx, n8n) => await drive(ctx, n8n, durable),
		check,
	};
}

function check(_run: Run, _ctx: Context, runs: Run[]): void {
	const all = events(runs);
	assert.deepEqual(
		brief(all),
		[
			['invoice_status_changed', 1001, 'new', 'sent'],
			['filing_state_changed', 1001, 'not_sent', 'sent'],
			['invoice_status_changed', 1001, 'sent', 'success'],
			['new_transaction', 1002, null, 'new'],
			['invoice_status_changed', 1002, 'new', 'sent'],
		],
		'each change once: none again after the restart, the two made while n8n was down once after it',
	);
	assert.equal(new Set(all.map((e) => e.event_id)).size, all.length, 'event ids are unique');
	assert.equal(all.some((e) => e.sample === true), false, 'real poll events, not samples');
}

export const TRIGGER_RESTART_SCENARIOS: Scenario[] = [triggerRestart(false), triggerRestart(true)];
