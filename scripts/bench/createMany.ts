/**
 * Create Many benchmark: 1,001 spreadsheet rows filed through the Invoice node in n8n's engine
 * against the in-process sandbox. Baseline (same run): one create per row, as a t2 key does.
 * Measured: a t3 key's batch calls. Prints calls (from the sandbox's X-RateLimit-Remaining), time,
 * heap growth, and the ratios. Asserts nothing.
 */
import axios from 'axios';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';
import { invoiceRows } from './rows';

const ROWS = Number(process.env.BENCH_ROWS ?? 1001);
const LIMIT = 1_000_000;

const rows = invoiceRows(ROWS, 'BENCH');

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const control = `${sandbox.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox`;

	async function measure(label: string, keyName: string) {
		sandbox.reset();
		forgetRateLimits();
		await axios.post(`${control}/rate-limit`, { limits: { t2: LIMIT, t3: LIMIT } });
		const key = keyByName(keyName).key;
		global.gc?.();
		const heapBefore = process.memoryUsage().heapUsed;
		const start = process.hrtime.bigint();
		const { output, error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' },
			credentials: { apiKey: key, baseUrl: sandbox.baseUrl },
			items: rows,
		});
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
		if (error) throw error;
		const me = await axios.get(`${sandbox.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${key}` } });
		const calls = LIMIT - Number(me.headers['x-ratelimit-remaining']) - 1;
		const filed = output?.filter((o) => typeof o.json.id === 'number').length ?? 0;
		console.log(`${label.padEnd(34)} filed ${filed}/${ROWS}  calls ${String(calls).padStart(5)}  ${ms.toFixed(0).padStart(6)} ms  heap +${heapMiB.toFixed(1)} MiB`);
		return { calls, ms };
	}

	console.log(`Create Many benchmark: ${ROWS} rows against the in-process sandbox`);
	await measure('warm-up (t2, discarded)', 't2');
	const baseline = await measure('baseline: t2, one create per row', 't2');
	const batch = await measure('t3: batches of up to 500', 't3');
	console.log(`ratio calls t3/t2: ${(batch.calls / baseline.calls).toFixed(4)}   ratio time t3/t2: ${(batch.ms / baseline.ms).toFixed(2)}`);
	shutdownEngine();
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
