/**
 * What a demo start (demo.ts) checks and clears before anything starts: its ports, from the one
 * table in scripts/demo-ports.js (plain Node, so scripts/demo.sh checks them before it builds),
 * and its folder, emptied of everything an earlier start left there. Kept apart from demo.ts so
 * the README's test (test/unit/readmeClaims.test.ts) runs them without starting a demo.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { EXAMPLE_FILES_DIR, REPO_ROOT } from './n8n';

export interface DemoPort {
	variable: string;
	/** undefined: a free port, picked when the server starts. */
	fallback: number | undefined;
	what: string;
}

interface DemoPortsScript {
	DEMO_PORTS: DemoPort[];
	demoPorts(env: NodeJS.ProcessEnv): Record<string, number | undefined>;
	takenPorts(env: NodeJS.ProcessEnv): Promise<string[]>;
}

// A plain script outside the compiled tree: found from the repository root, both from the
// sources (jest) and from .cache/e2e (the demo).
export const { DEMO_PORTS, demoPorts, takenPorts } = require(join(REPO_ROOT, 'scripts', 'demo-ports.js')) as DemoPortsScript;

/** In the demo's `.n8n`: says the folder is the demo's own, so a start may empty it. */
export const DEMO_MARKER = '.surplus-lines-demo';

/**
 * Everything a demo start makes in its folder, all removed by the next start: n8n's folder (its
 * database with the triggers' state and the data table, the package), n8n's files folder (the
 * sample bordereau and the results workbook the bordereau examples write beside it), the mails,
 * the imported credentials and workflows, the proxy's CA, and the log of an n8n that exited.
 */
export const DEMO_MADE = ['.n8n', EXAMPLE_FILES_DIR, 'mailbox', 'demo-input', 'slack-ca', 'n8n.log'];

/**
 * Empties what an earlier start left in the demo's folder. A folder the user chose (DEMO_DIR) that
 * holds any of those names without the demo's marker (an n8n of their own, their own
 * `.n8n-files`) is refused, never emptied.
 */
export function startClean(userFolder: string, chosen: boolean): void {
	const n8nFolder = join(userFolder, '.n8n');
	if (chosen && !existsSync(join(n8nFolder, DEMO_MARKER))) {
		const found = DEMO_MADE.filter((name) => existsSync(join(userFolder, name)));
		if (found.length) {
			throw new Error(
				`${userFolder} holds ${found.join(', ')}, which the demo did not make: the demo empties these on every start, so set DEMO_DIR to an empty folder or leave it unset`,
			);
		}
	}
	for (const made of DEMO_MADE) rmSync(join(userFolder, made), { recursive: true, force: true });
	mkdirSync(n8nFolder, { recursive: true });
	writeFileSync(join(n8nFolder, DEMO_MARKER), 'Made by npm run demo (test/e2e/demo.ts), emptied on each start.\n');
}
