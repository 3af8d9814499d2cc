/**
 * Queue-mode stage: the packed package in a real queue-mode n8n (main + two workers, Redis,
 * Postgres; see stack.ts), against the sandbox.
 *
 * 1. Exactly once: 20 webhook executions at once, each filing the same 30 rows plus 5 of its own on
 *    a key whose account has the idempotency feature: each distinct row once in the sandbox, no
 *    failed execution or item, executions on both workers.
 * 2. Shared rate limit: the same under a window so small the workers must share it; how close to
 *    the least number of windows it finishes.
 * 3. The polling trigger active in queue mode: the e2e scenario `trigger-active` as it is.
 * 4. Legacy account (no idempotency feature): what concurrent executions of the same rows do
 *    (measured, not asserted), and one execution after another.
 * 5. The watch list: a filing workflow records 50 rows in a data table, the Slack example looks on
 *    a short schedule on both workers, each change people act on is posted once (watch.ts).
 * 6. Throughput: the first load again on one regular-mode n8n (same database), against step 1.
 *
 * Prints figures and `queue: N passed, M failed`; exits 1 on any failure.
 * Env: N8N_BIN, QUEUE_TMP (and QUEUE_ONLY, see step()) (a folder this run may fill; scripts/queue.sh removes it), PG_BIN.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { keyByName, startSandbox, type RunningSandbox } from '../sandbox';
import type { Context } from '../e2e/context';
import { startMailbox } from '../e2e/mailbox';
import { startSlackStandIn, type SlackStandIn } from '../e2e/slack';
import { installPackedPackage, killAllChildren, onVersion, REPO_ROOT, RestSession, sleep } from '../e2e/n8n';
import { SCENARIOS } from '../e2e/scenarios';
import { runActivated } from '../e2e/serverRun';
import { filingLoad, fire, invoicesPerPolicy, perWorker, settledExecutions, tally, type Fired, type Tally } from './load';
import { startMeter, type Meter } from './meter';
import { cpuSeconds, importIntoDatabase, startMain, startPostgres, startRedis, startWorker, type Main, type Proc, type Shared } from './stack';
import { watchList, watchWorkflows, WATCH_FILING } from './watch';
import { filingWorkflow } from './workflows';

const CALLS = 20;
const SHARED_ROWS = 30;
const OWN_ROWS = 5;
const WORKER_CONCURRENCY = 10;
const OWNER = { email: 'queue@example.com', password: 'Queue-Password-1', firstName: 'Queue', lastName: 'Runner' };

const T2 = { id: 'slE2eT2Credential', name: 'Surplus Lines sandbox (t2)' }; // the id trigger-active.json uses
const LEGACY = { id: 'slQueueLegacyT2', name: 'Surplus Lines sandbox (legacy t2)' };
const FILING = { id: 'slQueueFilingT2', path: 'sl-queue-filing', webhookId: 'c7000000-0000-4000-8000-0000000000a1' };
const SLACK = { id: 'slQueueSlack', name: 'Slack (local stand-in)' };
const FILING_LEGACY = { id: 'slQueueFilingLeg', path: 'sl-queue-filing-legacy', webhookId: 'c7000000-0000-4000-8000-0000000000b2' };
const TRIGGER_SCENARIO = 'trigger-active';

interface Outcome {
	name: string;
	status: 'passed' | 'failed';
	ms: number;
	detail?: string;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const log = (text: string) => console.log(`[queue] ${text}`);

interface Stage {
	sandbox: RunningSandbox;
	meter: Meter;
	shared: Shared;
	session: RestSession;
	main: Main;
	workers: Proc[];
}

/** QUEUE_ONLY=<words>: only the steps whose name contains them (e.g. `watch list`), for work on one. */
const ONLY = process.env.QUEUE_ONLY;

