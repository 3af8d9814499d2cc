/**
 * The watch list at a month's scale, in the real n8n: 1,000 open invoices on 400 policies of a t2
 * key recorded in a real n8n data table, and the Slack example's look chain (Data table Get →
 * Look for Changes → Data table Update → the message) run once per look, as its 5-minute schedule
 * would. The Slack node is a No Op here: its input items are the messages.
 *
 * Time is the schedule's, not the wall clock's: the sandbox's clock moves 5 minutes before each
 * look (so its hourly rate-limit window is the one the key would meet), and delays are counted in
 * looks. Calls are counted at the sandbox. Statuses move (control endpoint) just before chosen
 * looks; the time from a change to its message is the looks until the message, × 5 minutes.
 *
 * The baseline, in the same run: a hand-built Data table Get → HTTP Request GET per invoice (one
 * call per invoice per look), run at two looks of one hour on the same key.
 *
 * Prints figures; asserts nothing. `BENCH_ONLY=watch npm run bench`. Env: N8N_BIN (run.sh sets it),
 * BENCH_WATCH_DELAY_MS (added to each sandbox reply, default 200).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { stateOfInvoice, WATCH_LIST_COLUMNS } from '../../nodes/watch/rowState';
import { killAllChildren, n8nVersion, REPO_ROOT, RestSession, runCliOk, startServer, type RunningN8n } from '../../test/e2e/n8n';
import { json, type Run } from '../../test/e2e/runData';
import { runViaServer } from '../../test/e2e/serverRun';
import { keyByName } from '../../test/sandbox';
import { BenchN8n, CREDENTIALS, startCountingSandbox, type BenchSandbox } from './stage';
import { httpNode, workflow, type NodeJson, type WorkflowJson } from './workflows';

const INVOICES = 1000;
const POLICIES = 400;
const LOOKS_PER_HOUR = 12;
const LOOK_MINUTES = 60 / LOOKS_PER_HOUR;
const T2_LIMIT = 1000;
const DELAY_MS = Number(process.env.BENCH_WATCH_DELAY_MS ?? 200);
/** Statuses moved just before these looks, CHANGES_PER_MOVE invoices each (not yet moved ones). */
const MOVE_AT = [2, 5, 9, 13, 18, 22, 27, 31];
const CHANGES_PER_MOVE = 5;
const NOTIFY_ID = 'benchWatchLook';
const BASELINE_ID = 'benchWatchGetEach';
const MESSAGE_NODE = 'Post to Slack Channel';
const LOOK_NODE = 'Look for Changes';
const OWNER = { email: 'bench@example.com', password: 'Bench-Password-1', firstName: 'Bench', lastName: 'Runner' };
const HTTP_T2 = { httpHeaderAuth: { id: 'benchHttpT2', name: 'Header Auth (t2)' } };

/** The schedule's clock: the hour's first minute, moved 5 minutes a look. */
const HOUR = 3600_000;
let scheduleMs = Math.ceil(Date.now() / HOUR) * HOUR + 60_000;

/** mulberry32: the same invoices move on every run. */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** The Slack example, its credential the bench's t2 key and its Slack node a No Op. */
function notifyWorkflow(): WorkflowJson {
	const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'post-watched-filing-changes-to-slack.json'), 'utf8')) as WorkflowJson;
	const nodes = example.nodes
		.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
		.map((n): NodeJson => {
			if (n.name === MESSAGE_NODE) return { id: n.id, name: n.name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: n.position, parameters: {} };
			if (n.name === LOOK_NODE) return { ...n, credentials: CREDENTIALS.packageT2 };
			return n;
		});
	if (!nodes.some((n) => n.name === MESSAGE_NODE) || !nodes.some((n) => n.name === LOOK_NODE)) throw new Error('the Slack example changed: no message or look node');
	return { ...example, id: NOTIFY_ID, name: 'Bench: watch list look', nodes };
}

