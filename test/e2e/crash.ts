/**
 * A crash part-way through a run: `n8n execute` is killed with SIGKILL (no shutdown, no saved
 * execution) at a moment the test chooses, e.g. once the sandbox holds some of the invoices.
 */
import { spawn } from 'node:child_process';

import type { N8nEnv } from './n8n';

const POLL_MS = 10;
const LIMIT_MS = 180_000;

/** Runs the workflow and kills n8n's process group once `shouldKill` says so; false if the run ended first. */
export async function executeUntilKilled(n8n: N8nEnv, id: string, shouldKill: () => Promise<boolean>): Promise<boolean> {
	const child = spawn(n8n.bin, ['execute', `--id=${id}`], { env: n8n.env, cwd: n8n.userFolder, detached: true, stdio: 'ignore' });
	const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
	let running = true;
	void ended.then(() => (running = false));
	const kill = () => {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// already gone
		}
	};
	const start = Date.now();
	try {
		while (running && Date.now() - start < LIMIT_MS) {
			if (await shouldKill()) {
				if (!running) return false;
				kill();
				await ended;
				return true;
			}
			await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		}
		return false;
	} finally {
		if (running) kill();
		await ended;
	}
}
