/**
 * A queue-mode n8n on this machine: Redis and PostgreSQL as plain processes on loopback with their
 * data in QUEUE_TMP (a temporary folder scripts/queue.sh makes and removes), a main (`n8n start`)
 * and two workers (`n8n worker`) sharing the database, Redis and encryption key, with the packed
 * package installed as in the end-to-end run (one user folder, read by all three).
 *
 * Setting names are those of n8n's config package (@n8n/config, `@Env(...)`), the same in 2.8.4
 * and 2.41.1: EXECUTIONS_MODE, DB_TYPE, DB_POSTGRESDB_*, QUEUE_BULL_REDIS_HOST/PORT,
 * QUEUE_HEALTH_CHECK_ACTIVE/PORT, N8N_WORKER_SERVER_ADDRESS, N8N_RUNNERS_BROKER_PORT/LISTEN_ADDRESS,
 * N8N_ENCRYPTION_KEY.
 *
 * Every process is written to QUEUE_TMP/pids as soon as it is spawned, so that scripts/queue.sh
 * can stop what is left if this driver dies; Postgres (which daemonizes) is stopped there by its
 * data folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

import { freePort, killTree, n8nEnv, runCliOk, sleep, stopTree, tail, type N8nEnv } from '../e2e/n8n';

export interface Proc {
	name: string;
	child: ChildProcess;
	log(): string;
	stop(): Promise<void>;
}

const running = new Set<Proc>();
process.on('exit', () => {
	for (const proc of running) killTree(proc.child, 'SIGKILL');
});

/** Spawns a long-running process in its own process group, records its pid and keeps its output. */
function startProcess(tmp: string, name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Proc {
	const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	if (child.pid !== undefined) appendFileSync(join(tmp, 'pids'), `${child.pid}\n`);
	let log = '';
	child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
	child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
	const exited = new Promise<void>((resolveExit) => child.on('close', () => resolveExit()));
	const proc: Proc = {
		name,
		child,
		log: () => log,
		stop: async () => {
			await stopTree(child, exited);
			running.delete(proc);
		},
	};
	running.add(proc);
	return proc;
}

/** Polls `ready` until it holds; fails early when the process exits, and at the deadline. */
async function waitReady(proc: Proc, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
			throw new Error(`${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode})\n${tail(proc.log(), 3000)}`);
		}
		if (await ready().catch(() => false)) return;
		if (Date.now() > deadline) throw new Error(`${proc.name} not ready within ${timeoutMs} ms\n${tail(proc.log(), 3000)}`);
		await sleep(250);
	}
}

async function answers(url: string): Promise<boolean> {
	const res = await fetch(url);
	await res.arrayBuffer();
	return res.status === 200;
}

function redisPing(port: number): Promise<boolean> {
	return new Promise((resolvePing) => {
		const socket = connect(port, '127.0.0.1');
		socket.setTimeout(1000);
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (d) => {
			resolvePing(d.toString().startsWith('+PONG'));
			socket.destroy();
		});
		socket.on('error', () => resolvePing(false));
		socket.on('timeout', () => {
			resolvePing(false);
			socket.destroy();
		});
	});
}

/**
 * Postgres refuses to run as root: as root, its commands run as the `postgres` user the Debian
 * package creates (its data folder owned by that user); otherwise as the current user.
 */