/** What users build by hand: every watched invoice read with a GET, every look. */
function baselineWorkflow(baseUrl: string): WorkflowJson {
	const read = {
		name: 'Read Watch List',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1.1,
		parameters: { resource: 'row', operation: 'get', dataTableId: { __rl: true, mode: 'name', value: 'Surplus Lines watch list' }, returnAll: true },
	};
	const get = { ...httpNode('Get Each Invoice', 'GET', `=${baseUrl}/invoices/{{ $json.invoice_id }}`), credentials: HTTP_T2 };
	return { ...workflow(BASELINE_ID, [[read, get]]), name: 'Bench: Schedule + Get per invoice' };
}

async function ok<T>(session: RestSession, method: string, path: string, body?: unknown): Promise<T> {
	const res = await session.request<{ data: T }>(method, path, body);
	if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
	return res.body.data;
}

interface Seeded {
	row: IDataObject;
	invoiceId: number;
}

/** 1,000 invoices on 400 policies (200 with 3, 200 with 2), filed with the t2 key. */
async function seed(sandbox: BenchSandbox): Promise<Seeded[]> {
	const key = keyByName('t2').key;
	const bodies = Array.from({ length: INVOICES }, (_, i) => {
		const ofThree = INVOICES - 2 * POLICIES;
		const policy = i < 3 * ofThree ? Math.floor(i / 3) : ofThree + Math.floor((i - 3 * ofThree) / 2);
		return {
			policy_number: `WATCH-${String(policy).padStart(3, '0')}`,
			insured_name: `Insured ${policy}`,
			state_code: 'TX',
			net_premium: 1000 + i,
			effective_date: '2026-01-01',
			expiration_date: '2027-01-01',
			type_code: 'NEW',
		};
	});
	const seeded: Seeded[] = [];
	for (let i = 0; i < bodies.length; i += 25) {
		const replies = await Promise.all(
			bodies.slice(i, i + 25).map(async (body) => {
				const res = await fetch(`${sandbox.baseUrl}/invoices`, {
					method: 'POST',
					headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});
				const reply = (await res.json()) as { data?: IDataObject; error?: IDataObject };
				if (res.status !== 201 || !reply.data) throw new Error(`seeding: ${res.status} ${JSON.stringify(reply.error)}`);
				return reply.data;
			}),
		);
		for (const invoice of replies) {
			// The row Rows to Record makes for a filed invoice.
			const row = { invoice_id: Number(invoice.id), policy_number: String(invoice.policy_number ?? ''), state: stateOfInvoice(invoice), checked_at: '', last_event: '', settled: false };
			seeded.push({ row, invoiceId: row.invoice_id });
		}
	}
	// Seeding is not the watch list's spending: the key starts the schedule on a fresh window.
	sandbox.world.rateLimiter.configure(undefined, undefined);
	return seeded;
}

