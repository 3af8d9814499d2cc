/** What a scenario gets: the running sandbox, its keys, and calls to its API and control endpoints. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../sandbox';
import type { RestSession } from './n8n';
import type { Mailbox } from './mailbox';
import type { SlackStandIn } from './slack';
import type { Run } from './runData';

export interface Context {
	sandbox: RunningSandbox;
	/** http://127.0.0.1:<port> */
	origin: string;
	keys: { t2: string; t1: string };
	/** N8N_USER_FOLDER of the n8n under test (binary data is stored under it). */
	userFolder: string;
	/** The local SMTP server the examples' Send Email node delivers to. */
	mailbox: Mailbox;
	/** The local stand-in of Slack's Web API the Slack example posts to (through the local HTTPS proxy); the e2e run has one. */
	slack?: SlackStandIn;
}

/** For `restart` scenarios: the running `n8n start`, which the scenario may stop and start again. */
export interface ServerControl {
	/** A logged-in session with the n8n running now (a new one after `start()`). */
	readonly session: RestSession;
	/** The n8n binary (its install folder holds n8n's own modules, e.g. sqlite3). */
	bin: string;
	/** n8n's sqlite database file. */
	database: string;
	stop(): Promise<void>;
	start(): Promise<void>;
}

export interface Scenario {
	/** Short name, used in the report and by E2E_ONLY. */
	name: string;
	/** File in test/e2e/workflows, or in examples/ when `example` is set (its `id` is fixed). */
	workflow: string;
	/** The workflow is one of the user-facing examples (examples/), run as shipped. */
	example?: boolean;
	/**
	 * `cli` (default): `n8n execute`; `server`: a manual run in `n8n start` (polling triggers);
	 * `active`: the workflow is activated in `n8n start` and its scheduled polls are collected.
	 */
	via?: 'cli' | 'server' | 'active' | 'restart';
	/** For `active`: what changes in the service once the workflow is active, and when enough runs came. */
	active?: { afterActivation(ctx: Context): Promise<void>; until(runs: Run[]): boolean; quietMs: number; timeoutMs: number };
	/** For `restart`: drives the server itself (activate, stop, start again) and returns the runs to check. */
	restart?(ctx: Context, n8n: ServerControl): Promise<Run[]>;
	/**
	 * Also run by the compatibility stage on the oldest supported n8n (2.8.4: `npm test`'s
	 * "compat" stage, or `N8N_TARGET=oldest E2E_SET=compat bash scripts/e2e.sh`). Every scenario
	 * runs on the current n8n; set this on the core ones, whose behaviour users on older n8n rely on.
	 */
	compat?: true;
	/** The oldest n8n [major, minor] the scenario can run on; on an older one it is reported as skipped. */
	minN8n?: [number, number];
	/** For `restart`: n8n settings (environment) this scenario's `n8n start` runs with. */
	serverEnv?: Record<string, string>;
	/** The run is expected to end in an error (exit code 1 from `n8n execute`). */
	expectRunError?: boolean;
	/** Runs after the sandbox is reset, before the workflow. */
	before?(ctx: Context): Promise<void>;
	/** For `active` scenarios `run` is the first execution; `runs` holds all of them. */
	check(run: Run, ctx: Context, runs: Run[]): Promise<void> | void;
	/** For `cli`: runs the workflow its own way (several runs, a run killed part-way); default one run. */
	execute?(cli: CliRunner, ctx: Context): Promise<Run[]>;
	/** Runs after the workflow, whatever happened (e.g. stop a timer started in `before`). */
	after?(ctx: Context): void;
}

/** How a `cli` scenario may run its workflow. */
export interface CliRunner {
	/** `n8n execute` to its end; the run it printed. */
	run(): Promise<Run>;
	/** `n8n execute`, killed with SIGKILL once `shouldKill` (asked every few ms) says so; false if it ended first. */
	runUntilKilled(shouldKill: () => Promise<boolean>): Promise<boolean>;
	/** `n8n import:credentials`: replaces the credentials of the same ids (a user editing one). */
	importCredentials(credentials: IDataObject[]): Promise<void>;
}

/** A call to the sandbox's service API with a key, as a user's other systems would make it. */
export async function api(ctx: Context, method: string, path: string, body?: unknown, key = ctx.keys.t2): Promise<{ status: number; data: IDataObject; error?: IDataObject }> {
	const res = await fetch(`${ctx.sandbox.baseUrl}${path}`, {
		method,
		headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const envelope = (res.status === 204 ? {} : await res.json()) as { data?: IDataObject; error?: IDataObject };
	return { status: res.status, data: envelope.data ?? {}, error: envelope.error };
}

/** A call to the sandbox's control endpoints (move statuses and fetches along). */
export async function control(ctx: Context, path: string, body: unknown = {}): Promise<IDataObject> {
	const res = await fetch(`${ctx.origin}/_sandbox${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const envelope = (await res.json()) as { data?: IDataObject; error?: IDataObject };
	if (!res.ok) throw new Error(`sandbox control ${path}: ${res.status} ${JSON.stringify(envelope.error)}`);
	return envelope.data ?? {};
}

/** The bytes n8n stored for a binary output (filesystem mode: `<user folder>/.n8n/storage/<id>`). */
export function storedBinary(ctx: Context, meta: { id?: string; data?: string }): Buffer {
	if (meta.id?.startsWith('filesystem-v2:')) {
		return readFileSync(join(ctx.userFolder, '.n8n', 'storage', meta.id.slice('filesystem-v2:'.length)));
	}
	return Buffer.from(meta.data ?? '', 'base64');
}

/** A valid invoice body for the sandbox (TX, new policy). */
export function invoiceBody(overrides: IDataObject = {}): IDataObject {
	return {
		policy_number: 'E2E-POL-1',
		insured_name: 'Acme Roofing LLC',
		state_code: 'TX',
		net_premium: 10000,
		effective_date: '2026-01-01',
		expiration_date: '2027-01-01',
		type_code: 'NEW',
		...overrides,
	};
}
