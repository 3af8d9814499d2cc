/**
 * Drives a real n8n (the CLI from scripts/ensure-n8n.sh) with this package installed the way
 * n8n's community-package installer leaves it: the packed tarball extracted into
 * `<user folder>/.n8n/nodes/node_modules/n8n-nodes-surplus-lines`, with no node_modules of its
 * own, so imports such as zod resolve from n8n's own dependencies, as they will for users.
 *
 * Used by the end-to-end run (run.ts) and the demo (demo.ts).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const PACKAGE_NAME = 'n8n-nodes-surplus-lines';
export const REPO_ROOT = findRepoRoot();

function findRepoRoot(): string {
	let dir = __dirname;
	while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'nodes'))) {
		const parent = resolve(dir, '..');
		if (parent === dir) throw new Error(`e2e: no repository root above ${__dirname}`);
		dir = parent;
	}
	return dir;
}

/*
 * The n8n under test: scripts/ensure-n8n.sh prints `<runtime>/bin/n8n`, a wrapper that starts
 * n8n under the Node that version needs (Node 24 for the current n8n, the machine's Node for
 * 2.8.4); n8n itself is in `<runtime>/node_modules/n8n` and the Node's bin folder in
 * `<runtime>/.node-bin` (empty: the machine's Node). Which version a stage runs is chosen once,
 * by N8N_TARGET (read by ensure-n8n.sh), and reaches the drivers only as N8N_BIN.
 */
function runtimeDir(bin: string): string {
	return dirname(dirname(bin));
}

/** The Node executable n8n runs under. */
function nodeOf(bin: string): string {
	const folder = readFileSync(join(runtimeDir(bin), '.node-bin'), 'utf8').trim();
	return folder ? join(folder, 'node') : 'node';
}

/** `require` from n8n's own package (pure-JS modules such as flatted; not native ones, see querySqlite). */
export function requireFromN8n(bin: string): NodeRequire {
	return createRequire(join(runtimeDir(bin), 'node_modules', 'n8n', 'package.json'));
}

export interface N8nVersion {
	/** e.g. 2.41.1 */
	n8n: string;
	/** The Node n8n runs under, e.g. v24.21.0 */
	node: string;
	/** [major, minor, patch] of `n8n` */
	parts: [number, number, number];
}

let versionCache: N8nVersion | undefined;
/** The n8n version N8N_BIN starts and its Node, for the stages' result lines and version-dependent steps. */
export function n8nVersion(bin: string): N8nVersion {
	if (versionCache) return versionCache;
	const n8n = (JSON.parse(readFileSync(join(runtimeDir(bin), 'node_modules', 'n8n', 'package.json'), 'utf8')) as { version: string }).version;
	const node = spawnSync(nodeOf(bin), ['--version'], { encoding: 'utf8' }).stdout.trim();
	const [major, minor, patch] = n8n.split('.').map(Number);
	versionCache = { n8n, node, parts: [major, minor, patch] };
	return versionCache;
}

/** The n8n under test is at least `major.minor`. */
export function n8nAtLeast(bin: string, major: number, minor: number): boolean {
	const [a, b] = n8nVersion(bin).parts;
	return a > major || (a === major && b >= minor);
}

/** ` on n8n 2.41.1 (Node v24.21.0)`: what each stage prints beside its result line. */
export function onVersion(bin: string): string {
	const v = n8nVersion(bin);
	return ` on n8n ${v.n8n} (Node ${v.node})`;
}

/**
 * Reads n8n's sqlite database with the sqlite3 module n8n ships with, in a child process under
 * n8n's own Node: the module's native binding is built for that Node, which may not be the one
 * running this driver.
 */
export async function querySqlite<T>(bin: string, database: string, sql: string, params: unknown[] = []): Promise<T[]> {
	const node = nodeOf(bin);
	const script = `const sqlite3 = require('sqlite3');
const [file, sql, params] = process.argv.slice(1);
const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (openError) => {
	if (openError) { console.error(openError.message); process.exit(1); }
	db.all(sql, JSON.parse(params), (error, rows) => {
		db.close();
		if (error) { console.error(error.message); process.exit(1); }
		process.stdout.write(JSON.stringify(rows));
	});
});`;
	return await new Promise((resolveRows, reject) => {
		execFile(
			node,
			['-e', script, database, sql, JSON.stringify(params)],
			{ cwd: join(runtimeDir(bin), 'node_modules', 'n8n'), maxBuffer: 512 * 1024 * 1024 },
			(error, stdout, stderr) => (error ? reject(new Error(`reading ${database}: ${stderr || error.message}`)) : resolveRows(JSON.parse(stdout) as T[])),
		);
	});
}

/** A port nobody listens on now (the system picks it; released before use). */
export async function freePort(): Promise<number> {
	return await new Promise((resolvePort, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolvePort(port));
		});
	});
}

