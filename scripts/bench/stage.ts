/**
 * The bench's stage: the sandbox behind a request counter, and a real n8n (the packed package
 * installed as n8n's installer leaves it, test/e2e/n8n.ts) whose `n8n execute` runs are sampled
 * for memory. Workflows are imported once and run by id.
 */
import { execSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { installPackedPackage, killTree, makeTempUserFolder, n8nEnv, runCliOk, tail, type N8nEnv } from '../../test/e2e/n8n';
import { newestExecutionId, readExecution, type Run, type TaskData } from '../../test/e2e/runData';
import { KEYS, keyByName } from '../../test/sandbox';
import { API_BASE, createHandler } from '../../test/sandbox/server';
import { World } from '../../test/sandbox/world';

/** One reply of the service: the key that called, the path's first segment, the status. */
export interface Call {
	key: string;
	segment: string;
	status: number;
}

/** The service's replies since the last `take()`, and the most requests open at once per key and path. */
export class CallCounter {
	private calls: Call[] = [];
	private open = new Map<string, number>();
	private peak = new Map<string, number>();

	add(call: Call): void {
		this.calls.push(call);
	}

	opened(key: string, segment: string): void {
		const name = `${key}/${segment}`;
		const now = (this.open.get(name) ?? 0) + 1;
		this.open.set(name, now);
		if (now > (this.peak.get(name) ?? 0)) this.peak.set(name, now);
	}

	closed(key: string, segment: string): void {
		const name = `${key}/${segment}`;
		this.open.set(name, (this.open.get(name) ?? 1) - 1);
	}

	take(): Calls {
		const taken = new Calls(this.calls, this.peak);
		this.calls = [];
		this.peak = new Map(this.open);
		return taken;
	}
}

export class Calls {
	constructor(
		private readonly calls: Call[],
		private readonly peak: Map<string, number> = new Map(),
	) {}

	/** The most requests of a key (under any of the paths) the service held open at once: the items in flight. */
	inFlight(key: string, segments: string[]): number {
		return Math.max(0, ...segments.map((segment) => this.peak.get(`${key}/${segment}`) ?? 0));
	}

	/** Calls by a key (name in keys.json), optionally only under some paths (e.g. "invoices"). */
	count(key: string, segments?: string[], status?: number): number {
		return this.calls.filter((c) => c.key === key && (!segments || segments.includes(c.segment)) && (status === undefined || c.status === status)).length;
	}
}

export interface BenchSandbox {
	world: World;
	baseUrl: string;
	calls: CallCounter;
	close(): Promise<void>;
}

/** `now`: the service's clock (the watch-list bench runs it on simulated schedule time). */
export async function startCountingSandbox(now: () => Date = () => new Date()): Promise<BenchSandbox> {
	const world = new World(now);
	const calls = new CallCounter();
	const nameOf = new Map(KEYS.map((k) => [`Bearer ${k.key}`, k.name]));
	let baseUrl = '';
	const handle = createHandler(world, () => baseUrl);
	const server: Server = createServer((req, res) => {
		if (req.url?.startsWith(API_BASE)) {
			const key = nameOf.get(String(req.headers.authorization)) ?? 'none';
			const parts = req.url.slice(API_BASE.length).split(/[/?]/);
			// GET /invoices (a listing, the look before filing) is counted apart from the other invoice calls.
			const listing = req.method === 'GET' && parts[1] === 'invoices' && (parts[2] === undefined || req.url.includes('/invoices?'));
			const segment = listing ? 'listing' : (parts[1] ?? '');
			res.on('finish', () => calls.add({ key, segment, status: res.statusCode }));
			calls.opened(key, segment);
			res.once('close', () => calls.closed(key, segment));
		}
		void handle(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	world.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	baseUrl = `${world.origin}${API_BASE}`;
	return {
		world,
		baseUrl,
		calls,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** Credential ids the bench workflows use. */
export const CREDENTIALS = {
	packageT2: { surplusLinesApi: { id: 'benchSlT2', name: 'Surplus Lines (t2)' } },
	packageT3: { surplusLinesApi: { id: 'benchSlT3', name: 'Surplus Lines (t3)' } },
	/** The HTTP Request node's Header Auth, with the t3 key of the same account (its calls are counted apart). */
	httpT3: { httpHeaderAuth: { id: 'benchHttpT3', name: 'Header Auth (t3)' } },
	/** Warm-up branches: a key of another account, so their calls are not counted with the measured ones. */
	packageWarm: { surplusLinesApi: { id: 'benchSlWarm', name: 'Surplus Lines (warm-up)' } },
	httpWarm: { httpHeaderAuth: { id: 'benchHttpWarm', name: 'Header Auth (warm-up)' } },
};

export interface Sample {
	at: number;
	/** Resident memory of the n8n process, bytes. */
	main: number;
	/** Resident memory of its other processes (the task runner that runs Code nodes), bytes. */
	others: number;
	/** CPU time the group's processes have used so far (user + system), ms. */
	cpuMs: number;
}

export interface Execution {
	run: Run;
	samples: Sample[];
}

const PAGE = 4096;

/** The processes of group `pgid` (Linux /proc): n8n and the task runner it started. */
function groupPids(pgid: number): number[] {
	const pids: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid) pids.push(Number(entry));
		} catch {
			// the process ended meanwhile
		}
	}
	return pids;
}

const TICK_MS = 1000 / Number(execSync('getconf CLK_TCK').toString().trim() || 100);

/** User + system CPU time of a process so far (/proc/<pid>/stat utime, stime), ms. */
function cpuOf(pid: number): number {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
	} catch {
		return 0;
	}
}

function rssOf(pid: number): number {
	try {
		return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE;
	} catch {
		return 0;
	}
}

/** Samples the group's resident memory every 100 ms (looking for new processes every second). */
function sampleGroup(pgid: number): { samples: Sample[]; stop(): void } {
	const samples: Sample[] = [];
	let pids: number[] = [];
	let tick = 0;
	const timer = setInterval(() => {
		if (tick++ % 10 === 0) pids = groupPids(pgid);
		let others = 0;
		let cpuMs = 0;
		for (const pid of pids) {
			if (pid !== pgid) others += rssOf(pid);
			cpuMs += cpuOf(pid);
		}
		samples.push({ at: Date.now(), main: rssOf(pgid), others, cpuMs });
	}, 100);
	return { samples, stop: () => clearInterval(timer) };
}

export class BenchN8n {
	private constructor(
		readonly n8n: N8nEnv,
		private readonly workDir: string,
	) {}

	static async start(bin: string, sandbox: BenchSandbox): Promise<BenchN8n> {
		const userFolder = makeTempUserFolder();
		installPackedPackage(userFolder);
		const n8n = await n8nEnv(bin, userFolder);
		const workDir = join(userFolder, 'bench-input');
		mkdirSync(join(workDir, 'workflows'), { recursive: true });
		const t3 = keyByName('t3').key;
		const warm = keyByName('other-account-t2').key;
		const credentials = [
			{ id: CREDENTIALS.packageT2.surplusLinesApi.id, name: 'Surplus Lines (t2)', type: 'surplusLinesApi', data: { apiKey: keyByName('t2').key, baseUrl: sandbox.baseUrl } },
			{ id: CREDENTIALS.packageT3.surplusLinesApi.id, name: 'Surplus Lines (t3)', type: 'surplusLinesApi', data: { apiKey: t3, baseUrl: sandbox.baseUrl } },
			{ id: CREDENTIALS.httpT3.httpHeaderAuth.id, name: 'Header Auth (t3)', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${t3}` } },
			{ id: CREDENTIALS.packageWarm.surplusLinesApi.id, name: 'Surplus Lines (warm-up)', type: 'surplusLinesApi', data: { apiKey: warm, baseUrl: sandbox.baseUrl } },
			{ id: CREDENTIALS.httpWarm.httpHeaderAuth.id, name: 'Header Auth (warm-up)', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${warm}` } },
		];
		writeFileSync(join(workDir, 'credentials.json'), JSON.stringify(credentials));
		await runCliOk(n8n, ['import:credentials', `--input=${join(workDir, 'credentials.json')}`]);
		return new BenchN8n(n8n, workDir);
	}

	async importWorkflows(workflows: Array<{ id: string }>): Promise<void> {
		const dir = join(this.workDir, 'workflows');
		for (const workflow of workflows) writeFileSync(join(dir, `${workflow.id}.json`), JSON.stringify(workflow));
		await runCliOk(this.n8n, ['import:workflow', '--separate', `--input=${dir}`]);
	}

	/** `n8n execute --id --rawOutput`, its process group's memory sampled. */
	async execute(id: string, timeoutMs = 600_000): Promise<Execution> {
		// stdout to a file: n8n exits right after printing the run, and a pipe would lose its end.
		const outFile = join(this.workDir, `${id}.out`);
		const before = await newestExecutionId(this.n8n.bin, this.n8n.userFolder);
		const out = openSync(outFile, 'w');
		// BENCH_CPU_PROF=<dir>: V8's CPU profile of each `n8n execute` (n8n and its task runner) there.
		const prof = process.env.BENCH_CPU_PROF;
		const env = prof ? { ...this.n8n.env, NODE_OPTIONS: `${this.n8n.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${prof}`.trim() } : this.n8n.env;
		const child = spawn(this.n8n.bin, ['execute', `--id=${id}`, '--rawOutput'], {
			env,
			cwd: this.n8n.userFolder,
			detached: true,
			stdio: ['ignore', out, 'pipe'],
		});
		closeSync(out);
		const stop = () => killTree(child, 'SIGKILL');
		process.once('exit', stop);
		let stderr = '';
		child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
		const sampler = sampleGroup(child.pid ?? 0);
		const timer = setTimeout(stop, timeoutMs);
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		sampler.stop();
		clearTimeout(timer);
		process.removeListener('exit', stop);
		const stdout = readFileSync(outFile, 'utf8');
		rmSync(outFile);
		if (process.env.BENCH_DUMP) writeFileSync(join(process.env.BENCH_DUMP, `${id}.out`), stdout);
		// The run from n8n's database: log lines on stdout cannot break it (test/e2e/runData.ts).
		const run = await readExecution(this.n8n.bin, this.n8n.userFolder, id, before);
		if (code !== 0 || !run) throw new Error(`n8n execute ${id} exited ${code}${run ? '' : ', no run JSON'}\n${tail(stdout, 1500)}\n${tail(stderr, 1500)}`);
		return { run, samples: sampler.samples };
	}

	close(): void {
		rmSync(this.n8n.userFolder, { recursive: true, force: true });
	}
}

export function task(run: Run, node: string): TaskData & { startTime: number } {
	const tasks = run.data.resultData.runData[node];
	if (!tasks?.length) throw new Error(`node "${node}" did not run`);
	return tasks[tasks.length - 1] as TaskData & { startTime: number };
}

/** The span from the first of the nodes' starts to the last of their ends (run data), ms since the epoch. */
function span(execution: Execution, nodes: string[]): { from: number; to: number } {
	const spans = nodes.map((n) => task(execution.run, n)).map((t) => [t.startTime, t.startTime + (t.executionTime ?? 0)]);
	return { from: Math.min(...spans.map((s) => s[0])), to: Math.max(...spans.map((s) => s[1])) };
}

/**
 * CPU time n8n and its task runner used while the nodes ran, ms (samples every 100 ms, so the
 * span is widened to the samples around it). On shared cores it moves far less than wall time:
 * time spent waiting for a core is not counted.
 */
export function cpuMs(execution: Execution, nodes: string[]): number {
	const { from, to } = span(execution, nodes);
	const before = execution.samples.filter((s) => s.at <= from).pop() ?? execution.samples[0];
	const after = execution.samples.find((s) => s.at >= to) ?? execution.samples[execution.samples.length - 1];
	return (after?.cpuMs ?? 0) - (before?.cpuMs ?? 0);
}

/** Peak resident memory (n8n + its task runner) while the given nodes ran, MB. */
export function peakMb(execution: Execution, nodes: string[]): { total: number; main: number } {
	const { from, to } = span(execution, nodes);
	const inside = execution.samples.filter((s) => s.at >= from && s.at <= to);
	const mb = (bytes: number) => bytes / 1024 / 1024;
	return {
		total: mb(Math.max(0, ...inside.map((s) => s.main + s.others))),
		main: mb(Math.max(0, ...inside.map((s) => s.main))),
	};
}