async function move(sandbox: BenchSandbox, invoiceId: number, rejected: boolean): Promise<void> {
	const body = rejected ? { status: 'error', state_status: 'rejected', message: 'Missing SL-2 form' } : { status: 'success', state_status: 'confirmed' };
	const res = await fetch(`${sandbox.world.origin}/_sandbox/invoices/${invoiceId}/status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`moving ${invoiceId}: ${res.status} ${await res.text()}`);
}

interface Look {
	n: number;
	calls: number;
	rateLimited: number;
	read: number[];
	messages: number[];
	summary: IDataObject;
	wallMs: number;
}

async function baseline(session: RestSession, sandbox: BenchSandbox, bin: string): Promise<void> {
	console.log('\nbaseline: Data table Get → HTTP Request GET /invoices/{id} per row (t2 Header Auth), two looks 5 minutes apart in one hour');
	const results: Array<{ calls: number; ok: number; limited: number; wallMs: number }> = [];
	for (let look = 1; look <= 2; look++) {
		sandbox.calls.take();
		const started = Date.now();
		const run = await runViaServer(session, BASELINE_ID, bin, 600_000);
		const calls = sandbox.calls.take();
		results.push({ calls: calls.count('t2'), ok: calls.count('t2', undefined, 200), limited: calls.count('t2', undefined, 429), wallMs: Date.now() - started });
		if (!run.data.resultData.runData['Get Each Invoice']) throw new Error(`the baseline did not run its GETs: ${JSON.stringify(run.data.resultData.error ?? null)}`);
		scheduleMs += LOOK_MINUTES * 60_000;
	}
	results.forEach((r, i) => console.log(`  look ${i + 1}: ${r.calls} calls, ${r.ok} answered, ${r.limited} × 429 (${seconds(r.wallMs)} wall)`));
	const perHour = INVOICES * LOOKS_PER_HOUR;
	console.log(`  at 1 call per invoice per look: ${INVOICES} calls a look × ${LOOKS_PER_HOUR} looks/hour = ${perHour.toLocaleString('en-US')} calls/hour, ${(perHour / T2_LIMIT).toFixed(0)}× the t2 key's ${T2_LIMIT} calls/hour: does not fit (the second look of each hour is refused)`);
	console.log(`  to fit t2 it must look at most every ${(60 / (T2_LIMIT / INVOICES)).toFixed(0)} minutes with the whole key, or every ${(60 / ((T2_LIMIT * 0.25) / INVOICES)).toFixed(0)} minutes within a 25% share`);
}

async function main(): Promise<void> {
	const bin = process.env.N8N_BIN;
	if (!bin || !existsSync(bin)) throw new Error('N8N_BIN must point at the n8n binary (scripts/bench/run.sh sets it)');
	const started = Date.now();
	const sandbox = await startCountingSandbox(() => new Date(scheduleMs));
	const bench = await BenchN8n.start(bin, sandbox);
	let server: RunningN8n | undefined;
	try {
		const credentialFile = join(bench.n8n.userFolder, 'bench-input', 'credentials-t2-http.json');
		writeFileSync(credentialFile, JSON.stringify([{ id: HTTP_T2.httpHeaderAuth.id, name: HTTP_T2.httpHeaderAuth.name, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${keyByName('t2').key}` } }]));
		await runCliOk(bench.n8n, ['import:credentials', `--input=${credentialFile}`]);
		await bench.importWorkflows([notifyWorkflow(), baselineWorkflow(sandbox.baseUrl)]);
		server = await startServer(bench.n8n);
		const session = new RestSession(server.url);
		await session.ownerSetupOrLogin(OWNER);
		const version = n8nVersion(bin);
		console.log(`watch-list bench: the real n8n ${version.n8n} under Node ${version.node} (n8n start, one manual run of the look chain per look, a real n8n data table), sandbox in-process, ${DELAY_MS} ms added to each reply`);

		const seeded = await seed(sandbox);
		const project = await ok<{ id: string }>(session, 'GET', '/rest/projects/personal');
		const table = await ok<{ id: string }>(session, 'POST', `/rest/projects/${project.id}/data-tables`, { name: 'Surplus Lines watch list', columns: WATCH_LIST_COLUMNS });
		for (let i = 0; i < seeded.length; i += 250) {
			await ok(session, 'POST', `/rest/projects/${project.id}/data-tables/${table.id}/insert`, { data: seeded.slice(i, i + 250).map((s) => s.row), returnType: 'count' });
		}
		const rows = await ok<{ count: number }>(session, 'GET', `/rest/projects/${project.id}/data-tables/${table.id}/rows?take=1&skip=0`);
		console.log(`seeded: ${seeded.length} open invoices on ${new Set(seeded.map((s) => s.row.policy_number)).size} policies (t2 key), ${rows.count} rows in the data table "Surplus Lines watch list"`);
		sandbox.world.faults.configure({ delay_ms: DELAY_MS });

		await baseline(session, sandbox, bin);
		// The watch list's looks start on the next hour's window.
		scheduleMs = Math.ceil(scheduleMs / HOUR) * HOUR + 60_000;
		sandbox.calls.take();
		const confirmed = await looks(session, sandbox, bin, seeded);
		const left = await ok<{ count: number }>(session, 'GET', `/rest/projects/${project.id}/data-tables/${table.id}/rows?take=1&skip=0`);
		console.log(`  rows left in the data table after the last look: ${left.count} (${seeded.length} − ${confirmed} confirmed = ${seeded.length - confirmed})`);
		console.log(`\nwatch-list bench: ${seconds(Date.now() - started)} wall`);
	} finally {
		await server?.stop();
		bench.close();
		killAllChildren();
		await sandbox.close();
	}
}

/** Runs the looks and prints their figures; returns how many invoices were moved to confirmed (they settle). */
async function looks(session: RestSession, sandbox: BenchSandbox, bin: string, seeded: Seeded[]): Promise<number> {
	console.log(`\nwatch list: the Slack example's look chain, Looks per Hour ${LOOKS_PER_HOUR}, Budget Share 25% (the default), t2 key`);
	const pick = random(34);
	const open = seeded.map((s) => s.invoiceId);
	/** invoice id → the look just before which its status moved */
	const movedAt = new Map<number, number>();
	let confirmed = 0;
	const posted = new Map<number, number[]>();
	const done: Look[] = [];
	const lastMove = MOVE_AT[MOVE_AT.length - 1];
	for (let n = 1; ; n++) {
		if (MOVE_AT.includes(n)) {
			for (let c = 0; c < CHANGES_PER_MOVE; c++) {
				const invoiceId = open.splice(Math.floor(pick() * open.length), 1)[0];
				await move(sandbox, invoiceId, c % 2 === 0);
				if (c % 2 !== 0) confirmed++;
				movedAt.set(invoiceId, n);
			}
		}
		const t = Date.now();
		const run: Run = await runViaServer(session, NOTIFY_ID, bin, 600_000);
		const wallMs = Date.now() - t;
		const calls = sandbox.calls.take();
		if (run.status !== 'success') throw new Error(`look ${n} ended ${run.status}: ${JSON.stringify(run.data.resultData.error ?? null)}`);
		const output = json(run, LOOK_NODE);
		const messages = run.data.resultData.runData[MESSAGE_NODE] ? json(run, MESSAGE_NODE).map((m) => Number(m.invoice_id)) : [];
		for (const id of messages) posted.set(id, [...(posted.get(id) ?? []), n]);
		done.push({
			n,
			calls: calls.count('t2'),
			rateLimited: calls.count('t2', undefined, 429),
			read: output.filter((o) => o.checked_at).map((o) => Number(o.invoice_id)),
			messages,
			summary: (output[0]?.look ?? {}) as IDataObject,
			wallMs,
		});
		scheduleMs += LOOK_MINUTES * 60_000;
		if (n % LOOKS_PER_HOUR === 0) {
			const hour = done.slice(-LOOKS_PER_HOUR);
			console.log(`  hour ${n / LOOKS_PER_HOUR}: looks ${n - LOOKS_PER_HOUR + 1}-${n}, ${hour.reduce((a, l) => a + l.calls, 0)} calls, ${hour.reduce((a, l) => a + l.messages.length, 0)} messages`);
		}
		const waiting = [...movedAt.keys()].filter((id) => !posted.has(id));
		if ((n > lastMove && waiting.length === 0) || n >= lastMove + 30) break;
	}
	report(done, movedAt, posted, seeded.length, confirmed);
	return confirmed;
}

function report(done: Look[], movedAt: Map<number, number>, posted: Map<number, number[]>, watched: number, confirmed: number): void {
	const calls = done.map((l) => l.calls);
	const totalCalls = calls.reduce((a, b) => a + b, 0);
	const perLook = totalCalls / done.length;
	console.log(`  looks run: ${done.length} (${done.length * LOOK_MINUTES} minutes of schedule), ${done.reduce((a, l) => a + l.rateLimited, 0)} × 429`);
	console.log(`  calls a look (counted at the sandbox): median ${median(calls)}, min ${Math.min(...calls)}, max ${Math.max(...calls)}, mean ${perLook.toFixed(1)}`);
	const hours: number[] = [];
	for (let i = 0; i + LOOKS_PER_HOUR <= done.length; i += LOOKS_PER_HOUR) hours.push(calls.slice(i, i + LOOKS_PER_HOUR).reduce((a, b) => a + b, 0));
	console.log(`  calls per hour: ${LOOKS_PER_HOUR} looks × ${perLook.toFixed(1)} = ${Math.round(perLook * LOOKS_PER_HOUR)} (each full hour of looks run: ${hours.join(', ')}), ${((perLook * LOOKS_PER_HOUR * 100) / T2_LIMIT).toFixed(0)}% of the t2 key's ${T2_LIMIT}`);
	const first = firstSweep(done, watched);
	const summary = done[0].summary;
	console.log(`  full sweep (every watched invoice read once): ${first === undefined ? 'not finished' : `${first} looks, ${first * LOOK_MINUTES} minutes`} measured from the start; the node's own figure at look 1: ${summary.looks_per_full_sweep} looks (${summary.calls_for_full_sweep} calls at ${summary.calls_per_look} a look), "${summary.full_sweep_takes}"`);
	const last = done[done.length - 1].summary;
	console.log(`  at the last look: ${last.watched_invoices} rows still in the table (confirmed invoices leave once their message is out), ${last.looks_per_full_sweep} looks per sweep ("${last.full_sweep_takes}")`);
	const delays: number[] = [];
	let missed = 0;
	let repeated = 0;
	for (const [id, at] of movedAt) {
		const looks = posted.get(id);
		if (!looks) {
			missed++;
			continue;
		}
		if (looks.length > 1) repeated += looks.length - 1;
		// Counted from a change made just after the look before `at`, to the look that posts it.
		delays.push(looks[0] - at + 1);
	}
	const unasked = [...posted.keys()].filter((id) => !movedAt.has(id)).length;
	console.log(`  changes: ${movedAt.size} moved (${movedAt.size - confirmed} to error/rejected, ${confirmed} to success/confirmed) just before looks ${MOVE_AT.join(', ')}; ${posted.size - unasked} posted, ${missed} missed, ${repeated} repeated, ${unasked} posted with no change made`);
	if (delays.length) {
		const worst = Math.max(...delays);
		console.log(`  change → message: median ${median(delays)} looks (${median(delays) * LOOK_MINUTES} minutes), worst ${worst} looks (${worst * LOOK_MINUTES} minutes) at the ${LOOK_MINUTES}-minute schedule (schedule time: a change made just after a look, counted to the look that posts it)`);
	}
	const watchPerHour = perLook * LOOKS_PER_HOUR;
	const baselinePerHour = INVOICES * LOOKS_PER_HOUR;
	console.log(`  against the baseline (Get per invoice every ${LOOK_MINUTES} minutes, measured above): ${Math.round(watchPerHour)} / ${baselinePerHour.toLocaleString('en-US')} calls/hour = ${(watchPerHour / baselinePerHour).toFixed(3)}; the baseline would post within one look but does not fit the key, and within the same 25% share it could look only every ${(60 * baselinePerHour) / LOOKS_PER_HOUR / (T2_LIMIT * 0.25)} minutes (a change waits up to that long)`);
	const walls = done.map((l) => l.wallMs);
	console.log(`  wall time of a look in n8n (the whole chain, ${DELAY_MS} ms added to each reply): median ${seconds(median(walls))}, max ${seconds(Math.max(...walls))}`);
}

/** Looks until every invoice watched at the start has been read at least once. */
function firstSweep(done: Look[], watched: number): number | undefined {
	const seen = new Set<number>();
	for (const look of done) {
		for (const id of look.read) seen.add(id);
		if (seen.size >= watched) return look.n;
	}
	return undefined;
}

main().catch((error) => {
	console.error(error);
	killAllChildren();
	process.exit(1);
});
