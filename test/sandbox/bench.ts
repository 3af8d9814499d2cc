// Throughput of the sandbox on this machine: GET /auth/me and POST /invoices/preview over loopback.
// Run: npx tsc -p test/sandbox/tsconfig.json && node .cache/sandbox/test/sandbox/bench.js
// Client and server share one process, so the figures are a floor for the server alone.
import { Agent, request } from 'node:http';
import { keyByName, startSandbox } from './index';

const COUNT = Number(process.env.BENCH_COUNT ?? 4000);
const CONCURRENCY = 16;

function call(agent: Agent, url: URL, method: string, headers: Record<string, string>, body?: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = request(url, { method, agent, headers }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end(body);
	});
}

async function measure(label: string, send: () => Promise<number>): Promise<void> {
	let next = 0;
	let failures = 0;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < COUNT) {
				next += 1;
				if ((await send()) !== 200) failures += 1;
			}
		}),
	);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	console.log(`${label.padEnd(26)} ${COUNT} requests in ${seconds.toFixed(2)} s = ${Math.round(COUNT / seconds)} req/s (non-200: ${failures})`);
}

async function main(): Promise<void> {
	const sb = await startSandbox({ port: 0 });
	const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
	const auth = { Authorization: `Bearer ${keyByName('t3').key}`, 'Content-Type': 'application/json' };
	const previewBody = JSON.stringify({
		policy_number: 'BENCH-1',
		insured_name: 'Bench Co',
		state_code: 'TX',
		net_premium: 10000,
		effective_date: '2026-03-01',
		expiration_date: '2027-03-01',
		fees: [{ type: 'policy_fee_company', amount: 150 }],
		coverages: [{ code: 'GL', amount: 10000 }],
	});
	// The t3 limit (5000/h) would stop the run; the bench measures throughput, not the limiter.
	await call(agent, new URL(`${sb.baseUrl.replace('/api/v1', '')}/_sandbox/rate-limit`), 'POST', { 'Content-Type': 'application/json' }, JSON.stringify({ limits: { t3: 1_000_000 } }));
	console.log(`sandbox bench: ${COUNT} requests each, concurrency ${CONCURRENCY}, keep-alive, Node ${process.version}`);
	await measure('GET /auth/me', () => call(agent, new URL(`${sb.baseUrl}/auth/me`), 'GET', auth));
	await measure('POST /invoices/preview', () => call(agent, new URL(`${sb.baseUrl}/invoices/preview`), 'POST', auth, previewBody));
	agent.destroy();
	await sb.close();
}

void main();