async function step(outcomes: Outcome[], name: string, run: () => Promise<void>): Promise<void> {
	if (ONLY && !name.includes(ONLY)) return;
	const start = Date.now();
	try {
		await run();
		outcomes.push({ name, status: 'passed', ms: Date.now() - start });
		log(`passed  ${name} (${s(Date.now() - start)})`);
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		outcomes.push({ name, status: 'failed', ms: Date.now() - start, detail: detail.split('\n').slice(0, 12).join('\n') });
		log(`FAILED  ${name} (${s(Date.now() - start)})\n${detail}`);
	}
}

function expect(problems: string[], condition: boolean, problem: string): void {
	if (!condition) problems.push(problem);
}

function fail(problems: string[]): void {
	if (problems.length) throw new Error(problems.join('\n'));
}

/** The filing load through one workflow; what came back, what the sandbox holds, what n8n recorded. */
async function fileLoad(stage: Stage, workflow: { id: string; path: string }, bodies: IDataObject[][], key: string) {
	const before = new Set((await settledExecutions(stage.session, workflow.id)).map((e) => e.id));
	const procs = [stage.main.proc, ...stage.workers];
	const cpuBefore = cpuSeconds(procs);
	const firstReply = stage.meter.replies.length;
	const fired = await fire(`${stage.main.url}/webhook/${workflow.path}`, bodies);
	const replies = stage.meter.replies.slice(firstReply);
	const executions = (await settledExecutions(stage.session, workflow.id)).filter((e) => !before.has(e.id));
	const cpu = cpuSeconds(procs) - cpuBefore;
	const counts = tally(bodies, await invoicesPerPolicy(stage.sandbox.baseUrl, key));
	return { fired, replies, executions, counts, cpu };
}

function outcomeProblems(fired: Fired, counts: Tally, executions: Array<{ id: string; status?: string }>, calls: number): string[] {
	const problems: string[] = [];
	expect(problems, fired.badCalls.length === 0, `${fired.badCalls.length} webhook calls failed: ${fired.badCalls.slice(0, 3).join(' | ')}`);
	expect(problems, fired.failedItems.length === 0, `${fired.failedItems.length} items failed, e.g. ${JSON.stringify(fired.failedItems[0])?.slice(0, 400)}`);
	expect(problems, fired.rateLimitedItems.length === 0, `${fired.rateLimitedItems.length} items failed by the rate limit`);
	expect(problems, counts.missing.length === 0, `${counts.missing.length} rows not filed, e.g. ${counts.missing.slice(0, 3).join(', ')}`);
	expect(problems, counts.twice.length === 0, `${counts.twice.length} rows filed more than once, e.g. ${counts.twice.slice(0, 3).join(', ')}`);
	expect(problems, executions.length === calls, `${executions.length} executions recorded for ${calls} calls`);
	const notSuccess = executions.filter((e) => e.status !== 'success');
	expect(problems, notSuccess.length === 0, `${notSuccess.length} executions not successful: ${notSuccess.map((e) => `${e.id} ${e.status}`).join(', ')}`);
	return problems;
}

/** Items the service answered with the first filing of the same Idempotency-Key. */
function replayed(fired: Fired): number {
	return fired.items.filter((i) => i._replayed === true).length;
}

function describeLoad(calls: number, shared: number, own: number): string {
	return `${calls} executions x (${shared} shared + ${own} own rows)`;
}

/** Wall time and n8n's CPU time (main, workers and their task runners) of one load. */
interface Cost {
	ms: number;
	cpu: number;
}

async function exactlyOnce(stage: Stage): Promise<Cost> {
	stage.sandbox.reset();
	const bodies = filingLoad('once', CALLS, SHARED_ROWS, OWN_ROWS);
	const { fired, replies, executions, counts, cpu } = await fileLoad(stage, FILING, bodies, keyByName('t2').key);
	const split = perWorker(stage.workers, executions.map((e) => e.id));
	log(
		`${describeLoad(CALLS, SHARED_ROWS, OWN_ROWS)} at once: ${s(fired.ms)}, ${fired.items.length} items, ` +
			`${counts.stored} invoices for ${counts.distinct} distinct rows, ${replayed(fired)} items replayed by the service, ` +
			`${fired.failedItems.length} failed items, ` +
			`${replies.length} API calls, executions per worker ${split.join('/')}, n8n CPU ${cpu.toFixed(1)} s`,
	);
	const problems = outcomeProblems(fired, counts, executions, CALLS);
	expect(problems, split.every((n) => n > 0), `executions per worker ${split.join('/')}: not both workers ran executions`);
	expect(problems, split.reduce((a, b) => a + b, 0) === CALLS, `worker logs name ${split.join('+')} of ${CALLS} executions`);
	fail(problems);
	return { ms: fired.ms, cpu };
}

