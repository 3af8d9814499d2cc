/**
 * End-to-end run: the packed package in a real n8n (scripts/ensure-n8n.sh), against the sandbox.
 *
 * 1. Pack the package and install it into a fresh n8n user folder as n8n's installer would.
 * 2. Start the sandbox on a free port; import two credentials (t2 and t1 keys) and the workflows
 *    of test/e2e/workflows (placeholders filled: sandbox origin).
 * 3. Run each workflow with `n8n execute --id=<id>`, read the run from n8n's database, and check
 *    its outputs and the sandbox's state (read through the service API) against what the workflow
 *    must do.
 * 4. Start `n8n start` once: the server lists our node types, and the trigger workflow runs in
 *    manual mode through the REST API (the CLI cannot start a workflow at a polling trigger).
 *
 * Prints per-workflow timings and `e2e: N passed, M failed on n8n <version> (Node <version>)`;
 * exits 1 on any failure.
 * Env: N8N_BIN (required; its n8n version is the one under test), E2E_SET=compat (only the
 * scenarios marked `compat`: the compatibility stage on the oldest supported n8n),
 * E2E_ONLY=<comma list of scenario names>, E2E_KEEP=1 (keep the user folder), E2E_DUMP=<dir>
 * (write each run's JSON there).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { keyByName, startSandbox } from '../sandbox';
import { startMailbox } from './mailbox';
import { startSlackStandIn } from './slack';
import {
	copyExampleFiles,
	installPackedPackage,
	killAllChildren,
	makeTempUserFolder,
	missingDistFiles,
	n8nAtLeast,
	n8nEnv,
	n8nVersion,
	onVersion,
	REPO_ROOT,
	RestSession,
	runCli,
	runCliOk,
	runStage,
	startServer,
	tail,
	type N8nEnv,
	type RunningN8n,
} from './n8n';
import { checkCredentialTests } from './credentialTest';
import { checkReadmeInstall, INSTALL_CHECK } from './install';
import { checkDemoTwice, DEMO_CHECK } from './demoTwice';
import { newestExecutionId, readExecution, type Run } from './runData';
import type { CliRunner, Context, Scenario, ServerControl } from './context';
import { executeUntilKilled } from './crash';
import { refileCredentials } from './scenarios-refile';
import { SCENARIOS } from './scenarios';
import { assertNoSecretsInOutputs } from './scenarios-results';
import { runActivated, runViaServer } from './serverRun';
import { mcpCredential } from './mcp';
import { STAND_IN_CREDENTIAL } from './scenarios-agent';

const WORKFLOW_DIR = join(REPO_ROOT, 'test', 'e2e', 'workflows');
const EXAMPLES_DIR = join(REPO_ROOT, 'examples');
const NODE_PREFIX = 'n8n-nodes-surplus-lines.';
export const OWNER = { email: 'e2e@example.com', password: 'E2e-Password-1', firstName: 'E2E', lastName: 'Runner' };

interface Outcome {
	name: string;
	status: 'passed' | 'failed' | 'skipped';
	ms: number;
	detail?: string;
}

interface WorkflowFile {
	id: string;
	name: string;
	nodes: Array<{ type: string; name: string }>;
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** Our node types built into dist (internal names, e.g. surplusLinesInvoice). */
function builtNodeTypes(): Set<string> {
	const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	const built = new Set<string>();
	for (const file of pkg.n8n.nodes) {
		if (!existsSync(join(REPO_ROOT, file))) continue;
		const folder = file.split('/')[2]; // dist/nodes/<Folder>/<Folder>.node.js
		built.add(folder.charAt(0).toLowerCase() + folder.slice(1));
	}
	return built;
}

/** A node whose source folder does not exist yet has not landed: its workflows are skipped, loudly. */
function sourceExists(type: string): boolean {
	const folder = type.charAt(0).toUpperCase() + type.slice(1);
	return existsSync(join(REPO_ROOT, 'nodes', folder));
}