export interface N8nEnv {
	bin: string;
	/** N8N_USER_FOLDER: n8n keeps its database, settings and community packages under `.n8n/` here. */
	userFolder: string;
	port: number;
	brokerPort: number;
	env: NodeJS.ProcessEnv;
}

/** Environment for one n8n user folder: sqlite, no telemetry, loopback only, own ports. */
export async function n8nEnv(bin: string, userFolder: string, port?: number, broker?: number): Promise<N8nEnv> {
	const n8nPort = port ?? (await freePort());
	const brokerPort = broker ?? (await freePort());
	const env: NodeJS.ProcessEnv = {
		...process.env,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'surplus-lines-e2e-and-demo-only',
		DB_TYPE: 'sqlite',
		N8N_PORT: String(n8nPort),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// File nodes may read only here: n8n's files folder for this user folder (the filing example
		// reads `.n8n-files/...` relative to n8n's working directory, the user folder here, as ~ is
		// for a default n8n), and the folder the e2e workflows name __E2E_FILES__.
		N8N_RESTRICT_FILE_ACCESS_TO: `${join(userFolder, EXAMPLE_FILES_DIR)};${join(userFolder, 'files')}`,
		// n8n's log at info is what a failed step shows (runs themselves are read from the database).
		N8N_LOG_LEVEL: 'info',
		NODE_OPTIONS: '',
	};
	return { bin, userFolder, port: n8nPort, brokerPort, env };
}

/** Where the examples' files go, relative to n8n's working directory (n8n's default `~/.n8n-files`). */
export const EXAMPLE_FILES_DIR = '.n8n-files';

/** Copies examples/files (the sample bordereau) into the user folder's files folder. */
export function copyExampleFiles(userFolder: string): string {
	const target = join(userFolder, EXAMPLE_FILES_DIR);
	mkdirSync(target, { recursive: true });
	cpSync(join(REPO_ROOT, 'examples', 'files'), target, { recursive: true });
	return target;
}

export function makeTempUserFolder(): string {
	return mkdtempSync(join(tmpdir(), 'sl-e2e-n8n-'));
}

/** dist/ exists and holds every node and credential package.json registers. */
export function missingDistFiles(): string[] {
	const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	return [...pkg.n8n.credentials, ...pkg.n8n.nodes].filter((f) => !existsSync(join(REPO_ROOT, f)));
}

/** `npm pack` into `folder` (only what `files` ships, as the release workflow packs): the tarball's path. */
export function packPackage(folder: string): string {
	const pack = spawnSync('npm', ['pack', '--silent', '--pack-destination', folder], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		env: { ...process.env, npm_config_ignore_scripts: 'true' },
	});
	if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
	return join(folder, pack.stdout.trim().split('\n').pop() ?? '');
}

/**
 * Packs the package with `npm pack` (so only what `files` ships goes in) and extracts it into
 * the user folder's community-nodes folder, as n8n's installer does. Returns the install path.
 */
export function installPackedPackage(userFolder: string): string {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', PACKAGE_NAME);
	const packDir = mkdtempSync(join(tmpdir(), 'sl-pack-'));
	try {
		const tarball = packPackage(packDir);
		rmSync(target, { recursive: true, force: true });
		mkdirSync(target, { recursive: true });
		const untar = spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], { encoding: 'utf8' });
		if (untar.status !== 0) throw new Error(`extracting ${tarball} failed: ${untar.stderr}`);
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
	if (existsSync(join(target, 'node_modules'))) throw new Error('the packed package must not carry node_modules');
	const version = (JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { version: string }).version;
	// n8n's installer keeps a package.json in the nodes folder listing what it installed.
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } }, null, 2),
	);
	return target;
}

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
	ms: number;
}

/** Runs one n8n CLI command to its end (bounded by timeoutMs; the process group is killed then). */
export async function runCli(n8n: N8nEnv, args: string[], timeoutMs = 120_000): Promise<CliResult> {
	const start = Date.now();
	return await new Promise((resolveRun) => {
		const child = spawn(n8n.bin, args, { env: n8n.env, cwd: n8n.userFolder, detached: true });
		track(child);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		const timer = setTimeout(() => {
			stderr += `\n[e2e] n8n ${args[0]} timed out after ${timeoutMs} ms; killed`;
			killTree(child);
		}, timeoutMs);
		child.on('close', (code) => {
			clearTimeout(timer);
			untrack(child);
			resolveRun({ code, stdout, stderr, ms: Date.now() - start });
		});
	});
}