/** A smaller concurrent load (so the stage stays short): under a limit well below its unlimited pace, and on the legacy account. */
const LIMITED = { shared: 10, own: 2, windowSeconds: 5, limit: 60 };

async function sharedRateLimit(stage: Stage): Promise<void> {
	const { shared, own, windowSeconds, limit } = LIMITED;
	stage.sandbox.reset();
	await control(stage, '/rate-limit', { window_seconds: windowSeconds, limits: { t2: limit } });
	const bodies = filingLoad('limit', CALLS, shared, own);
	const { fired, replies, executions, counts } = await fileLoad(stage, FILING, bodies, keyByName('t2').key);
	const refused = replies.filter((r) => r.status === 429).length;
	const answered = replies.length - refused;
	// Windows are aligned to the epoch; every call the service answers (not a 429) takes one slot.
	const firstAt = replies[0]?.at ?? Date.now();
	const lastAt = replies[replies.length - 1]?.at ?? firstAt;
	const windowMs = windowSeconds * 1000;
	const leastWindows = Math.ceil(answered / limit);
	const firstWindow = Math.floor(firstAt / windowMs);
	const windowsUsed = Math.floor(lastAt / windowMs) - firstWindow + 1;
	const earliestEnd = leastWindows <= 1 ? firstAt : (firstWindow + leastWindows - 1) * windowMs;
	log(
		`shared rate limit ${limit} calls / ${windowSeconds} s for both workers: ${describeLoad(CALLS, shared, own)} ` +
			`in ${s(lastAt - firstAt)} (first to last API reply); ${answered} calls answered + ${refused} refused with 429; ` +
			`used ${windowsUsed} windows, the least possible is ${leastWindows}: ` +
			`finished ${s(Math.max(0, lastAt - earliestEnd))} after the earliest possible end`,
	);
	const problems = outcomeProblems(fired, counts, executions, CALLS);
	expect(problems, refused > 0 || windowsUsed > 1, 'the limit did not bind (no 429 and one window): it proves nothing');
	fail(problems);
}

async function triggerActive(stage: Stage, userFolder: string): Promise<void> {
	const scenario = SCENARIOS.find((sc) => sc.name === TRIGGER_SCENARIO);
	if (!scenario?.active) throw new Error(`the e2e scenario ${TRIGGER_SCENARIO} is gone (test/e2e/scenarios.ts)`);
	const active = scenario.active;
	// The trigger scenario sends no mail; the context still carries a mailbox, as in the e2e run.
	const mailbox = await startMailbox({ port: 0, dir: join(userFolder, 'mailbox') });
	const ctx: Context = {
		sandbox: stage.sandbox,
		origin: new URL(stage.sandbox.baseUrl).origin,
		keys: { t2: keyByName('t2').key, t1: keyByName('t1').key },
		userFolder,
		mailbox,
	};
	stage.sandbox.reset();
	await scenario.before?.(ctx);
	const logLengths = stage.workers.map((w) => w.log().length);
	try {
		const { runs } = await runActivated(stage.session, scenarioWorkflowId(scenario.workflow), process.env.N8N_BIN ?? '', {
			...active,
			afterActivation: () => active.afterActivation(ctx),
		});
		await scenario.check(runs[0], ctx, runs);
		const onWorkers = stage.workers.map((w, i) => (w.log().slice(logLengths[i]).match(/Worker started execution/g) ?? []).length);
		log(`trigger active: ${runs.length} executions from its polls, run by the workers ${onWorkers.join('/')}`);
		if (onWorkers.reduce((a, b) => a + b, 0) < runs.length) throw new Error(`the workers' logs show ${onWorkers.join('+')} of ${runs.length} executions`);
	} finally {
		scenario.after?.(ctx);
		await mailbox.close();
	}
}

