/** Reading a run of n8n (its IRun) from n8n's database, and the nodes' outputs in it. */
import assert from 'node:assert/strict';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { querySqlite, requireFromN8n } from './n8n';

export interface TaskData {
	executionStatus?: string;
	executionTime?: number;
	data?: { main?: Array<Array<{ json: IDataObject; binary?: Record<string, BinaryMeta> }> | null> };
	error?: { message?: string; description?: string; name?: string };
}

export interface BinaryMeta {
	fileName?: string;
	mimeType?: string;
	fileSize?: string;
	data?: string;
	id?: string;
}

export interface Run {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<string, TaskData[]>;
			error?: { message?: string; description?: string; node?: { name?: string } };
			lastNodeExecuted?: string;
		};
	};
}

/** n8n stores execution data in the `flatted` format; read it with n8n's own copy. */
export function unflatten(bin: string, data: unknown): Run['data'] {
	if (typeof data !== 'string') return data as Run['data'];
	const flatted = requireFromN8n(bin)('flatted') as { parse(text: string): unknown };
	return flatted.parse(data) as Run['data'];
}

const database = (userFolder: string) => join(userFolder, '.n8n', 'database.sqlite');

/** The newest execution's id in n8n's database (0 when there is none): a later run gets a higher one. */
export async function newestExecutionId(bin: string, userFolder: string): Promise<number> {
	const [row] = await querySqlite<{ id: number | null }>(bin, database(userFolder), 'SELECT MAX(CAST(id AS INTEGER)) AS id FROM execution_entity');
	return Number(row?.id ?? 0);
}

/**
 * The run of the first execution of `workflowId` after execution `afterId`, from n8n's sqlite
 * database (execution_entity and execution_data), read once `n8n execute` has ended; undefined
 * when n8n saved none. `execute --rawOutput` prints the run on stdout too, but there n8n's log
 * lines mix with it (and a failed run is printed only through the log), and n8n exits as soon as
 * it has written, so the end of a large run (6,000 rows) is lost on a pipe. The database holds
 * the run whole, in the same form on 2.8.4 and 2.41.1 (n8n saves every cli execution by default).
 */
export async function readExecution(bin: string, userFolder: string, workflowId: string, afterId: number): Promise<Run | undefined> {
	const rows = await querySqlite<{ status: string | null; finished: number | boolean; data: string }>(
		bin,
		database(userFolder),
		`SELECT e.status, e.finished, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
		 WHERE e."workflowId" = ? AND CAST(e.id AS INTEGER) > ? ORDER BY CAST(e.id AS INTEGER) LIMIT 1`,
		[workflowId, afterId],
	);
	if (!rows.length) return undefined;
	const [row] = rows;
	return { status: row.status ?? undefined, finished: Boolean(row.finished), data: unflatten(bin, row.data) };
}

function lastTask(run: Run, node: string): TaskData {
	const tasks = run.data.resultData.runData[node];
	assert.ok(tasks && tasks.length > 0, `node "${node}" did not run (ran: ${Object.keys(run.data.resultData.runData).join(', ')})`);
	return tasks[tasks.length - 1];
}

/** The items a node put out on one output (default the first), from its last run. */
export function items(run: Run, node: string, output = 0): Array<{ json: IDataObject; binary?: Record<string, BinaryMeta> }> {
	const task = lastTask(run, node);
	assert.equal(task.error, undefined, `node "${node}" failed: ${task.error?.message} ${task.error?.description ?? ''}`);
	return task.data?.main?.[output] ?? [];
}

/** The json of each item a node put out. */
export function json(run: Run, node: string, output = 0): IDataObject[] {
	return items(run, node, output).map((i) => i.json);
}

/** The error a node stopped on (the run failed there). */
export function nodeError(run: Run, node: string): { message?: string; description?: string } {
	const task = lastTask(run, node);
	assert.ok(task.error, `node "${node}" was expected to fail but succeeded`);
	return task.error;
}
