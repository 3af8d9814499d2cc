/**
 * A real loopback HTTP server that answers from a script: each request takes the next step, either
 * a reply, a dropped connection, or no reply at all ('hang': for a real client timeout). Used where
 * a test needs a true network failure (nock's replyWithError emits the error on its mock socket in
 * a way that is lost under parallel load; nock's delay does not trip the request timeout).
 */
import http from 'http';
import type { AddressInfo } from 'net';

export type Step = 'drop' | 'hang' | { status: number; body?: unknown; headers?: Record<string, string> };

export interface SeenRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export async function scriptedServer(steps: Step[]) {
	const seen: SeenRequest[] = [];
	const queue = [...steps];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			const step = queue.shift() ?? { status: 599, body: { success: false, error: { code: 'SCRIPT_EMPTY', message: 'no step left' } } };
			if (step === 'drop') {
				req.socket.destroy();
				return;
			}
			if (step === 'hang') return;
			res.writeHead(step.status, { 'Content-Type': 'application/json', ...step.headers });
			res.end(typeof step.body === 'string' ? step.body : JSON.stringify(step.body ?? {}));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/api/v1`,
		seen,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				// A 'hang' step leaves its socket open after the client gave up; close() would wait for it.
				server.closeAllConnections();
			}),
	};
}
