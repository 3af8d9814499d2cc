/**
 * The package in a real n8n (packed, `n8n execute`; the version scripts/bench/run.sh chose) against n8n's HTTP Request node doing
 * the same calls in the same execution, against the sandbox with 0, 50 and 200 ms added to each
 * reply (fault `delay_ms`). Node times come from the run data (`executionTime`); calls, and the
 * most requests open at once (the items in flight), are counted at the sandbox per key (the
 * package on the t2 key, the HTTP Request node on the t3 key of the same account); memory is the
 * resident size of n8n and its task runner while the nodes ran, and so is their CPU time (on
 * shared cores steadier than wall time, which counts the waits for a core). Each comparison runs
 * BENCH_PAIR_RUNS times (default 3), the branches' order rotated, and the median ratio is
 * printed. Prints figures and the issue's targets beside them; asserts nothing. Env: N8N_BIN
 * (scripts/bench/run.sh sets it), BENCH_ONLY=reads,creates,window,createMany,taxes, BENCH_DELAYS=0,50,200
 * (the delays the reads and estimates run at), BENCH_KEY_HEARD=1 (below), BENCH_SCALE; for accounts
 * that hold a book: BENCH_BOOK (0,20000; the invoices the account holds before each create
 * run), BENCH_CREATES (1000) and BENCH_CREATE_DELAYS (50,200), BENCH_MANY (10000) and
 * BENCH_MANY_DELAY (50,200); BENCH_CPU_PROF=<dir> writes V8's profile of each `n8n execute` there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { REPO_ROOT, killAllChildren, n8nVersion } from '../../test/e2e/n8n';
import { json } from '../../test/e2e/runData';
import { keyByName } from '../../test/sandbox';
import { createInvoice } from '../../test/sandbox/invoices/service';
import { accountOf } from '../../test/sandbox/keys';
import { BenchN8n, cpuMs, peakMb, startCountingSandbox, task, type BenchSandbox, type Calls, type Execution } from './stage';
import { batchTaxes, taxWorkflows } from './batchTaxes';
import { batches, estimateNode, estimateRow, httpNode, invoiceNode, invoiceRow, listingPages, rows, rowsNotListed, workflow, type WorkflowJson } from './workflows';

// BENCH_SCALE=0.1 makes every count ten times smaller (a quick look; figures not comparable).
const scale = Number(process.env.BENCH_SCALE ?? 1);
const READS = Math.round(500 * scale);
const CREATES = Math.round(Number(process.env.BENCH_CREATES ?? 1000) * scale);
const WINDOW = { seconds: 10, limit: 50, creates: 200 };
const MANY = Math.round(Number(process.env.BENCH_MANY ?? 10_000) * scale);
// BENCH_BOOK=0,20000,100000: the account's book, the invoices it already holds when the creates and
// Create Many run (seeded in the sandbox, on policies no row of the run has): the look before filing
// reads it or not as the listing choice decides. Default: an empty account and one of 20,000.
const BOOKS = (process.env.BENCH_BOOK ?? '0,20000').split(',').map(Number);
// Delays (ms added to each reply) the per-item creates and Create Many run at (default 50 and 200 each).
const CREATE_DELAYS = (process.env.BENCH_CREATE_DELAYS ?? '50,200').split(',').map(Number);
const MANY_DELAYS = (process.env.BENCH_MANY_DELAY ?? '50,200').split(',').map(Number);
const HIGH_LIMITS = { t1: 1_000_000, t2: 1_000_000, t3: 1_000_000 };

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
// BENCH_DELAYS=200 runs the reads and estimates at 200 ms added only (default 0, 50 and 200).
const READ_DELAYS = (process.env.BENCH_DELAYS ?? '0,50,200').split(',').map(Number);
// Each `n8n execute` is a new process, so the package meets its key as a running n8n does only on
// its first run: the budget not known, 25 items in flight until the first reply (concurrency.ts).
// BENCH_KEY_HEARD=1: the Get warm-up branch uses the measured t2 key, so the Get starts with the
// key's figures known, as every later run in `n8n start` does (its 5 calls are not counted).
const KEY_HEARD = process.env.BENCH_KEY_HEARD === '1';
const WARM_GETS = 5;
const wanted = (name: string) => !only || only.includes(name);

/** The built package has the "Input Item As Is" body source. */
function hasInputItemMode(): boolean {
	const file = join(REPO_ROOT, 'dist/nodes/SurplusLinesInvoice/actions/invoice/body.description.js');
	return existsSync(file) && readFileSync(file, 'utf8').includes("'inputItem'");
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (a: number, b: number) => (a / b).toFixed(2);
const failedItems = (items: IDataObject[]) => items.filter((i) => i.error !== undefined).length;

function prepare(sandbox: BenchSandbox, options: { delayMs?: number; window?: { seconds: number; t2: number } } = {}) {
	sandbox.world.reset();
	sandbox.world.rateLimiter.configure(options.window?.seconds ?? 3600, options.window ? { ...HIGH_LIMITS, t2: options.window.t2 } : HIGH_LIMITS);
	if (options.delayMs) sandbox.world.faults.configure({ delay_ms: options.delayMs });
	sandbox.calls.take();
}

/** The account's book: `count` invoices on policies BOOK-0.., stored in the sandbox's world directly. */
function seedBook(sandbox: BenchSandbox, count: number) {
	const account = accountOf(keyByName('t3'));
	for (let i = 0; i < count; i++)
		createInvoice(sandbox.world, account, { policy_number: `BOOK-${i}`, insured_name: `Insured ${i}`, state_code: 'TX', net_premium: 1000 + (i % 5000), effective_date: '2025-01-01', expiration_date: '2026-01-01' });
}

/** Invoices 1001.. stored through the service (t3 batches), for the reads. */
async function storeInvoices(sandbox: BenchSandbox, count: number) {
	for (let start = 0; start < count; start += 500) {
		const invoices = Array.from({ length: Math.min(500, count - start) }, (_, k) => {
			const i = start + k;
			return { policy_number: `READ-${i}`, insured_name: `Insured ${i}`, state_code: 'TX', net_premium: 1000 + i, effective_date: '2026-01-01', expiration_date: '2027-01-01' };
		});
		const res = await fetch(`${sandbox.baseUrl}/invoices/batch`, {
			method: 'POST',
			headers: { authorization: `Bearer ${keyByName('t3').key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ invoices }),
		});
		if (res.status >= 300) throw new Error(`storing invoices: ${res.status} ${await res.text()}`);
	}
}

/** Stored invoices per policy number under `prefix`: how many policies have more than one. */
function duplicates(sandbox: BenchSandbox, prefix: string): { stored: number; duplicated: number } {
	const perPolicy = new Map<string, number>();
	for (const invoice of sandbox.world.invoices.all()) {
		const policy = String(invoice.input.policyNumber);
		if (policy.startsWith(`${prefix}-`)) perPolicy.set(policy, (perPolicy.get(policy) ?? 0) + 1);
	}
	return { stored: perPolicy.size, duplicated: [...perPolicy.values()].filter((n) => n > 1).length };
}

interface Pair {
	label: string;
	target: string;
	packageNode: string;
	httpNode: string;
	/** Path segments of the pair's calls, to count them apart from other branches'. */
	segments: string[];
}

interface PairResult {
	packageMs: number;
	httpMs: number;
	packageCalls: number;
	httpCalls: number;
	packageFailed: number;
	httpFailed: number;
	packagePeak: number;
	httpPeak: number;
	/** The most requests of the node the service held open at once. */
	packageInFlight: number;
	httpInFlight: number;
	/** CPU time of n8n (and its task runner) while the node ran, ms. */
	packageCpu: number;
	httpCpu: number;
	/** The package's listings (GET /invoices: the look before filing). */
	packageCallsListing: number;
	extra?: string;
}

function measurePair(execution: Execution, calls: Calls, pair: Pair): PairResult {
	const p = task(execution.run, pair.packageNode);
	const h = task(execution.run, pair.httpNode);
	return {
		packageMs: p.executionTime ?? NaN,
		httpMs: h.executionTime ?? NaN,
		packageCalls: calls.count('t2', pair.segments),
		httpCalls: calls.count('t3', pair.segments),
		packageFailed: failedItems(json(execution.run, pair.packageNode)),
		httpFailed: failedItems(json(execution.run, pair.httpNode)),
		packagePeak: peakMb(execution, [pair.packageNode]).total,
		httpPeak: peakMb(execution, [pair.httpNode]).total,
		packageInFlight: calls.inFlight('t2', pair.segments),
		httpInFlight: calls.inFlight('t3', pair.segments),
		packageCpu: cpuMs(execution, [pair.packageNode]),
		packageCallsListing: calls.count('t2', ['listing']),
		httpCpu: cpuMs(execution, [pair.httpNode]),
	};
}

const PAIR_RUNS = Number(process.env.BENCH_PAIR_RUNS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function printRun(run: number, order: string, r: PairResult) {
	console.log(
		`  run ${run + 1} (${order.padEnd(23)}) package ${seconds(r.packageMs)}, HTTP Request node ${seconds(r.httpMs)}: ratio ${ratio(r.packageMs, r.httpMs)}; CPU ${seconds(r.packageCpu)} / ${seconds(r.httpCpu)}; ` +
			`in flight at most ${r.packageInFlight} / ${r.httpInFlight}; calls ${r.packageCalls} / ${r.httpCalls}; failed items ${r.packageFailed} / ${r.httpFailed}; ` +
			`peak memory ${r.packagePeak.toFixed(0)} / ${r.httpPeak.toFixed(0)} MB${r.extra ? `; ${r.extra}` : ''}`,
	);
}

function printMedian(pair: Pair, results: PairResult[]) {
	const ratios = results.map((r) => r.packageMs / r.httpMs);
	const cpuRatios = results.map((r) => r.packageCpu / r.httpCpu);
	console.log(
		`  => median ratio ${median(ratios).toFixed(2)} (runs ${ratios.map((r) => r.toFixed(2)).join(', ')}); median times ${seconds(median(results.map((r) => r.packageMs)))} / ${seconds(median(results.map((r) => r.httpMs)))}; ` +
			`median CPU ratio ${median(cpuRatios).toFixed(2)}; ` +
			`failed items ${results.reduce((n, r) => n + r.packageFailed, 0)} / ${results.reduce((n, r) => n + r.httpFailed, 0)}   (target: ${pair.target})`,
	);
}

/** Every second run the workflow with the branches the other way round. */
const rotated = (run: number, ids: [string, string]) => ids[run % 2];

async function readsAndEstimates(n8n: BenchN8n, sandbox: BenchSandbox, flows: Record<string, WorkflowJson>) {
	for (const delayMs of READ_DELAYS) {
		const reads: Pair = { label: `${READS} Invoice Get, ${delayMs} ms added to each reply${KEY_HEARD ? ', the key heard from (its warm-up on the same key)' : ''}`, target: delayMs ? 'at most 1.0' : 'none (for reference)', packageNode: 'Package Get', httpNode: 'HTTP Get', segments: ['invoices'] };
		const estimates: Pair = { label: `${READS} Calculator Estimate, ${delayMs} ms added to each reply`, target: delayMs ? 'at most 1.0' : 'none (for reference)', packageNode: 'Package Estimate', httpNode: 'HTTP Estimate', segments: ['calculator'] };
		const results = { reads: [] as PairResult[], estimates: [] as PairResult[] };
		let keyChecks = 0;
		for (let run = 0; run < PAIR_RUNS; run++) {
			prepare(sandbox);
			await storeInvoices(sandbox, READS);
			if (delayMs) sandbox.world.faults.configure({ delay_ms: delayMs });
			sandbox.calls.take();
			const id = rotated(run, ['reads', 'reads-b']);
			const execution = await n8n.execute(flows[id].id);
			const calls = sandbox.calls.take();
			const read = measurePair(execution, calls, reads);
			if (KEY_HEARD) read.packageCalls -= WARM_GETS;
			results.reads.push(read);
			results.estimates.push(measurePair(execution, calls, estimates));
			keyChecks += calls.count('t2', ['auth']);
		}
		for (const [pair, list] of [[reads, results.reads], [estimates, results.estimates]] as const) {
			console.log(`\n${pair.label}`);
			list.forEach((r, run) => printRun(run, (run % 2 === 0) === (pair === reads) ? 'package first' : 'HTTP Request node first', r));
			printMedian(pair, list);
		}
		if (keyChecks) console.log(`  (package key-information calls: ${keyChecks} in ${PAIR_RUNS} runs)`);
	}
}

async function creates(n8n: BenchN8n, sandbox: BenchSandbox, flows: Record<string, WorkflowJson>) {
	for (const book of BOOKS) for (const delayMs of CREATE_DELAYS) {
		const pair: Pair = { label: `${CREATES} Invoice Create, one call per item (t2), ${delayMs} ms added to each reply, an account of ${book} invoices`, target: 'at most 1.0, 0 duplicates, 0 failed', packageNode: 'Package Create', httpNode: 'HTTP Create', segments: ['invoices', 'auth', 'listing'] };
		const results: PairResult[] = [];
		console.log(`\n${pair.label}`);
		for (let run = 0; run < PAIR_RUNS; run++) {
			prepare(sandbox);
			seedBook(sandbox, book);
			if (delayMs) sandbox.world.faults.configure({ delay_ms: delayMs });
			sandbox.calls.take();
			const id = rotated(run, ['creates', 'creates-b']);
			const execution = await n8n.execute(flows[id].id);
			const result = measurePair(execution, sandbox.calls.take(), pair);
			const pkg = duplicates(sandbox, 'PKG');
			const http = duplicates(sandbox, 'HTTP');
			result.extra = `stored ${pkg.stored} / ${http.stored}, duplicates ${pkg.duplicated} / ${http.duplicated}; the look's listings ${result.packageCallsListing}`;
			results.push(result);
			printRun(run, id === 'creates' ? 'HTTP Request node first' : 'package first', result);
		}
		printMedian(pair, results);
	}
}

async function window(n8n: BenchN8n, sandbox: BenchSandbox, flows: Record<string, WorkflowJson>) {
	prepare(sandbox, { window: { seconds: WINDOW.seconds, t2: WINDOW.limit } });
	const execution = await n8n.execute(flows.window.id);
	const calls = sandbox.calls.take();
	const t = task(execution.run, 'Package Create');
	const ms = t.executionTime ?? NaN;
	const windowMs = WINDOW.seconds * 1000;
	// Windows are aligned to the epoch: the calls can end no sooner than the start of the window
	// holding the last of them.
	const firstReset = (Math.floor(t.startTime / windowMs) + 1) * windowMs;
	const minimumFor = (n: number) => firstReset - t.startTime + (Math.ceil(n / WINDOW.limit) - 2) * windowMs;
	// The run's one account check (GET /auth/me, the re-run protection) is a call the creates
	// cannot do without; the minimum for the creates alone is printed beside it.
	const needed = WINDOW.creates + 1;
	const items = json(execution.run, 'Package Create');
	const dup = duplicates(sandbox, 'WIN');
	console.log(`\n${WINDOW.creates} Invoice Create under a ${WINDOW.limit}-per-${WINDOW.seconds}-s window (t2), 0 ms added`);
	console.log(
		`  package ${seconds(ms)} against the window minimum for ${needed} calls (${WINDOW.creates} creates + the account check) ${seconds(minimumFor(needed))}: ${ratio(ms, minimumFor(needed))}; ` +
			`for the ${WINDOW.creates} creates alone ${seconds(minimumFor(WINDOW.creates))}: ${ratio(ms, minimumFor(WINDOW.creates))}; calls ${calls.count('t2')}, 429 replies ${calls.count('t2', undefined, 429)}; ` +
			`failed items ${failedItems(items)}; stored ${dup.stored}, duplicates ${dup.duplicated}   (target: 0 failed, 0 × 429, at most 1.05)`,
	);
}

// Peak memory moves by up to 80 MB between runs of the same workflow (n8n's own resident size
// before the first node differs by as much from one start to the next): each Create Many workflow
// runs this many times, the order rotated each round, and medians compare.
const MANY_RUNS = Number(process.env.BENCH_MANY_RUNS ?? 7);

async function createMany(n8n: BenchN8n, sandbox: BenchSandbox, flows: Record<string, WorkflowJson>, inputItem: boolean) {
	for (const book of BOOKS) for (const delayMs of MANY_DELAYS) await createManyOn(n8n, sandbox, flows, inputItem, book, delayMs);
}

async function createManyOn(n8n: BenchN8n, sandbox: BenchSandbox, flows: Record<string, WorkflowJson>, inputItem: boolean, book: number, delayMs: number) {
	console.log(`\nCreate Many, ${MANY} rows (t3), an account of ${book} invoices, ${delayMs} ms added; time and CPU (n8n + its task runner) of the nodes after the row-making Code node; peak memory = n8n + its task runner while the nodes ran (row-making Code node included in both); ${MANY_RUNS} runs each, in turn`);
	const variants = [
		{ id: 'many-hand', label: 'hand-built: Code (batches of 500) + HTTP Request', nodes: ['Rows', 'Batches', 'HTTP Batch'], prefix: 'HAND' },
		// The least any look before filing costs in n8n, for reference: n8n's own nodes read the
		// account's pages (their count given, so no first page is waited for), drop the rows listed,
		// and send the rest as the hand-built workflow does. Measured only where the account holds a book.
		...(book > 0 ? [{ id: `many-hand-look-${book}`, label: 'hand-built with a look: pages + HTTP GET + Code + HTTP', nodes: ['Rows', 'Pages', 'HTTP List', 'Rows Not Listed', 'HTTP Batch'], prefix: 'HANDLOOK' }] : []),
		{ id: 'many-json', label: 'package Create Many, JSON body {{ $json }}', nodes: ['Rows', 'Package Create Many'], prefix: 'MANY' },
		...(inputItem ? [{ id: 'many-item', label: 'package Create Many, Input Item As Is', nodes: ['Rows', 'Package Create Many'], prefix: 'MANY' }] : []),
	];
	const results = new Map<string, { ms: number[]; cpu: number[]; peak: number[]; calls: number[]; duplicates: number }>(variants.map((v) => [v.id, { ms: [], cpu: [], peak: [], calls: [], duplicates: 0 }]));
	for (let run = 0; run < MANY_RUNS; run++) {
		for (const variant of variants.map((_, k) => variants[(k + run) % variants.length])) {
			prepare(sandbox);
			seedBook(sandbox, book);
			if (delayMs) sandbox.world.faults.configure({ delay_ms: delayMs });
			sandbox.calls.take();
			const execution = await n8n.execute(flows[variant.id].id);
			const calls = sandbox.calls.take();
			const ms = variant.nodes.slice(1).reduce((sum, node) => sum + (task(execution.run, node).executionTime ?? 0), 0);
			const peak = peakMb(execution, variant.nodes);
			const cpu = cpuMs(execution, variant.nodes.slice(1));
			const filed = duplicates(sandbox, variant.prefix);
			const result = results.get(variant.id)!;
			result.ms.push(ms);
			result.cpu.push(cpu);
			result.peak.push(peak.total);
			result.calls.push(calls.count('t3'));
			result.duplicates += filed.duplicated;
			console.log(
				`  run ${run + 1} ${variant.label.padEnd(48)} ${seconds(ms).padStart(8)}  CPU ${seconds(cpu).padStart(7)}  calls ${String(calls.count('t3')).padStart(3)} (listings ${calls.count('t3', ['listing'])})  stored ${filed.stored}, duplicates ${filed.duplicated}  peak ${peak.total.toFixed(0)} MB (n8n alone ${peak.main.toFixed(0)} MB)`,
			);
		}
	}
	const hand = results.get('many-hand')!;
	for (const variant of variants.slice(1)) {
		const r = results.get(variant.id)!;
		if (variant.id.startsWith('many-hand-look')) {
			console.log(`  => ${variant.label}: median time ${seconds(median(r.ms))} against ${seconds(median(hand.ms))}, ratio ${ratio(median(r.ms), median(hand.ms))}; median CPU ${seconds(median(r.cpu))}, ratio ${ratio(median(r.cpu), median(hand.cpu))}; calls ${median(r.calls)}; duplicates ${r.duplicates}`);
			continue;
		}
		console.log(
			`  => ${variant.label.replace('package Create Many, ', '')}: median time ${seconds(median(r.ms))} against ${seconds(median(hand.ms))}, ratio ${ratio(median(r.ms), median(hand.ms))}; ` +
				`median CPU ${seconds(median(r.cpu))} against ${seconds(median(hand.cpu))}, ratio ${ratio(median(r.cpu), median(hand.cpu))}; ` +
				`median peak ${median(r.peak).toFixed(0)} MB against ${median(hand.peak).toFixed(0)} MB, ratio ${ratio(median(r.peak), median(hand.peak))} (runs ${r.peak.map((p, k) => ratio(p, hand.peak[k])).join(', ')}); calls ${median(r.calls)}; duplicates ${r.duplicates}`,
		);
	}
	console.log("  (target: 20 batch calls + the run's account check, peak memory at most the hand-built's)");
	if (!inputItem) console.log('  (the "Input Item As Is" body source is not in this build: measured the JSON body only)');
}

function buildWorkflows(baseUrl: string, inputItem: boolean): Record<string, WorkflowJson> {
	const readPair = {
		package: [rows('Invoice IDs A', READS, '(i) => ({ id: 1001 + i })'), invoiceNode('Package Get', { operation: 'get', invoiceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } })],
		http: [rows('Invoice IDs B', READS, '(i) => ({ id: 1001 + i })'), httpNode('HTTP Get', 'GET', `=${baseUrl}/invoices/{{ $json.id }}`)],
	};
	const estimatePair = {
		package: [rows('Estimate Rows A', READS, estimateRow), estimateNode('Package Estimate')],
		http: [rows('Estimate Rows B', READS, estimateRow), httpNode('HTTP Estimate', 'POST', `${baseUrl}/calculator/estimate`, '={{ $json }}')],
	};
	const createPair = {
		package: [rows('Rows A', CREATES, invoiceRow('PKG')), invoiceNode('Package Create', { operation: 'create', inputMode: 'json', invoiceJson: '={{ $json }}' })],
		http: [rows('Rows B', CREATES, invoiceRow('HTTP')), httpNode('HTTP Create', 'POST', `${baseUrl}/invoices`, '={{ $json }}')],
	};
	// A first branch runs every measured node on a few items, so no measured node pays for
	// loading code or warming n8n up.
	const warmRows = (name: string) => rows(name, WARM_GETS, '(i) => ({ id: 1001 + i, state: "TX", premium: 1000, policy_fees: 0, effective_date: "2026-01-01" })');
	const warmUp = [
		[warmRows('Warm-up Rows 1'), invoiceNode('Warm-up Get', { operation: 'get', invoiceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }, KEY_HEARD ? 't2' : 'warm')],
		[warmRows('Warm-up Rows 2'), httpNode('Warm-up HTTP Get', 'GET', `=${baseUrl}/invoices/{{ $json.id }}`, undefined, true)],
		[warmRows('Warm-up Rows 3'), estimateNode('Warm-up Estimate', true)],
		[warmRows('Warm-up Rows 4'), httpNode('Warm-up HTTP Estimate', 'POST', `${baseUrl}/calculator/estimate`, '={{ $json }}', true)],
	];
	const warmUpCreate = [
		[rows('Warm-up Rows 1', 5, invoiceRow('WARM')), invoiceNode('Warm-up Create', { operation: 'create', inputMode: 'json', invoiceJson: '={{ $json }}' }, 'warm')],
		[rows('Warm-up Rows 2', 5, invoiceRow('WARMH')), httpNode('Warm-up HTTP Create', 'POST', `${baseUrl}/invoices`, '={{ $json }}', true)],
	];
	const flows: WorkflowJson[] = [
		workflow('reads', [...warmUp, readPair.package, readPair.http, estimatePair.http, estimatePair.package]),
		workflow('reads-b', [...warmUp, readPair.http, readPair.package, estimatePair.package, estimatePair.http]),
		workflow('creates', [...warmUpCreate, createPair.http, createPair.package]),
		workflow('creates-b', [...warmUpCreate, createPair.package, createPair.http]),
		workflow('window', [[rows('Rows', WINDOW.creates, invoiceRow('WIN')), invoiceNode('Package Create', { operation: 'create', inputMode: 'json', invoiceJson: '={{ $json }}' })]]),
		workflow('many-hand', [[rows('Rows', MANY, invoiceRow('HAND')), batches('Batches', 500), httpNode('HTTP Batch', 'POST', `${baseUrl}/invoices/batch`, '={{ $json }}')]]),
		workflow('many-json', [[rows('Rows', MANY, invoiceRow('MANY')), invoiceNode('Package Create Many', { operation: 'createMany', inputMode: 'json', invoiceJson: '={{ $json }}' }, 't3')]]),
	];
	for (const book of BOOKS.filter((b) => b > 0))
		flows.push(workflow(`many-hand-look-${book}`, [[rows('Rows', MANY, invoiceRow('HANDLOOK')), listingPages('Pages', Math.ceil(book / 100)), httpNode('HTTP List', 'GET', `=${baseUrl}/invoices?page={{ $json.page }}&per_page=100`), rowsNotListed('Rows Not Listed', 'Rows', 500), httpNode('HTTP Batch', 'POST', `${baseUrl}/invoices/batch`, '={{ $json }}')]]));
	flows.push(...taxWorkflows());
	if (inputItem) flows.push(workflow('many-item', [[rows('Rows', MANY, invoiceRow('MANY')), invoiceNode('Package Create Many', { operation: 'createMany', inputMode: 'inputItem' }, 't3')]]));
	return Object.fromEntries(flows.map((f) => [f.id, f]));
}

async function main() {
	const bin = process.env.N8N_BIN;
	if (!bin || !existsSync(bin)) throw new Error('N8N_BIN must point at the n8n binary (scripts/bench/run.sh sets it)');
	const started = Date.now();
	const sandbox = await startCountingSandbox();
	const n8n = await BenchN8n.start(bin, sandbox);
	try {
		const inputItem = hasInputItemMode();
		const flows = buildWorkflows(sandbox.baseUrl, inputItem);
		await n8n.importWorkflows(Object.values(flows));
		console.log(`bench: the packed package in n8n ${n8nVersion(bin).n8n} under Node ${n8nVersion(bin).node} (n8n execute) against n8n's HTTP Request node, sandbox at ${sandbox.baseUrl}`);
		console.log('figures: node execution times from the run data; calls counted at the sandbox (package / HTTP Request node)');
		if (wanted('reads')) await readsAndEstimates(n8n, sandbox, flows);
		if (wanted('creates')) await creates(n8n, sandbox, flows);
		if (wanted('window')) await window(n8n, sandbox, flows);
		if (wanted('createMany')) await createMany(n8n, sandbox, flows, inputItem);
		if (wanted('taxes')) await batchTaxes(n8n, sandbox, flows);
		console.log(`\nbench in n8n: ${seconds(Date.now() - started)}`);
	} finally {
		n8n.close();
		killAllChildren();
		await sandbox.close();
	}
}

main().catch((error) => {
	console.error(error);
	killAllChildren();
	process.exit(1);
});