async function legacy(stage: Stage): Promise<void> {
	const key = keyByName('legacy-t2').key;
	stage.sandbox.reset();
	const { shared, own } = LIMITED;
	const bodies = filingLoad('legacy', CALLS, shared, own);
	const together = await fileLoad(stage, FILING_LEGACY, bodies, key);
	log(
		`legacy account, ${describeLoad(CALLS, shared, own)} at once: ${together.counts.stored} invoices for ` +
			`${together.counts.distinct} distinct rows (${together.counts.duplicates} duplicates, ${together.counts.twice.length} rows filed more than once), ` +
			`${together.fired.failedItems.length} failed items`,
	);
	stage.sandbox.reset();
	const once = filingLoad('legacy-seq', 1, shared, 0)[0];
	const first = await fileLoad(stage, FILING_LEGACY, [once], key);
	const again = await fileLoad(stage, FILING_LEGACY, [once], key);
	log(
		`legacy account, the same ${shared} rows in one execution and then again in a second: ` +
			`${again.counts.stored} invoices for ${again.counts.distinct} rows (${again.counts.duplicates} duplicates)`,
	);
	// Measured, not asserted: nothing shared across executions protects a legacy account. What must
	// hold is that nothing is lost and no item fails.
	const problems: string[] = [];
	for (const [what, run] of [['at once', together], ['first', first], ['again', again]] as const) {
		expect(problems, run.fired.badCalls.length === 0, `${what}: ${run.fired.badCalls.length} webhook calls failed`);
		expect(problems, run.fired.failedItems.length === 0, `${what}: ${run.fired.failedItems.length} items failed, e.g. ${JSON.stringify(run.fired.failedItems[0])?.slice(0, 300)}`);
		expect(problems, run.counts.missing.length === 0, `${what}: ${run.counts.missing.length} rows not filed`);
	}
	fail(problems);
}

async function regularModeThroughput(stage: Stage, queue: Cost): Promise<void> {
	stage.sandbox.reset();
	const bodies = filingLoad('regular', CALLS, SHARED_ROWS, OWN_ROWS);
	const { fired, executions, counts, cpu } = await fileLoad(stage, FILING, bodies, keyByName('t2').key);
	const rows = CALLS * (SHARED_ROWS + OWN_ROWS);
	log(`one regular-mode n8n, ${describeLoad(CALLS, SHARED_ROWS, OWN_ROWS)} at once: ${s(fired.ms)} (${counts.stored} invoices), n8n CPU ${cpu.toFixed(1)} s`);
	const perRow = (c: Cost) => `${(rows / (c.ms / 1000)).toFixed(0)} rows/s, ${((c.cpu * 1000) / rows).toFixed(1)} ms CPU a row`;
	log(
		`throughput: queue mode (main + 2 workers) ${perRow(queue)}; one regular-mode process ${perRow({ ms: fired.ms, cpu })}; ` +
			`queue mode took ${(queue.ms / fired.ms).toFixed(2)}x the regular-mode time`,
	);
	fail(outcomeProblems(fired, counts, executions, CALLS));
}

