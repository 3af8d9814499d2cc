/**
 * What the demo keeps across its starts: the user's sheets and results, and the workflows and
 * credentials they made or changed. The demo resets n8n's database on every start (the sandbox
 * starts again empty, and a kept trigger state would mail "moved from success to new"), so before
 * the reset their workflows and credentials are exported from the last run's database, and
 * imported again after it.
 *
 * - The files folder (`DEMO_FILES`, default `<repo>/demo-files`, a visible folder the banner
 *   names) is never emptied: the samples are copied in again, the examples read and write there
 *   (their `.n8n-files/` paths point at it), so sheets and results workbooks stay.
 * - Workflows: every workflow of the last run, except an example the user did not change (known
 *   by the hash of its nodes and connections as the demo loaded it), is written to
 *   `<files>/workflows/<id>.json` and imported again (an edited example replaces the shipped one).
 * - Credentials: every credential but the demo's own, in `<demo dir>/kept-credentials.json`
 *   (encrypted with the demo's key, as n8n's database holds them).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runCli, type N8nEnv } from './n8n';

/** The hash of what a workflow does (its nodes and connections), to tell an example the user changed. */
export function workflowHash(workflow: { nodes?: unknown; connections?: unknown }): string {
	return createHash('sha256')
		.update(JSON.stringify({ nodes: workflow.nodes ?? [], connections: workflow.connections ?? {} }))
		.digest('hex');
}

/** The examples' `.n8n-files/` paths pointed at the demo's files folder. */
export function pointAtFiles(workflowJson: string, filesDir: string): string {
	return workflowJson.split('.n8n-files/').join(`${filesDir.replace(/\\/g, '/')}/`);
}

const LOADED = 'examples-as-loaded.json';
const KEPT_CREDENTIALS = 'kept-credentials.json';

export interface Kept {
	/** Workflow files to import after the examples (by id: an edited example replaces its file). */
	workflows: Array<{ id: string; name: string; file: string; active: boolean }>;
	credentials: unknown[];
	/** Said in the banner when the last run's database could not be read. */
	problem?: string;
}

interface Exported {
	id: string;
	name: string;
	active?: boolean;
	nodes?: unknown;
	connections?: unknown;
	staticData?: unknown;
}

/**
 * Reads the last run's database (before the reset) into the files folder and the demo folder.
 * Returns what to import again. A first start (no database) keeps what an earlier export left.
 */
export async function saveUserWork(
	n8n: N8nEnv,
	filesDir: string,
	demoCredentialIds: string[],
	say: (line: string) => void,
): Promise<Kept> {
	const workflowsDir = join(filesDir, 'workflows');
	const database = join(n8n.userFolder, '.n8n', 'database.sqlite');
	let problem: string | undefined;
	if (existsSync(database)) {
		say('[demo] saving your workflows and credentials from the last run before n8n is reset (n8n export, about 20-60 s)');
		const out = mkdtempSync(join(n8n.userFolder, 'export-'));
		try {
			const workflows = await runCli(n8n, ['export:workflow', '--all', '--separate', `--output=${join(out, 'w')}`], 300_000);
			const credentials = await runCli(n8n, ['export:credentials', '--all', '--separate', `--output=${join(out, 'c')}`], 300_000);
			if (workflows.code !== 0 || credentials.code !== 0) {
				problem = `the last run's workflows could not be exported (n8n export exited ${workflows.code}/${credentials.code}); the copies in ${workflowsDir} from an earlier start are imported instead`;
			} else {
				keepWorkflows(join(out, 'w'), workflowsDir, readLoaded(n8n.userFolder));
				keepCredentials(join(out, 'c'), join(n8n.userFolder, KEPT_CREDENTIALS), demoCredentialIds);
			}
		} finally {
			rmSync(out, { recursive: true, force: true });
		}
	}
	return { ...readKept(workflowsDir, join(n8n.userFolder, KEPT_CREDENTIALS)), problem };
}

function readLoaded(userFolder: string): Record<string, string> {
	try {
		return JSON.parse(readFileSync(join(userFolder, LOADED), 'utf8')) as Record<string, string>;
	} catch {
		return {};
	}
}

/**
 * Records each example as n8n holds it after this start's import (read back from n8n, which may
 * add to a node as it imports it), to know next time which ones the user changed.
 */
export function recordLoaded(userFolder: string, examples: Array<{ id: string; nodes: unknown; connections: unknown }>): void {
	const hashes = Object.fromEntries(examples.map((workflow) => [workflow.id, workflowHash(workflow)]));
	writeFileSync(join(userFolder, LOADED), JSON.stringify(hashes, null, 2));
}

function jsonFiles(dir: string): Array<{ name: string; data: unknown }> {
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map((name) => ({ name, data: JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown }));
}

export function keepWorkflows(exportDir: string, workflowsDir: string, loaded: Record<string, string>): void {
	rmSync(workflowsDir, { recursive: true, force: true });
	mkdirSync(workflowsDir, { recursive: true });
	for (const { data } of jsonFiles(exportDir)) {
		const workflow = data as Exported;
		// An example as the demo loaded it comes back from examples/ (perhaps newer) on its own.
		if (loaded[workflow.id] !== undefined && loaded[workflow.id] === workflowHash(workflow)) continue;
		// The triggers' memory belongs to the sandbox that is gone.
		writeFileSync(join(workflowsDir, `${workflow.id}.json`), JSON.stringify({ ...workflow, staticData: null }, null, 2));
	}
}

function keepCredentials(exportDir: string, file: string, demoIds: string[]): void {
	const credentials = jsonFiles(exportDir)
		.map(({ data }) => data as { id: string })
		.filter((credential) => !demoIds.includes(credential.id));
	writeFileSync(file, JSON.stringify(credentials, null, 2));
}

function readKept(workflowsDir: string, credentialsFile: string): Omit<Kept, 'problem'> {
	const workflows = jsonFiles(workflowsDir).map(({ name, data }) => {
		const workflow = data as Exported;
		return { id: workflow.id, name: workflow.name, file: join(workflowsDir, name), active: workflow.active === true };
	});
	let credentials: unknown[] = [];
	try {
		credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as unknown[];
	} catch {
		credentials = [];
	}
	return { workflows, credentials };
}
