/**
 * Routable results in a real n8n: the error output of each action node (item counts on both
 * branches), no signed link or key in any node's output, and no fragment of the key stored in n8n's
 * database after a call to a page that echoes the request.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import type { Context, Scenario } from './context';
import { n8nEnv, querySqlite, REPO_ROOT, runCliOk } from './n8n';
import type { Run } from './runData';

/** The items of each output of a node's last run: [success, error] for "using error output". */
function branches(run: Run, node: string): IDataObject[][] {
	const tasks = run.data.resultData.runData[node];
	assert.ok(tasks?.length, `node "${node}" did not run`);
	return (tasks[tasks.length - 1].data?.main ?? []).map((items) => (items ?? []).map((i) => i.json));
}

function counts(run: Run, node: string): number[] {
	const outputs = branches(run, node);
	return [outputs[0]?.length ?? 0, outputs[1]?.length ?? 0];
}

const errorOutput: Scenario = {
	name: 'error-output',
	workflow: 'error-output.json',
	compat: true,
	check(run) {
		assert.deepEqual(counts(run, 'Create Many'), [22, 3], 'Create Many: 22 filed, 3 bad rows on the error output');
		const notFiled = branches(run, 'Create Many')[1];
		// n8n adds the input row's fields to an error-output item; the node adds what names the row.
		assert.deepEqual(notFiled.map((i) => i.policy), ['E2E-EO-5', 'E2E-EO-12', 'E2E-EO-20']);
		assert.deepEqual(
			notFiled.map((i) => (i.error as IDataObject).policy_number),
			['E2E-EO-5', 'E2E-EO-12', 'E2E-EO-20'],
		);
		assert.deepEqual(notFiled.map((i) => (i.error as IDataObject).code), ['INVALID_INPUT', 'VALIDATION_ERROR', 'VALIDATION_ERROR']);
		assert.equal((notFiled[0].error as IDataObject).effective_date, '2026-13-01');
		assert.equal((notFiled[1].error as IDataObject).summary, '3 of 25 rows not filed');
		assert.match(String(notFiled[1].message), /VALIDATION_ERROR/);
		assert.equal(counts(run, 'Not Filed')[0], 3, 'the error branch ran with the 3 items');
		assert.equal(counts(run, 'Filed')[0], 22);
		const hints = (run.data.resultData.runData['Create Many']?.[0] as { hints?: Array<{ message: string }> }).hints ?? [];
		assert.equal(String(hints[0]?.message), 'Of 25 rows: 22 filed, 3 refused (error items, listed in the warning); nothing was filed twice.');
		assert.match(String(hints[1]?.message), /rows 6 \(item 4[^)]*\), 13 \(item 11[^)]*\), 21 \(item 19[^)]*\)\./, 'rows as a sheet with a header row shows them, beside the item index');

		assert.deepEqual(counts(run, 'Create With t1 Key'), [0, 1]);
		const [refused] = branches(run, 'Create With t1 Key')[1];
		assert.equal((refused.error as IDataObject).code, 'TIER_REQUIRED');
		assert.equal((refused.error as IDataObject).policy_number, 'E2E-EO-T1');

		assert.deepEqual(counts(run, 'Estimate'), [1, 1], 'Calculator: TX estimated, ZZ on the error output');
		assert.equal(branches(run, 'Estimate')[1][0].state, 'ZZ');

		assert.deepEqual(counts(run, 'Get Missing Document'), [0, 1]);
		assert.equal((branches(run, 'Get Missing Document')[1][0].error as IDataObject).httpStatus, 404);
	},
};

/** The secret part of each test key (what follows the tier), cut into every 8-character run. */
export function secretRuns(ctx: Context): string[] {
	const runs: string[] = [];
	for (const key of [ctx.keys.t2, ctx.keys.t1]) {
		const secret = key.slice(key.lastIndexOf('_') + 1);
		for (let i = 0; i + 8 <= secret.length; i++) runs.push(secret.slice(i, i + 8));
	}
	return runs;
}

/** Names of the nodes of this package in a scenario's workflow (test helpers call the sandbox's own control API). */
function packageNodes(scenario: Scenario): Set<string> {
	const dir = scenario.example ? join(REPO_ROOT, 'examples') : join(REPO_ROOT, 'test', 'e2e', 'workflows');
	const workflow = JSON.parse(readFileSync(join(dir, scenario.workflow), 'utf8')) as { nodes: Array<{ name: string; type: string }> };
	return new Set(workflow.nodes.filter((n) => n.type.startsWith('n8n-nodes-surplus-lines.')).map((n) => n.name));
}