async function control(stage: Stage, path: string, body: unknown): Promise<void> {
	const res = await fetch(`${new URL(stage.sandbox.baseUrl).origin}/_sandbox${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`sandbox control ${path}: ${res.status} ${await res.text()}`);
}

const triggerWorkflowIds = new Map<string, string>();
function scenarioWorkflowId(file: string): string {
	const id = triggerWorkflowIds.get(file);
	if (!id) throw new Error(`workflow ${file} was not imported`);
	return id;
}

/** Credentials and workflows into a fresh user folder and the shared database. */
async function prepare(shared: Shared, meter: Meter, slack: SlackStandIn): Promise<void> {
	const input = join(shared.tmp, 'input');
	mkdirSync(join(input, 'workflows'), { recursive: true });
	const credentials = [
		{ ...T2, type: 'surplusLinesApi', data: { apiKey: keyByName('t2').key, baseUrl: meter.baseUrl } },
		{ ...LEGACY, type: 'surplusLinesApi', data: { apiKey: keyByName('legacy-t2').key, baseUrl: meter.baseUrl } },
		{ ...SLACK, type: 'slackApi', data: slack.credentialData() },
	];
	writeFileSync(join(input, 'credentials.json'), JSON.stringify(credentials));
	const write = (file: string, workflow: unknown) => writeFileSync(join(input, 'workflows', file), JSON.stringify(workflow));
	write('filing-t2.json', filingWorkflow({ ...FILING, name: 'Queue: file rows (t2)', credential: T2, lookFirst: false }));
	write('filing-legacy.json', filingWorkflow({ ...FILING_LEGACY, name: 'Queue: file rows (legacy)', credential: LEGACY }));
	for (const [file, workflow] of Object.entries(watchWorkflows(T2, SLACK))) write(file, workflow);
	const trigger = SCENARIOS.find((sc) => sc.name === TRIGGER_SCENARIO);
	if (trigger) {
		const text = readFileSync(join(REPO_ROOT, 'test', 'e2e', 'workflows', trigger.workflow), 'utf8');
		write(trigger.workflow, JSON.parse(text.split('__SANDBOX_ORIGIN__').join(new URL(meter.baseUrl).origin)));
		triggerWorkflowIds.set(trigger.workflow, (JSON.parse(text) as { id: string }).id);
	}
	await importIntoDatabase(shared, ['import:credentials', `--input=${join(input, 'credentials.json')}`]);
	await importIntoDatabase(shared, ['import:workflow', '--separate', `--input=${join(input, 'workflows')}`]);
}

/** A session on a main whose owner exists (a second main on the same database); retried while it settles. */
async function login(url: string): Promise<RestSession> {
	const deadline = Date.now() + 120_000;
	for (;;) {
		let problem: string;
		try {
			const res = await fetch(`${url}/rest/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'browser-id': 'surplus-lines-e2e' },
				body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
			});
			const text = await res.text();
			const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
			if (res.ok && cookie) return new RestSession(url, cookie);
			problem = `${res.status} ${text.slice(0, 300)}`;
		} catch (error) {
			// e.g. a kept-alive socket to the stopped main, whose port the system handed out again
			problem = `${(error as Error).message} (${String((error as { cause?: unknown }).cause)})`;
		}
		if (Date.now() > deadline) throw new Error(`login at ${url}: ${problem}`);
		await sleep(1000);
	}
}

