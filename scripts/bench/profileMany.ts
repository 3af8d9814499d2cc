/**
 * Create Many's own time per row, in n8n's engine in this process (no n8n start-up, no task
 * runner): 10,000 rows (BENCH_ROWS) with a `{{ $json }}` JSON body on a t3 key against the
 * in-process sandbox, run BENCH_RUNS times; prints each run's time and CPU time (this process:
 * the node and the sandbox; steadier than wall time on shared cores) and their medians, and the
 * calls each run made (each is the key's first run after a sandbox reset: 21 for 10,000 rows). Run it
 * under `node --cpu-prof` to see where the time goes. BENCH_OPTIONS (JSON) sets the node's
 * Options, e.g. `{"billTaxesFromPreview":true,"sheetTaxCheck":"fail"}`. Asserts nothing.
 */
import axios from 'axios';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';
import { invoiceRows } from './rows';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MODE = process.env.BENCH_MODE ?? 'json';
const OPERATION = process.env.BENCH_OPERATION ?? 'createMany'; // `create`: the same rows one create per item
const OPTIONS = JSON.parse(process.env.BENCH_OPTIONS ?? '{}') as Record<string, unknown>;

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const control = `${sandbox.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox`;
	const key = keyByName('t3').key;
	// Calls left in the key's hour (this check spends one).
	const remaining = async () =>
		Number((await axios.get(`${sandbox.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${key}` } })).headers['x-ratelimit-remaining']);
	const times: number[] = [];
	const cpuTimes: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		sandbox.reset();
		forgetRateLimits();
		await axios.post(`${control}/rate-limit`, { limits: { t3: 1_000_000 } });
		const items = invoiceRows(ROWS, `PROF${run}`);
		const before = await remaining();
		const start = process.hrtime.bigint();
		const cpuStart = process.cpuUsage();
		const { output, error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: OPERATION, options: OPTIONS, ...(MODE === 'json' ? { inputMode: 'json', invoiceJson: '={{ $json }}' } : { inputMode: MODE }) },
			credentials: { apiKey: key, baseUrl: sandbox.baseUrl },
			items,
			continueOnFail: true,
		});
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		const cpu = process.cpuUsage(cpuStart);
		const cpuMs = (cpu.user + cpu.system) / 1000;
		if (error) throw error;
		const filed = (output ?? []).filter((o) => typeof o.json.id === 'number').length;
		const calls = before - (await remaining()) - 1;
		times.push(ms);
		cpuTimes.push(cpuMs);
		console.log(`run ${run + 1}: ${ROWS} rows (${MODE}), filed ${filed}, ${calls} calls, ${ms.toFixed(0)} ms, CPU ${cpuMs.toFixed(0)} ms`);
	}
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
	console.log(`median ${median(times).toFixed(0)} ms, CPU ${median(cpuTimes).toFixed(0)} ms`);
	shutdownEngine();
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
