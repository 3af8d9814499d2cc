/**
 * The look before filing in n8n's engine in this process: an account holding BENCH_BOOK invoices
 * (20,000; seeded with the sandbox's /_sandbox/seed), then BENCH_ROWS (300) rows on new policies
 * filed by BENCH_OP (create: per item on t2; createMany: batches on t3), BENCH_DELAY ms (200) added
 * to each reply, BENCH_RUNS (3) times after a sandbox reset each. Prints each run's time, CPU time
 * (this process: the node and the sandbox), the calls by kind counted at the sandbox, and the run's
 * own sentence on what the look cost. Run it under `node --cpu-prof` to see where the time goes.
 * Asserts nothing.
 */
import axios from 'axios';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';
import { invoiceRows } from './rows';

const BOOK = Number(process.env.BENCH_BOOK ?? 20_000);
const ROWS = Number(process.env.BENCH_ROWS ?? 300);
const OP = process.env.BENCH_OP ?? 'create';
const DELAY = Number(process.env.BENCH_DELAY ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const control = `${sandbox.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox`;
	const keyName = OP === 'create' ? 't2' : 't3';
	const key = keyByName(keyName).key;
	const remaining = async () =>
		Number((await axios.get(`${sandbox.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${key}` } })).headers['x-ratelimit-remaining']);
	for (let run = 0; run < RUNS; run++) {
		sandbox.reset();
		forgetRateLimits();
		await axios.post(`${control}/rate-limit`, { limits: { t2: 1_000_000, t3: 1_000_000 } });
		const seedStart = Date.now();
		if (BOOK) await axios.post(`${control}/seed`, { count: BOOK, key: keyName });
		const seeded = Date.now() - seedStart;
		if (DELAY) await axios.post(`${control}/faults`, { delay_ms: DELAY });
		const before = await remaining();
		const start = process.hrtime.bigint();
		const cpuStart = process.cpuUsage();
		const { output, error, run: executed } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: OP, inputMode: 'json', invoiceJson: '={{ $json }}', options: {} },
			credentials: { apiKey: key, baseUrl: sandbox.baseUrl },
			items: invoiceRows(ROWS, `LOOK${run}`),
			continueOnFail: true,
		});
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		const cpu = process.cpuUsage(cpuStart);
		if (error) throw error;
		const filed = (output ?? []).filter((o) => o.json.outcome === 'filed').length;
		const calls = before - (await remaining()) - 1;
		const hints = Object.values(executed.data.resultData.runData).flatMap((r) => (r[0].hints ?? []) as Array<{ message: string }>);
		console.log(`run ${run + 1}: ${OP} ${ROWS} rows on an account of ${BOOK} (seeded in ${seeded} ms), filed ${filed}, ${calls} calls, ${ms.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`);
		for (const hint of hints) if (hint.message.startsWith('The look')) console.log(`  ${hint.message}`);
	}
	shutdownEngine();
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
