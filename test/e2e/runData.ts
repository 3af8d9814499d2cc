/** Reading the run that `n8n execute --rawOutput` prints (n8n's IRun as JSON). */
import assert from 'node:assert/strict';
import type { IDataObject } from 'n8n-workflow';

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

/**
 * The run JSON from the CLI's stdout: n8n prints log lines first, then the run, pretty-printed,
 * from a line that starts with `{`.
 */
export function parseRawOutput(stdout: string): Run | undefined {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l.startsWith('{'));
	if (start < 0) return undefined;
	const text = lines.slice(start).join('\n');
	// Log lines may follow the JSON: take the text up to the last closing brace that parses.
	for (let end = text.lastIndexOf('}'); end > 0; end = text.lastIndexOf('}', end - 1)) {
		try {
			return JSON.parse(text.slice(0, end + 1)) as Run;
		} catch {
			// keep shortening
		}
	}
	return undefined;
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
