/**
 * A pass-through in front of the sandbox that notes every API reply (time, method, path, status),
 * so the stage can say how many calls the workers made, how many the rate limit refused, and when
 * the last one was answered. It changes nothing: requests and replies go through as they are.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { RunningSandbox } from '../sandbox';

export interface Reply {
	at: number;
	method: string;
	path: string;
	status: number;
}

export interface Meter {
	/** The sandbox's base URL through the meter (what the credentials use). */
	baseUrl: string;
	replies: Reply[];
	close(): Promise<void>;
}

export async function startMeter(sandbox: RunningSandbox): Promise<Meter> {
	const agent = new Agent({ keepAlive: true });
	const replies: Reply[] = [];
	const server = createServer((req, res) => {
		const upstream = request(
			{ host: '127.0.0.1', port: sandbox.port, method: req.method, path: req.url, headers: req.headers, agent },
			(reply) => {
				replies.push({ at: Date.now(), method: req.method ?? '', path: (req.url ?? '').split('?')[0], status: reply.statusCode ?? 0 });
				res.writeHead(reply.statusCode ?? 502, reply.headers);
				reply.pipe(res);
			},
		);
		// A reply the sandbox drops (a fault) is dropped here too.
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', () => resolveListen()));
	const { port } = server.address() as AddressInfo;
	const path = new URL(sandbox.baseUrl).pathname;
	return {
		baseUrl: `http://127.0.0.1:${port}${path}`,
		replies,
		close: () =>
			new Promise<void>((resolveClose) => {
				server.close(() => resolveClose());
				server.closeAllConnections();
				agent.destroy();
			}),
	};
}
