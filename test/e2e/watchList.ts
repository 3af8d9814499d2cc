/**
 * What the watch-list runs share (the e2e scenarios and the queue stage): the data table both
 * examples find by name, made fresh over n8n's REST API; the Slack example on a short schedule;
 * waits that end when their condition holds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { WATCH_LIST_COLUMNS } from '../../nodes/watch/rowState';
import { REPO_ROOT, sleep, type RestSession } from './n8n';
import { json, type Run } from './runData';
import { runViaServer } from './serverRun';

/** The data table's name as the examples use it (the docs have users create it so). */
export const WATCH_TABLE = 'Surplus Lines watch list';
export const SLACK_EXAMPLE = 'post-watched-filing-changes-to-slack.json';
const FILING_EXAMPLE = 'file-a-bordereau-and-watch-what-was-filed.json';

export async function ok<T>(session: RestSession, method: string, path: string, body?: unknown): Promise<T> {
	const res = await session.request<{ data: T }>(method, path, body);
	if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
	return res.body.data;
}

export interface WatchTable {
	id: string;
	/** The rows now (the session: the one of the n8n running now, a new one after a restart). */
	rows(session: RestSession): Promise<IDataObject[]>;
}

/** The watch-list table, empty: one an earlier scenario left under the same name is deleted first. */
export async function freshWatchTable(session: RestSession): Promise<WatchTable> {
	const project = await ok<{ id: string }>(session, 'GET', '/rest/projects/personal');
	const base = `/rest/projects/${project.id}/data-tables`;
	const listed = await ok<{ data: Array<{ id: string; name: string }> }>(session, 'GET', `${base}?take=100&skip=0`);
	for (const old of listed.data.filter((t) => t.name === WATCH_TABLE)) await ok(session, 'DELETE', `${base}/${old.id}`);
	const table = await ok<{ id: string }>(session, 'POST', base, { name: WATCH_TABLE, columns: WATCH_LIST_COLUMNS });
	return {
		id: table.id,
		rows: async (now) => (await ok<{ data: IDataObject[] }>(now, 'GET', `${base}/${table.id}/rows?take=1000&skip=0`)).data,
	};
}

/**
 * The filing example run once (a manual run in `n8n start`): it files the sample bordereau and
 * records what it filed in the table. Returns the run and the rows it recorded, after checking the
 * table holds each.
 */
export async function fileWithExample(session: RestSession, bin: string, table: WatchTable): Promise<{ filing: Run; recorded: IDataObject[] }> {
	const filing = await runExample(session, bin, FILING_EXAMPLE);
	const recorded = json(filing, 'Rows to Record');
	if (recorded.length === 0) throw new Error(`the filing example recorded no rows: ${JSON.stringify(filing.data.resultData.error ?? null)}`);
	const listed = (await table.rows(session)).length;
	if (listed !== recorded.length) throw new Error(`${recorded.length} rows recorded, ${listed} in the data table`);
	return { filing, recorded };
}

/** An example of examples/ as shipped, made in n8n over REST and run once as the editor's button runs it. */
export async function runExample(session: RestSession, bin: string, file: string): Promise<Run> {
	const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')) as IDataObject;
	const workflow = await ok<{ id: string }>(session, 'POST', '/rest/workflows', {
		name: example.name, nodes: example.nodes, connections: example.connections, settings: example.settings,
	});
	return await runViaServer(session, workflow.id, bin, 180_000);
}

interface Credential {
	id: string;
	name: string;
}

interface WorkflowJson {
	name: string;
	connections: unknown;
	settings: unknown;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown>; credentials?: Record<string, Credential> }>;
	[key: string]: unknown;
}

/**
 * The Slack example as it is but for its schedule (every `seconds`, so a run sees several looks
 * in a short time), Looks per Hour to match and its Budget Share; the credentials its own unless
 * given. Name, nodes, connections and settings: what n8n's REST API creates a workflow from.
 */
export function scheduledWatchSlack(options: { seconds: number; budgetShare: number; credential?: Credential; slack?: Credential }) {
	const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', SLACK_EXAMPLE), 'utf8')) as WorkflowJson;
	const nodes = example.nodes.map((n) => {
		if (n.type === 'n8n-nodes-base.scheduleTrigger') return { ...n, parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: options.seconds }] } } };
		if (n.type === 'n8n-nodes-base.slack') return options.slack ? { ...n, credentials: { slackApi: options.slack } } : n;
		if (n.parameters.operation !== 'watchLook') return n;
		return {
			...n,
			parameters: { ...n.parameters, looksPerHour: 3600 / options.seconds, options: { budgetShare: options.budgetShare } },
			...(options.credential ? { credentials: { surplusLinesApi: options.credential } } : {}),
		};
	});
	if (!nodes.some((n) => n.parameters.operation === 'watchLook')) throw new Error('the Slack example has no Look for Changes node');
	return { name: `${example.name} (every ${options.seconds} s)`, nodes, connections: example.connections, settings: example.settings };
}

/** Polls until `done` holds; at the deadline fails saying what was awaited and where it stood. */
export async function until(what: string, done: () => Promise<boolean>, status: () => string, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await done())) {
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s (${status()})`);
		await sleep(1000);
	}
}

/** The row left the list (settled), or its state ("status|filing|documents") holds what a status move set. */
export function holds(state: string | undefined, move: IDataObject): boolean {
	if (state === undefined) return true;
	const [status, filing] = state.split('|');
	return (move.status === undefined || move.status === status) && (move.state_status === undefined || move.state_status === filing);
}

/** Finished executions of a workflow started after those in `before` (ids), by status. */
export async function looksSince(session: RestSession, workflowId: string, before: Set<string>): Promise<Array<{ id: string; status?: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const res = await ok<{ results: Array<{ id: string; status?: string }> }>(session, 'GET', `/rest/executions?filter=${filter}&limit=100`);
	return res.results.filter((e) => !before.has(e.id));
}
