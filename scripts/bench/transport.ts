/**
 * Transport benchmark: what the nodes add on top of a bare HTTP call. The baseline is measured in
 * the same run, against the same in-process sandbox: plain axios GET /auth/me. The figure printed
 * is the ratio (node in n8n's engine / baseline), per call, plus heap growth per output item.
 * Prints figures; asserts nothing.
 */
import axios from 'axios';

import { SurplusLinesReference } from '../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';

const CALLS = Number(process.env.BENCH_CALLS ?? 500);

async function timeIt(label: string, fn: () => Promise<void>): Promise<number> {
	const start = process.hrtime.bigint();
	await fn();
	const ms = Number(process.hrtime.bigint() - start) / 1e6;
	console.log(`${label.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms  ${(ms / CALLS).toFixed(2).padStart(7)} ms/call`);
	return ms;
}

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const key = keyByName('t2').key;
	await axios.post(`${sandbox.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox/rate-limit`, { limits: { t2: 1_000_000 } });
	const credentials = { apiKey: key, baseUrl: sandbox.baseUrl };
	console.log(`transport benchmark: ${CALLS} sequential GET /auth/me against the in-process sandbox`);

	// Warm both paths so JIT and module loading are not counted.
	await axios.get(`${sandbox.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${key}` } });
	await runNode({ node: new SurplusLinesReference(), parameters: { resource: 'account', operation: 'getKeyInfo' }, credentials, items: [{}] });

	const baseline = await timeIt('baseline: axios, no engine', async () => {
		for (let i = 0; i < CALLS; i++) {
			await axios.get(`${sandbox.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${key}` } });
		}
	});

	global.gc?.();
	const heapBefore = process.memoryUsage().heapUsed;
	let outputItems = 0;
	const node = await timeIt('Reference node, Get Key Info, n8n engine', async () => {
		const { output, error } = await runNode({
			node: new SurplusLinesReference(),
			parameters: { resource: 'account', operation: 'getKeyInfo' },
			credentials,
			items: Array.from({ length: CALLS }, () => ({})),
		});
		if (error) throw error;
		outputItems = output?.length ?? 0;
	});
	const heapAfter = process.memoryUsage().heapUsed;

	console.log(`output items: ${outputItems}`);
	console.log(`ratio node/baseline per call: ${(node / baseline).toFixed(2)}`);
	console.log(`heap growth: ${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MiB (${((heapAfter - heapBefore) / Math.max(outputItems, 1) / 1024).toFixed(1)} KiB per output item, run data kept by the engine included)`);
	shutdownEngine();
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