function pgCommand(cmd: string, args: string[]): [string, string[]] {
	return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function runOk(cmd: string, args: string[]): void {
	const result = spawnSync(cmd, args, { encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${result.status}\n${result.stdout}${result.stderr}`);
}

export interface Database {
	port: number;
	stop(): void;
}

/** initdb into QUEUE_TMP/pg, start on a free loopback port (socket in the same folder), create `n8n`. */
export async function startPostgres(tmp: string, pgBin: string): Promise<Database> {
	const dir = join(tmp, 'pg');
	mkdirSync(dir);
	if (process.getuid?.() === 0) {
		chmodSync(tmp, 0o755); // the postgres user must reach its folder inside
		runOk('chown', ['postgres', dir]);
	}
	const data = join(dir, 'data');
	const port = await freePort();
	runOk(...pgCommand(join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']));
	const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
	runOk(...pgCommand(join(pgBin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'pg.log'), '-o', options, '-w', 'start']));
	const database = {
		port,
		stop: () => runOk(...pgCommand(join(pgBin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'])),
	};
	try {
		runOk('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-q', '-c', 'create database n8n']);
	} catch (error) {
		database.stop();
		throw error;
	}
	return database;
}

/** redis-server in the foreground, no persistence, loopback only. */
export async function startRedis(tmp: string): Promise<{ port: number; proc: Proc }> {
	const port = await freePort();
	const dir = join(tmp, 'redis');
	mkdirSync(dir);
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir];
	const proc = startProcess(tmp, 'redis-server', 'redis-server', args, process.env, dir);
	await waitReady(proc, () => redisPing(port), 60_000);
	return { port, proc };
}

export interface Shared {
	tmp: string;
	bin: string;
	userFolder: string;
	pgPort: number;
	redisPort: number;
	/** Set in every process of the stack (the Slack stand-in's HTTPS proxy: the workers post). */
	env?: Record<string, string>;
}

/** The environment every process of the stack shares (n8nEnv gives loopback, key, no telemetry). */
async function stackEnv(shared: Shared, mode: 'queue' | 'regular'): Promise<N8nEnv> {
	const base = await n8nEnv(shared.bin, shared.userFolder);
	base.env = {
		...base.env,
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(shared.pgPort),
		DB_POSTGRESDB_DATABASE: 'n8n',
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: mode,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(shared.redisPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		...shared.env,
	};
	return base;
}

/** `n8n import:credentials` / `import:workflow` against the shared database (they run the migrations). */
export async function importIntoDatabase(shared: Shared, args: string[]): Promise<void> {
	await runCliOk(await stackEnv(shared, 'queue'), args);
}

export interface Main {
	url: string;
	proc: Proc;
}

/**
 * `n8n start`; ready when the log says the editor is accessible and the REST API answers:
 * /rest/settings answers before the login and owner routes exist (as startServer in the e2e).
 */
export async function startMain(shared: Shared, mode: 'queue' | 'regular'): Promise<Main> {
	const env = await stackEnv(shared, mode);
	const proc = startProcess(shared.tmp, `n8n main (${mode})`, shared.bin, ['start'], env.env, shared.userFolder);
	const url = `http://127.0.0.1:${env.port}`;
	await waitReady(proc, async () => /Editor is now accessible/.test(proc.log()) && answers(`${url}/rest/settings`), 120_000);
	return { url, proc };
}

/** `n8n worker`, its health server on its own loopback port; ready when /healthz/readiness answers 200. */
export async function startWorker(shared: Shared, name: string, concurrency: number): Promise<Proc> {
	const env = await stackEnv(shared, 'queue');
	const healthPort = await freePort();
	env.env = {
		...env.env,
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(healthPort),
		// Without it the worker's health server listens on every interface.
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
	};
	const args = ['worker', `--concurrency=${concurrency}`];
	const proc = startProcess(shared.tmp, name, shared.bin, args, env.env, shared.userFolder);
	await waitReady(proc, () => answers(`http://127.0.0.1:${healthPort}/healthz/readiness`), 120_000);
	return proc;
}

/** Execution ids a worker's log says it started ("Worker started execution N (job M)"). */
export function executionsStartedBy(worker: Proc): Set<string> {
	return new Set([...worker.log().matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]));
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU seconds (user + system) used so far by every live process in these processes' groups (an
 * n8n process and its task runner). On a shared machine wall time varies with the neighbours'
 * load; the CPU a load costs does much less.
 */
export function cpuSeconds(procs: Proc[]): number {
	const groups = new Set(procs.map((p) => p.child.pid));
	let ticks = 0;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// Fields after the command (which may hold spaces) start at the last ')'.
			const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ').pop()?.split(' ') ?? [];
			if (groups.has(Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// the process ended meanwhile
		}
	}
	return ticks / CLOCK_TICKS;
}