async function main(): Promise<number> {
	const bin = process.env.N8N_BIN;
	if (!bin || !existsSync(bin)) throw new Error('N8N_BIN must point at the n8n binary (scripts/e2e.sh sets it)');
	const only = process.env.E2E_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
	const set = process.env.E2E_SET;
	if (set !== undefined && set !== 'compat') throw new Error(`E2E_SET=${set}: the only set is "compat"`);
	console.log(`[e2e] n8n ${n8nVersion(bin).n8n} under Node ${n8nVersion(bin).node}${set ? `, scenarios marked ${set}` : ''}`);
	const totalStart = Date.now();
	const outcomes: Outcome[] = [];

	const missing = missingDistFiles().filter((f) => f.includes('credentials/') || sourceExists(nodeTypeOf(f)));
	if (missing.length) throw new Error(`dist/ lacks built files (run npx n8n-node build): ${missing.join(', ')}`);
	const built = builtNodeTypes();

	// The README's install from the release file, in its own fresh user folder (every set runs it).
	if (!only || only.includes(INSTALL_CHECK)) outcomes.push(await checkReadmeInstall(bin));

	const userFolder = makeTempUserFolder();
	const workDir = join(userFolder, 'e2e-input');
	mkdirSync(join(workDir, 'workflows'), { recursive: true });
	const sandbox = await startSandbox({ port: 0 });
	const origin = new URL(sandbox.baseUrl).origin;
	const mailbox = await startMailbox({ port: 0, dir: join(userFolder, 'mailbox') });
	const slack = await startSlackStandIn({ dir: join(userFolder, 'slack-ca') });
	let server: RunningN8n | undefined;
	try {
		let t = Date.now();
		const installedAt = installPackedPackage(userFolder);
		console.log(`[e2e] packed package installed into ${installedAt} (${seconds(Date.now() - t)})`);
		console.log(`[e2e] sandbox at ${sandbox.baseUrl}`);
		const n8n = await n8nEnv(bin, userFolder);
		// n8n's HTTPS goes through the local proxy (slack.com reaches the stand-in); loopback does not.
		Object.assign(n8n.env, slack.proxy.env());
		copyExampleFiles(userFolder);
		console.log(`[e2e] local SMTP server at ${mailbox.host}:${mailbox.port}; Slack stand-in behind the HTTPS proxy ${slack.proxy.url}`);

		// Credentials: the t2 key does everything; the t1 key shows a tier refusal.
		const credentials = [
			{ id: 'slE2eT2Credential', name: 'Surplus Lines sandbox (t2)', type: 'surplusLinesApi', data: { apiKey: keyByName('t2').key, baseUrl: sandbox.baseUrl } },
			{ id: 'slE2eT1Credential', name: 'Surplus Lines sandbox (t1)', type: 'surplusLinesApi', data: { apiKey: keyByName('t1').key, baseUrl: sandbox.baseUrl } },
			// The examples ship with the demo's credential id.
			{ id: 'slDemoSandboxT2', name: 'Surplus Lines sandbox (t2)', type: 'surplusLinesApi', data: { apiKey: keyByName('t2').key, baseUrl: sandbox.baseUrl } },
			{ id: 'slDemoSmtp', name: 'Demo mailbox (local SMTP)', type: 'smtp', data: mailbox.credentialData() },
			{ id: 'slDemoSlack', name: 'Demo Slack (local stand-in)', type: 'slackApi', data: slack.credentialData() },
			...refileCredentials(sandbox.baseUrl),
			// The MCP examples' trigger checks this Bearer token.
			mcpCredential(),
			// The AI Agent scenario's chat model: a stand-in on loopback (its address is set per run).
			{ ...STAND_IN_CREDENTIAL, data: { apiKey: 'sk-stand-in', url: 'http://127.0.0.1:9/v1' } },
		];
		writeFileSync(join(workDir, 'credentials.json'), JSON.stringify(credentials, null, 2));
		t = Date.now();
		await runCliOk(n8n, ['import:credentials', `--input=${join(workDir, 'credentials.json')}`]);
		console.log(`[e2e] credentials imported (${seconds(Date.now() - t)}, includes database set-up)`);

		// Workflows: skip (and say so) those whose nodes have not landed; import the rest in one go.
		const runnable: Array<{ scenario: Scenario; workflow: WorkflowFile }> = [];
		for (const scenario of SCENARIOS) {
			if (only && !only.includes(scenario.name)) continue;
			if (set === 'compat' && !scenario.compat) continue;
			if (scenario.minN8n && !n8nAtLeast(bin, ...scenario.minN8n)) {
				outcomes.push({ name: scenario.name, status: 'skipped', ms: 0, detail: `needs n8n >= ${scenario.minN8n.join('.')}; this is ${n8nVersion(bin).n8n}` });
				continue;
			}
			const text = readFileSync(join(scenario.example ? EXAMPLES_DIR : WORKFLOW_DIR, scenario.workflow), 'utf8');
			const workflow = JSON.parse(text) as WorkflowFile;
			// A node's generated tool variant (`...Tool`) comes with the node.
			const ours = [...new Set(workflow.nodes.filter((n) => n.type.startsWith(NODE_PREFIX)).map((n) => n.type.slice(NODE_PREFIX.length).replace(/Tool$/, '')))];
			const notLanded = ours.filter((type) => !sourceExists(type));
			if (notLanded.length) {
				outcomes.push({ name: scenario.name, status: 'skipped', ms: 0, detail: `node not in nodes/ yet: ${notLanded.join(', ')}` });
				continue;
			}
			const notBuilt = ours.filter((type) => !built.has(type));
			if (notBuilt.length) {
				outcomes.push({ name: scenario.name, status: 'failed', ms: 0, detail: `node not built into dist/: ${notBuilt.join(', ')}` });
				continue;
			}
			writeFileSync(join(workDir, 'workflows', scenario.workflow), text.split('__SANDBOX_ORIGIN__').join(origin).split('__E2E_FILES__').join(join(userFolder, 'files')));
			runnable.push({ scenario, workflow });
		}
		if (runnable.length) {
			t = Date.now();
			await runCliOk(n8n, ['import:workflow', '--separate', `--input=${join(workDir, 'workflows')}`]);
			console.log(`[e2e] ${runnable.length} workflows imported (${seconds(Date.now() - t)})`);
		}

		const context: Context = { sandbox, origin, keys: { t2: keyByName('t2').key, t1: keyByName('t1').key }, userFolder, mailbox, slack };
		const cliRuns = runnable.filter((r) => (r.scenario.via ?? 'cli') === 'cli');
		const serverRuns = runnable.filter((r) => r.scenario.via === 'server' || r.scenario.via === 'active' || r.scenario.via === 'restart');

		for (const { scenario, workflow } of cliRuns) {
			const cli: CliRunner = {
				run: async () => await executeCli(n8n, workflow.id, scenario),
				runUntilKilled: async (shouldKill) => await executeUntilKilled(n8n, workflow.id, shouldKill),
				importCredentials: async (replaced) => {
					const file = join(workDir, `credentials-${scenario.name}.json`);
					writeFileSync(file, JSON.stringify(replaced, null, 2));
					await runCliOk(n8n, ['import:credentials', `--input=${file}`]);
				},
			};
			outcomes.push(await runScenario(scenario, context, async () => (scenario.execute ? await scenario.execute(cli, context) : [await cli.run()])));
		}

		if (serverRuns.length || !only) {
			t = Date.now();
			// The settings `n8n start` runs with now; a scenario with its own `serverEnv` switches them.
			let serverEnv = n8n.env;
			server = await startServer(n8n);
			const startMs = Date.now() - t;
			let session = new RestSession(server.url);
			await session.ownerSetupOrLogin(OWNER);
			console.log(`[e2e] n8n start answered in ${seconds(startMs)} at ${server.url}`);
			const control: ServerControl = {
				get session() {
					return session;
				},
				bin,
				database: join(userFolder, '.n8n', 'database.sqlite'),
				stop: async () => {
					await server?.stop();
					server = undefined;
				},
				start: async () => {
					server = await startServer({ ...n8n, env: serverEnv });
					session = new RestSession(server.url);
					await session.ownerSetupOrLogin(OWNER);
				},
			};
			/** Restarts `n8n start` when the next scenario wants other settings than the running ones. */
			const useServerEnv = async (extra: Record<string, string> | undefined): Promise<void> => {
				const wanted = extra ? { ...n8n.env, ...extra } : n8n.env;
				if (wanted === serverEnv || (extra && JSON.stringify(wanted) === JSON.stringify(serverEnv))) return;
				await control.stop();
				serverEnv = wanted;
				await control.start();
			};
			outcomes.push(await checkServerListsNodes(session, built));
			outcomes.push(await checkCredentialTests(session, sandbox.baseUrl, keyByName('t2').key));
			for (const { scenario, workflow } of serverRuns) {
				await useServerEnv(scenario.serverEnv);
				const active = scenario.active;
				const restart = scenario.restart;
				const logFrom = server?.log().length ?? 0;
				const outcome = await runScenario(scenario, context, async () =>
					restart
						? await restart(context, control).finally(() => (server ? undefined : control.start()))
						: active
						? (await runActivated(session, workflow.id, bin, { ...active, afterActivation: () => active.afterActivation(context) })).runs
						: [await runViaServer(session, workflow.id, bin)],
				);
				// What n8n logged meanwhile tells why polls or a run did not come (a restart starts a new log).
				if (outcome.status === 'failed' && server) console.log(`[e2e] n8n's log during ${scenario.name}:\n${tail(server.log().slice(restart ? 0 : logFrom), 4000)}`);
				outcomes.push(outcome);
			}
			if (server) reportMemory(server);
		}
	} finally {
		if (server) await server.stop();
		killAllChildren();
		await sandbox.close();
		await mailbox.close();
		await slack.close();
		if (process.env.E2E_KEEP) console.log(`[e2e] user folder kept: ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}

	// The demo as users start it (its own n8n and sandbox), twice: on the current n8n's run only.
	if ((!only && set !== 'compat') || only?.includes(DEMO_CHECK)) outcomes.push(await checkDemoTwice(bin));

	console.log('\n[e2e] results');
	for (const o of outcomes) {
		console.log(`  ${o.status.padEnd(7)} ${o.name.padEnd(40)} ${o.status === 'skipped' ? '' : seconds(o.ms)}${o.detail ? `\n          ${o.detail.split('\n').join('\n          ')}` : ''}`);
	}
	const passed = outcomes.filter((o) => o.status === 'passed').length;
	const failed = outcomes.filter((o) => o.status === 'failed').length;
	const skipped = outcomes.filter((o) => o.status === 'skipped').length;
	console.log(`[e2e] total ${seconds(Date.now() - totalStart)}`);
	console.log(`${set ?? 'e2e'}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${onVersion(bin)}`);
	return failed > 0 || passed === 0 ? 1 : 0;
}

function nodeTypeOf(distFile: string): string {
	const folder = distFile.split('/')[2] ?? '';
	return folder.charAt(0).toLowerCase() + folder.slice(1);
}

/** A run of 6,000 rows takes minutes on 2 loaded cores; the limit only ends a run that hangs. */
const EXECUTE_LIMIT_MS = 900_000;

/** `n8n execute` to its end; the run is read from n8n's database (runData.readExecution says why). */
async function executeCli(n8n: N8nEnv, id: string, scenario: Scenario): Promise<Run> {
	const before = await newestExecutionId(n8n.bin, n8n.userFolder);
	const result = await runCli(n8n, ['execute', `--id=${id}`], EXECUTE_LIMIT_MS);
	const run = await readExecution(n8n.bin, n8n.userFolder, id, before);
	const expected = scenario.expectRunError ? 1 : 0;
	if (result.code !== expected || !run) {
		throw new Error(
			`n8n execute exited ${result.code} (expected ${expected})${run ? '' : ', no execution saved in n8n\'s database'}\n${tail(result.stdout + result.stderr, 4000)}`,
		);
	}
	return run;
}

async function runScenario(scenario: Scenario, context: Context, execute: () => Promise<Run[]>): Promise<Outcome> {
	const start = Date.now();
	try {
		context.sandbox.reset();
		context.mailbox.clear();
		context.slack?.clear();
		await scenario.before?.(context);
		const runs = await execute();
		if (process.env.E2E_DUMP) {
			mkdirSync(process.env.E2E_DUMP, { recursive: true });
			writeFileSync(join(process.env.E2E_DUMP, `${scenario.name}.json`), JSON.stringify(runs.length === 1 ? runs[0] : runs, null, 2));
		}
		await scenario.check(runs[0], context, runs);
		for (const run of runs) assertNoSecretsInOutputs(run, context, scenario);
		const ms = Date.now() - start;
		console.log(`[e2e] passed  ${scenario.name} (${seconds(ms)})`);
		return { name: scenario.name, status: 'passed', ms };
	} catch (error) {
		const ms = Date.now() - start;
		const detail = error instanceof Error ? error.message : String(error);
		console.log(`[e2e] FAILED  ${scenario.name} (${seconds(ms)})\n${detail}`);
		return { name: scenario.name, status: 'failed', ms, detail: detail.split('\n').slice(0, 12).join('\n') };
	} finally {
		scenario.after?.(context);
	}
}

async function checkServerListsNodes(session: RestSession, built: Set<string>): Promise<Outcome> {
	const start = Date.now();
	const name = 'server lists the package node types';
	try {
		const res = await session.request<Array<{ name: string }>>('GET', '/types/nodes.json');
		if (res.status !== 200 || !Array.isArray(res.body)) throw new Error(`GET /types/nodes.json: ${res.status}`);
		const listed = new Set(res.body.map((n) => n.name));
		const expected = [...built].map((t) => NODE_PREFIX + t);
		const absent = expected.filter((t) => !listed.has(t));
		if (absent.length) throw new Error(`not listed by the server: ${absent.join(', ')}`);
		const creds = await session.request<Array<{ name: string }>>('GET', '/types/credentials.json');
		if (!Array.isArray(creds.body) || !creds.body.some((c) => c.name === 'surplusLinesApi')) {
			throw new Error('credential type surplusLinesApi not listed by the server');
		}
		console.log(`[e2e] passed  ${name}: ${expected.join(', ')}`);
		return { name, status: 'passed', ms: Date.now() - start };
	} catch (error) {
		return { name, status: 'failed', ms: Date.now() - start, detail: (error as Error).message };
	}
}

function reportMemory(server: RunningN8n): void {
	const pid = server.child.pid;
	if (!pid) return;
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const rss = /VmRSS:\s+(\d+)/.exec(status)?.[1];
		if (rss) console.log(`[e2e] n8n server resident memory: ${Math.round(Number(rss) / 1024)} MB (pid ${pid}, without its task runner)`);
	} catch {
		// not Linux: no figure
	}
}

runStage('e2e', main);
