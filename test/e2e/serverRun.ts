/**
 * Runs a workflow in a started n8n the way the editor's "Execute workflow" button does
 * (POST /rest/workflows/:id/run, manual mode), then reads the finished execution.
 *
 * Needed for workflows that start at a polling trigger: `n8n execute` runs in `cli` mode, which
 * requires a Manual Trigger to start from and never calls poll(); a manual run calls poll() with
 * mode `manual`, as when a user clicks "Fetch Test Event".
 */
import { sleep, type RestSession } from './n8n';
import { unflatten, type Run } from './runData';

interface WorkflowData {
	id: string;
	nodes: Array<{ name: string; type: string }>;
}

interface Execution {
	finished?: boolean;
	status?: string;
	data: unknown;
}

export async function runViaServer(session: RestSession, workflowId: string, bin: string, timeoutMs = 180_000): Promise<Run> {
	const wf = await session.request<{ data: WorkflowData }>('GET', `/rest/workflows/${workflowId}`);
	if (wf.status !== 200) throw new Error(`GET /rest/workflows/${workflowId}: ${wf.status} ${JSON.stringify(wf.body)}`);
	const workflowData = wf.body.data;
	const trigger = workflowData.nodes.find((n) => /trigger/i.test(n.type));
	if (!trigger) throw new Error(`workflow ${workflowId} has no trigger node`);

	const started = await session.request<{ data: { executionId?: string; waitingForWebhook?: boolean } }>(
		'POST',
		`/rest/workflows/${workflowId}/run`,
		{ workflowData, triggerToStartFrom: { name: trigger.name } },
	);
	const executionId = started.body?.data?.executionId;
	if (started.status !== 200 || !executionId) {
		throw new Error(`manual run of ${workflowId} did not start: ${started.status} ${JSON.stringify(started.body)}`);
	}

	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await session.request<{ data: Execution }>('GET', `/rest/executions/${executionId}`);
		const execution = res.body?.data;
		if (res.status === 200 && execution && execution.status !== 'running' && execution.status !== 'new' && execution.data) {
			return { status: execution.status, finished: execution.finished, data: unflatten(bin, execution.data) };
		}
		if (Date.now() > deadline) throw new Error(`execution ${executionId} did not finish within ${timeoutMs} ms`);
		await sleep(300);
	}
}

export interface ExecutionSummary {
	id: string;
	mode?: string;
	status?: string;
}

export async function listExecutions(session: RestSession, workflowId: string): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const res = await session.request<{ data: { results: ExecutionSummary[] } }>('GET', `/rest/executions?filter=${filter}&limit=50`);
	if (res.status !== 200) throw new Error(`GET /rest/executions: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body.data.results;
}

/**
 * Waits until n8n has saved the state of the trigger's first poll after activation (the baseline).
 * n8n 2.8.4 polls before the activate call returns; n8n 2.41 may poll just after it, so a change
 * made at once could fall into the baseline and never come out as an event.
 */
export async function waitForBaseline(session: RestSession, workflowId: string, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await session.request<{ data: { staticData?: Record<string, unknown> | string | null } }>('GET', `/rest/workflows/${workflowId}`);
		const raw = res.body?.data?.staticData;
		const staticData = (typeof raw === 'string' ? JSON.parse(raw) : raw ?? {}) as Record<string, unknown>;
		if (Object.keys(staticData).some((key) => key.startsWith('node:'))) return;
		if (Date.now() > deadline) throw new Error(`n8n saved no trigger state for ${workflowId} within ${timeoutMs} ms of its activation`);
		await sleep(300);
	}
}

export interface ActivatedRuns {
	/** Every execution the active workflow's polls started, oldest first. */
	runs: Run[];
}

/**
 * Activates (publishes) the workflow, so n8n polls its trigger on the schedule for real (poll()
 * in `trigger` mode, static data kept between polls), lets `afterActivation` change the service,
 * and collects the executions the polls start until `until(runs)` holds and `quietMs` more pass
 * without a new one. Deactivates the workflow at the end, whatever happens.
 */
export async function runActivated(
	session: RestSession,
	workflowId: string,
	bin: string,
	opts: { afterActivation: () => Promise<void>; until: (runs: Run[]) => boolean; quietMs: number; timeoutMs: number },
): Promise<ActivatedRuns> {
	const wf = await session.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${workflowId}`);
	const activated = await session.request('POST', `/rest/workflows/${workflowId}/activate`, { versionId: wf.body.data.versionId });
	if (activated.status !== 200) throw new Error(`activating ${workflowId}: ${activated.status} ${JSON.stringify(activated.body)}`);
	try {
		// n8n polls once on activation (a baseline); the change comes after it.
		await waitForBaseline(session, workflowId);
		await opts.afterActivation();
		const deadline = Date.now() + opts.timeoutMs;
		const runs = new Map<string, Run>();
		let settledAt: number | undefined;
		for (;;) {
			for (const summary of await listExecutions(session, workflowId)) {
				if (runs.has(summary.id) || summary.status === 'running' || summary.status === 'new') continue;
				const res = await session.request<{ data: Execution }>('GET', `/rest/executions/${summary.id}`);
				const execution = res.body.data;
				runs.set(summary.id, { status: execution.status, finished: execution.finished, data: unflatten(bin, execution.data) });
				settledAt = undefined;
			}
			const ordered = [...runs.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, run]) => run);
			if (opts.until(ordered)) {
				settledAt ??= Date.now();
				if (Date.now() - settledAt >= opts.quietMs) return { runs: ordered };
			}
			if (Date.now() > deadline) {
				throw new Error(`the active workflow's polls gave ${ordered.length} executions in ${opts.timeoutMs} ms, not what was expected`);
			}
			await sleep(500);
		}
	} finally {
		await session.request('POST', `/rest/workflows/${workflowId}/deactivate`, {});
	}
}