/**
 * Every scenario's runs: no output (any branch) of this package's nodes holds a signed link, and
 * no node's output or error holds 8 characters of a key. Called by the runner after each check.
 */
export function assertNoSecretsInOutputs(run: Run, ctx: Context, scenario: Scenario): void {
	const fragments = secretRuns(ctx);
	const ours = packageNodes(scenario);
	for (const [node, tasks] of Object.entries(run.data.resultData.runData)) {
		for (const task of tasks) {
			const output = JSON.stringify(task.data?.main ?? []);
			if (ours.has(node)) assert.ok(!output.includes('sig='), `node "${node}" put out a signed link`);
			const text = output + JSON.stringify(task.error ?? {});
			const found = fragments.find((f) => text.includes(f));
			assert.equal(found, undefined, `node "${node}" put out part of the API key`);
		}
	}
}

/** A page at a wrong Base URL that reflects the request's headers as HTML, as a debug endpoint does. */
function startEchoServer(seen: string[]): Promise<Server> {
	const server = createServer((req, res) => {
		seen.push(String(req.headers.authorization ?? ''));
		const rows = Object.entries(req.headers)
			.sort(([a], [b]) => Number(b === 'authorization') - Number(a === 'authorization'))
			.map(([name, value]) => `<tr><td>${name}</td><td>${String(value)}</td></tr>`)
			.join('');
		// Padding puts the key's secret part across the 120th character, where the reply preview
		// used to be cut (it then kept the secret's first 14 characters).
		const page = (pad: string) => `<html><body><h1>Request ${req.method} ${req.url}</h1><p>${pad}</p><table>${rows}</table></body></html>`;
		const at = page('').indexOf('Bearer ');
		const body = page('.'.repeat(Math.max(0, 106 - 'Bearer sltax_t2_'.length - at)));
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end(body);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Every row of n8n's execution_data table (sqlite), read with the sqlite3 module n8n ships with. */
export async function readExecutionData(userFolder: string): Promise<Array<{ executionId: number; workflowData: string; data: string }>> {
	const bin = process.env.N8N_BIN;
	assert.ok(bin, 'N8N_BIN is set by scripts/e2e.sh');
	return await querySqlite(bin, join(userFolder, '.n8n', 'database.sqlite'), 'SELECT "executionId", "workflowData", "data" FROM execution_data');
}

const seenAuthorization: string[] = [];
let echo: Server | undefined;

const echoedKey: Scenario = {
	name: 'echoed-key-not-stored',
	workflow: 'echoed-key.json',
	expectRunError: true,
	async before(ctx) {
		seenAuthorization.length = 0;
		echo = await startEchoServer(seenAuthorization);
		const { port } = echo.address() as AddressInfo;
		// The credential points at the echoing page: a wrong Base URL, as a user could set it.
		const file = join(ctx.userFolder, 'e2e-input', 'echo-credential.json');
		const credential = { id: 'slE2eEchoCredential', name: 'Surplus Lines at an echoing address', type: 'surplusLinesApi', data: { apiKey: ctx.keys.t2, baseUrl: `http://127.0.0.1:${port}` } };
		writeFileSync(file, JSON.stringify([credential]));
		await runCliOk(await n8nEnv(String(process.env.N8N_BIN), ctx.userFolder), ['import:credentials', `--input=${file}`]);
	},
	async check(run, ctx) {
		assert.ok(seenAuthorization.some((h) => h === `Bearer ${ctx.keys.t2}`), 'the page received the key, and echoed it');
		const [continued] = branches(run, 'Key Info (continue)')[0];
		assert.equal(continued.code, 'NOT_ENVELOPE', `the echo page is not the service: ${JSON.stringify(continued)}`);
		assert.equal(run.data.resultData.error?.node?.name, 'Key Info (stops)');

		const rows = await readExecutionData(ctx.userFolder);
		const ours = rows.filter((r) => String(r.workflowData).includes('slE2eEchoedKey1'));
		assert.ok(ours.length > 0, `n8n stored this execution (${rows.length} executions in the database)`);
		assert.ok(ours.some((r) => String(r.data).includes('NOT_ENVELOPE')), 'the stored execution holds the failure');
		const fragments = secretRuns(ctx);
		for (const row of rows) {
			const stored = `${row.data}${row.workflowData}`;
			const found = fragments.find((f) => stored.includes(f));
			assert.equal(found, undefined, `execution ${row.executionId} stored 8 characters of the key's secret part`);
		}
		assert.match(String(continued.error), /Bearer \[redacted\]/, 'the preview shows where the key was masked');
	},
	after() {
		echo?.close();
		echo = undefined;
	},
};

export const RESULT_SCENARIOS: Scenario[] = [errorOutput, echoedKey];
