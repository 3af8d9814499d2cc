/**
 * Faults benchmark: 500 rows filed with Create (one call per row) through the Invoice node in
 * n8n's engine against the in-process sandbox, once without faults (the baseline, same run) and
 * once with seeded faults on /invoices (lost replies after the commit 0.2, 500s 0.15). On a
 * new-features key (t2) and a legacy key (legacy-t2). Prints calls (from the sandbox's
 * X-RateLimit-Remaining), wall time, their ratios, and the duplicates found in the store.
 * Backoff waits are not slept (the transport's clock is swapped); their total is printed apart.
 * Asserts nothing.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { clock } from '../../nodes/shared/timing';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';
import { invoiceRows } from './rows';

const ROWS = Number(process.env.BENCH_ROWS ?? 500);
const LIMIT = 1_000_000;
const FAULTS = { lose_reply_after_commit: 0.2, error_500: 0.15, seed: 2026, path_prefix: '/invoices' };

let waitedMs = 0;
clock.sleep = async (ms: number) => {
	waitedMs += ms;
};

const rows = invoiceRows(ROWS, 'FAULT');

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const control = `${sandbox.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox`;

	async function stored(key: string): Promise<IDataObject[]> {
		const all: IDataObject[] = [];
		for (let page = 1; ; page++) {
			const res = await axios.get(`${sandbox.baseUrl}/invoices`, {
				params: { page, per_page: 100 },
				headers: { Authorization: `Bearer ${key}` },
			});
			const list = res.data.data.invoices as IDataObject[];
			all.push(...list);
			if (list.length < 100) return all;
		}
	}
	const remaining = async (key: string) =>
		Number((await axios.get(`${sandbox.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${key}` } })).headers['x-ratelimit-remaining']);

	async function measure(label: string, keyName: string, faults: object) {
		sandbox.reset();
		forgetRateLimits();
		waitedMs = 0;
		await axios.post(`${control}/rate-limit`, { limits: { t2: LIMIT, t3: LIMIT } });
		const key = keyByName(keyName).key;
		const before = await remaining(key);
		await axios.post(`${control}/faults`, faults);
		const start = process.hrtime.bigint();
		const { output, error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'create', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}', simplify: true },
			credentials: { apiKey: key, baseUrl: sandbox.baseUrl },
			items: rows,
			continueOnFail: true,
		});
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		if (error) throw error;
		await axios.post(`${control}/faults`, {});
		const calls = before - (await remaining(key)) - 1;
		const perPolicy = new Map<string, number>();
		for (const inv of await stored(key)) perPolicy.set(String(inv.policy_number), (perPolicy.get(String(inv.policy_number)) ?? 0) + 1);
		const duplicates = [...perPolicy.values()].filter((n) => n > 1).length;
		const filed = output?.filter((o) => typeof o.json.id === 'number').length ?? 0;
		const unknown = (output?.length ?? 0) - filed;
		console.log(
			`${label.padEnd(30)} filed ${String(filed).padStart(3)}/${ROWS}  unknown ${String(unknown).padStart(2)}  stored ${String(perPolicy.size).padStart(3)}  calls ${String(calls).padStart(5)}  ${ms.toFixed(0).padStart(6)} ms  backoff waited ${(waitedMs / 1000).toFixed(1).padStart(6)} s  duplicates ${duplicates}`,
		);
		return { calls, ms, duplicates };
	}

	console.log(`Faults benchmark: ${ROWS} rows, Create one per row, faults ${JSON.stringify(FAULTS)}`);
	await measure('warm-up (t2, discarded)', 't2', {});
	let duplicates = 0;
	for (const keyName of ['t2', 'legacy-t2']) {
		const baseline = await measure(`${keyName} baseline, no faults`, keyName, {});
		const faulted = await measure(`${keyName} under faults`, keyName, FAULTS);
		duplicates += baseline.duplicates + faulted.duplicates;
		console.log(
			`${keyName}: ratio calls faults/baseline ${(faulted.calls / baseline.calls).toFixed(3)}   ratio time faults/baseline ${(faulted.ms / baseline.ms).toFixed(2)}`,
		);
	}
	console.log(`duplicates found: ${duplicates}`);
	shutdownEngine();
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