async function activate(session: RestSession, id: string): Promise<void> {
	const wf = await session.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${id}`);
	const res = await session.request('POST', `/rest/workflows/${id}/activate`, { versionId: wf.body.data.versionId });
	if (res.status !== 200) throw new Error(`activating ${id}: ${res.status} ${JSON.stringify(res.body)}`);
}

async function main(): Promise<number> {
	const bin = process.env.N8N_BIN;
	const tmp = process.env.QUEUE_TMP;
	const pgBin = process.env.PG_BIN;
	if (!bin || !tmp || !pgBin) throw new Error('N8N_BIN, QUEUE_TMP and PG_BIN must be set (scripts/queue.sh sets them)');
	const totalStart = Date.now();
	const outcomes: Outcome[] = [];
	const userFolder = join(tmp, 'n8n');
	mkdirSync(userFolder);

	const sandbox = await startSandbox({ port: 0 });
	const meter = await startMeter(sandbox);
	// The Slack example's messages reach the stand-in through its HTTPS proxy, from whichever worker posts.
	const slack = await startSlackStandIn({ dir: join(tmp, 'slack-ca') });
	const stops: Array<() => Promise<void> | void> = [];
	try {
		// Bring-up, timed part by part.
		let t = Date.now();
		const up = Date.now();
		const redis = await startRedis(tmp);
		stops.push(() => redis.proc.stop());
		const pg = await startPostgres(tmp, pgBin);
		stops.push(() => pg.stop());
		const partsMs = Date.now() - t;
		const shared: Shared = { tmp, bin, userFolder, pgPort: pg.port, redisPort: redis.port, env: slack.proxy.env() };
		t = Date.now();
		installPackedPackage(userFolder);
		await prepare(shared, meter, slack);
		const importMs = Date.now() - t;
		t = Date.now();
		const [queueMain, ...workers] = await Promise.all([
			startMain(shared, 'queue'),
			startWorker(shared, 'worker 1', WORKER_CONCURRENCY),
			startWorker(shared, 'worker 2', WORKER_CONCURRENCY),
		]);
		stops.push(() => queueMain.proc.stop(), ...workers.map((w) => () => w.stop()));
		const session = new RestSession(queueMain.url);
		await session.ownerSetupOrLogin(OWNER);
		await activate(session, FILING.id);
		await activate(session, FILING_LEGACY.id);
		await activate(session, WATCH_FILING.id);
		log(
			`bring-up ${s(Date.now() - up)}: Redis and Postgres ${s(partsMs)}, package + import with migrations ${s(importMs)}, ` +
				`main and 2 workers ready and workflows active ${s(Date.now() - t)}`,
		);
		const stage: Stage = { sandbox, meter, shared, session, main: queueMain, workers };

		let queueCost: Cost = { ms: 0, cpu: 0 };
		await step(outcomes, 'exactly once: 20 concurrent executions on 2 workers (idempotency account)', async () => {
			queueCost = await exactlyOnce(stage);
		});
		await step(outcomes, 'shared rate limit: no item fails', () => sharedRateLimit(stage));
		await step(outcomes, 'trigger active in queue mode: each event once', () => triggerActive(stage, userFolder));
		await step(outcomes, 'legacy account: nothing lost, duplicates measured', () => legacy(stage));
		await step(outcomes, 'watch list: 50 rows filed, each change posted once by looks on 2 workers', () =>
			watchList({ sandbox, session, mainUrl: queueMain.url, workers, slack }),
		);

		// The same load on one regular-mode process: the queue stack stops, Redis and Postgres stay.
		await step(outcomes, 'regular mode: the same load, for the throughput figure', async () => {
			t = Date.now();
			for (const proc of [queueMain.proc, ...workers]) await proc.stop();
			stops.splice(2);
			const regular = await startMain(shared, 'regular');
			stops.push(() => regular.proc.stop());
			const regularSession = await login(regular.url);
			log(`queue stack stopped and one regular-mode n8n started on the same database in ${s(Date.now() - t)}`);
			await regularModeThroughput({ ...stage, main: regular, session: regularSession, workers: [] }, queueCost);
		});
	} catch (error) {
		outcomes.push({ name: 'bring-up', status: 'failed', ms: 0, detail: (error as Error).message.split('\n').slice(0, 20).join('\n') });
		log(`FAILED  bring-up\n${(error as Error).message}`);
	} finally {
		const t = Date.now();
		for (const stop of stops.reverse()) {
			try {
				await stop();
			} catch (error) {
				log(`stopping: ${(error as Error).message}`);
			}
		}
		killAllChildren();
		await meter.close();
		await slack.close();
		await sandbox.close();
		log(`everything stopped in ${s(Date.now() - t)}`);
	}

	console.log('\n[queue] results');
	for (const o of outcomes) {
		console.log(`  ${o.status.padEnd(7)} ${o.name.padEnd(72)} ${s(o.ms)}${o.detail ? `\n          ${o.detail.split('\n').join('\n          ')}` : ''}`);
	}
	const passed = outcomes.filter((o) => o.status === 'passed').length;
	const failed = outcomes.filter((o) => o.status === 'failed').length;
	log(`total ${s(Date.now() - totalStart)}`);
	console.log(`queue: ${passed} passed, ${failed} failed${onVersion(bin)}`);
	return failed > 0 || passed === 0 ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(`[queue] ${error.stack ?? error.message}`);
		console.log('queue: 0 passed, 1 failed');
		killAllChildren();
		process.exit(1);
	},
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		killAllChildren();
		process.exit(130);
	});
}
