/**
 * Invoice Get's own time per item, in n8n's engine in this process (no n8n start-up): BENCH_ITEMS
 * (200) Gets on the t2 key against the in-process sandbox, BENCH_RUNS (10) times after a warm-up
 * run; prints each run's time and CPU time (this process: the node and the sandbox) and the
 * medians per item. Run it under `node --cpu-prof` to see where the time per item goes. BENCH_DELAY
 * adds that many ms to each sandbox reply. Asserts nothing.
 */
import axios from 'axios';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const DELAY = Number(process.env.BENCH_DELAY ?? 0);

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const control = `${sandbox.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox`;
	const key = keyByName('t3').key;
	await axios.post(`${control}/rate-limit`, { limits: { t2: 1_000_000, t3: 1_000_000 } });
	const invoices = Array.from({ length: ITEMS }, (_, i) => ({
		policy_number: `GET-${i}`, insured_name: `Insured ${i}`, state_code: 'TX', net_premium: 1000 + i,
		effective_date: '2026-01-01', expiration_date: '2027-01-01',
	}));
	for (let start = 0; start < ITEMS; start += 500)
		await axios.post(`${sandbox.baseUrl}/invoices/batch`, { invoices: invoices.slice(start, start + 500) }, { headers: { Authorization: `Bearer ${key}` } });
	if (DELAY) await axios.post(`${control}/faults`, { delay_ms: DELAY });
	const items = Array.from({ length: ITEMS }, (_, i) => ({ id: 1001 + i }));
	const times: number[] = [];
	const cpuTimes: number[] = [];
	for (let run = 0; run <= RUNS; run++) {
		const start = process.hrtime.bigint();
		const cpuStart = process.cpuUsage();
		const { output, error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'get', invoiceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			credentials: { apiKey: keyByName('t2').key, baseUrl: sandbox.baseUrl },
			items,
			continueOnFail: true,
		});
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		const cpu = process.cpuUsage(cpuStart);
		const cpuMs = (cpu.user + cpu.system) / 1000;
		if (error) throw error;
		const read = (output ?? []).filter((o) => o.json.id !== undefined).length;
		if (run === 0) continue;
		times.push(ms);
		cpuTimes.push(cpuMs);
		console.log(`run ${run}: ${read} of ${ITEMS} read, ${ms.toFixed(0)} ms, CPU ${cpuMs.toFixed(0)} ms`);
	}
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
	console.log(`median ${median(times).toFixed(0)} ms (${(median(times) / ITEMS).toFixed(2)} ms an item), CPU ${median(cpuTimes).toFixed(0)} ms (${(median(cpuTimes) / ITEMS).toFixed(2)} ms an item; the sandbox's share included)`);
	shutdownEngine();
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
