import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAutoAdvance } from './clock/advance';
import { API_BASE, createHandler } from './server';
import { World } from './world';
import type { FormsConfig } from './invoices/forms';

export { KEYS, keyByName, FEATURES, type SandboxKey, type Tier } from './keys';

export interface SandboxOptions {
	/** 0 = a free port chosen by the system; default 8787. */
	port?: number;
	/** Move invoices, filings and document fetches one step every this many seconds (0/undefined = off). */
	autoAdvanceSeconds?: number;
	/** The sandbox's clock: rate-limit windows, idempotency expiry, timestamps, link expiry. */
	now?: () => Date;
	/** Show stored invoices in the service's other forms (invoices/forms.ts); reset() comes back to it. */
	forms?: FormsConfig;
}

export interface RunningSandbox {
	/** e.g. http://127.0.0.1:8787/api/v1 */
	baseUrl: string;
	port: number;
	close(): Promise<void>;
	/** Back to the seeded state: no invoices, fresh rate-limit counters and idempotency keys, no faults. */
	reset(): void;
}

export const DEFAULT_PORT = 8787;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const world = new World(options.now ?? (() => new Date()), options.forms);
	let baseUrl = '';
	const server = createServer((req, res) => void createHandler(world, () => baseUrl)(req, res));
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? DEFAULT_PORT, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	world.origin = `http://127.0.0.1:${port}`;
	baseUrl = `${world.origin}${API_BASE}`;
	const stopAdvance = options.autoAdvanceSeconds ? startAutoAdvance(world, options.autoAdvanceSeconds) : () => undefined;
	return {
		baseUrl,
		port,
		reset: () => world.reset(),
		close: () =>
			new Promise<void>((resolve, reject) => {
				stopAdvance();
				server.close((err) => (err ? reject(err) : resolve()));
				// Keep-alive sockets from clients would otherwise hold close() open.
				server.closeAllConnections();
			}),
	};
}