export async function runCliOk(n8n: N8nEnv, args: string[]): Promise<CliResult> {
	const result = await runCli(n8n, args);
	if (result.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} exited ${result.code}\n${tail(result.stdout + result.stderr, 3000)}`);
	}
	return result;
}

export function tail(text: string, chars: number): string {
	return text.length > chars ? '…' + text.slice(-chars) : text;
}

// Every child started here is killed when this process ends, however it ends.
const children = new Set<ChildProcess>();
function track(child: ChildProcess): void {
	children.add(child);
}
function untrack(child: ChildProcess): void {
	children.delete(child);
}
/** Kills the child's whole process group (n8n starts a task-runner process of its own). */
export function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}
/** Stops the child's process group: SIGTERM, then SIGKILL when it is still there after 15 s. */
export async function stopTree(child: ChildProcess, exited: Promise<void>): Promise<void> {
	killTree(child);
	const killer = setTimeout(() => killTree(child, 'SIGKILL'), 15_000);
	await exited;
	clearTimeout(killer);
}
export function killAllChildren(signal: NodeJS.Signals = 'SIGTERM'): void {
	for (const child of children) killTree(child, signal);
}
process.on('exit', () => killAllChildren('SIGKILL'));

/**
 * Runs a test stage's main function: exits with its code; a crash counts as one failure in the
 * stage's summary line (`<stage>: 0 passed, 1 failed`). Ctrl-C or a kill stops n8n children too.
 */
export function runStage(stage: string, main: () => Promise<number>): void {
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.on(signal, () => {
			killAllChildren();
			process.exit(130);
		});
	}
	main().then(
		(code) => process.exit(code),
		(error: Error) => {
			console.error(`[${stage}] ${error.stack ?? error.message}`);
			console.log(`${stage}: 0 passed, 1 failed`);
			killAllChildren();
			process.exit(1);
		},
	);
}

export interface RunningN8n {
	child: ChildProcess;
	url: string;
	log: () => string;
	stop(): Promise<void>;
}

/**
 * `n8n start`; resolves once the REST API answers (the log line "Editor is now accessible"
 * comes 8-10 s after start; /healthz answers earlier, but /rest not yet).
 */
export async function startServer(n8n: N8nEnv, opts: { timeoutMs?: number; echo?: boolean } = {}): Promise<RunningN8n> {
	const child = spawn(n8n.bin, ['start'], { env: n8n.env, cwd: n8n.userFolder, detached: true });
	track(child);
	let log = '';
	const onData = (d: Buffer): void => {
		log += d.toString();
		if (opts.echo) process.stdout.write(d);
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);
	const url = `http://127.0.0.1:${n8n.port}`;
	const exited = new Promise<void>((resolveExit) => child.on('close', () => resolveExit()));
	const deadline = Date.now() + (opts.timeoutMs ?? 180_000);
	for (;;) {
		if (child.exitCode !== null) throw new Error(`n8n start exited ${child.exitCode}\n${tail(log, 3000)}`);
		if (/Editor is now accessible/.test(log)) {
			try {
				const res = await fetch(`${url}/rest/settings`);
				if (res.status < 500) break;
			} catch {
				// not yet
			}
		}
		if (Date.now() > deadline) {
			killTree(child);
			throw new Error(`n8n start did not answer within ${opts.timeoutMs ?? 180_000} ms\n${tail(log, 3000)}`);
		}
		await sleep(250);
	}
	return {
		child,
		url,
		log: () => log,
		stop: async () => {
			await stopTree(child, exited);
			untrack(child);
		},
	};
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** A logged-in REST session (cookie) against a running n8n. */
export class RestSession {
	constructor(
		readonly url: string,
		private cookie = '',
	) {}

	/** Creates the instance owner (first start) and keeps the session cookie; logs in when it exists. */
	async ownerSetupOrLogin(owner: { email: string; password: string; firstName: string; lastName: string }): Promise<void> {
		let res = await fetch(`${this.url}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(owner),
		});
		if (!res.ok) {
			res = await fetch(`${this.url}/rest/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password }),
			});
		}
		if (!res.ok) throw new Error(`owner setup and login failed: ${res.status} ${await res.text()}`);
		const setCookie = res.headers.getSetCookie().map((c) => c.split(';')[0]);
		this.cookie = setCookie.join('; ');
		if (!this.cookie) throw new Error('n8n gave no session cookie');
	}

	async request<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
		const res = await this.send(method, path, body);
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: res.status, body: parsed as T };
	}

	/**
	 * One call; a GET that meets a dropped connection ("fetch failed", seen once under a load of 17)
	 * is asked again, up to 3 times, as it changes nothing. Other methods are sent once.
	 */
	private async send(method: string, path: string, body: unknown): Promise<Response> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.fetchOnce(method, path, body);
			} catch (error) {
				if (method !== 'GET' || attempt >= 3) throw error;
				await new Promise((resolve) => setTimeout(resolve, 1_000));
			}
		}
	}

	private async fetchOnce(method: string, path: string, body: unknown): Promise<Response> {
		return await fetch(`${this.url}${path}`, {
			method,
			headers: {
				cookie: this.cookie,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				// n8n's browser id check for REST calls from the editor
				'browser-id': 'surplus-lines-e2e',
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}
}
