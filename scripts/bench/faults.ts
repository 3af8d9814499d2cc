/**
 * Faults benchmark: 500 rows filed through the Invoice node in n8n's engine against the
 * in-process sandbox, once without faults (the baseline, same run) and once with seeded faults on
 * /invoices (lost replies after the commit 0.2, 500s 0.15), then the same rows once more without
 * faults (a re-run after a crash or an unsure run). With Create (one call per row) on a
 * new-features key (t2) and a legacy key (legacy-t2), and with Create Many (batches of 500) on t3
 * and legacy-t3. Prints calls (from the sandbox's X-RateLimit-Remaining), wall time, their
 * ratios, rows sent again after an unknown outcome (sent_again), the re-run's rows not filed
 * again, and the duplicates found in the store. Backoff waits are not slept (the transport's
 * clock is swapped); their total is printed apart. Asserts nothing.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { clock } from '../../nodes/shared/timing';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';
import { seedWhere } from '../../test/sandbox/faults';
import { invoiceRows } from './rows';

const ROWS = Number(process.env.BENCH_ROWS ?? 500);
const LIMIT = 1_000_000;
const FAULTS = { lose_reply_after_commit: 0.2, error_500: 0.15, seed: 2026, path_prefix: '/invoices' };

/** Create Many: faults on POSTs only, seeded so that the first batch call's reply is lost. */
function batchFaults(): object {
	const settings = { ...FAULTS, methods: ['POST'] };
	return { ...settings, seed: seedWhere(settings, 'POST', '/invoices/batch', [(plan) => plan.loseReply]) };
}

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

	type Operation = 'create' | 'createMany';
	async function measure(label: string, keyName: string, operation: Operation, faults: object, fresh = true) {
		if (fresh) {
			sandbox.reset();
			forgetRateLimits();
			await axios.post(`${control}/rate-limit`, { limits: { t2: LIMIT, t3: LIMIT } });
		}
		waitedMs = 0;
		const key = keyByName(keyName).key;
		const before = await remaining(key);
		await axios.post(`${control}/faults`, faults);
		const start = process.hrtime.bigint();
		const { output, error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation, inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}', simplify: true },
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
		const outcomes = (output ?? []).map((o) => String(o.json.outcome ?? 'error'));
		const count = (outcome: string) => outcomes.filter((o) => o === outcome).length;
		const filed = (output ?? []).filter((o) => typeof o.json.id === 'number').length;
		const notFiledNow = count('replayed') + count('already_filed');
		console.log(
			`${label.padEnd(36)} filed ${String(filed).padStart(3)}/${ROWS}  errors ${String(ROWS - filed).padStart(2)}  sent_again ${String(count('sent_again')).padStart(2)}  not filed now ${String(notFiledNow).padStart(3)}  stored ${String(perPolicy.size).padStart(3)}  calls ${String(calls).padStart(5)}  ${ms.toFixed(0).padStart(6)} ms  backoff waited ${(waitedMs / 1000).toFixed(1).padStart(6)} s  duplicates ${duplicates}`,
		);
		return { calls, ms, duplicates };
	}

	console.log(`Faults benchmark: ${ROWS} rows, faults ${JSON.stringify(FAULTS)} (Create Many: on POSTs, the first batch reply lost: ${JSON.stringify(batchFaults())}); "re-run" = the same rows again without faults`);
	await measure('warm-up (t2, discarded)', 't2', 'create', {});
	let duplicates = 0;
	const runs: Array<[string, Operation]> = [
		['t2', 'create'],
		['legacy-t2', 'create'],
		['t3', 'createMany'],
		['legacy-t3', 'createMany'],
	];
	for (const [keyName, operation] of runs) {
		const name = `${operation === 'create' ? 'Create' : 'Create Many'} ${keyName}`;
		const baseline = await measure(`${name}: baseline, no faults`, keyName, operation, {});
		const faults = operation === 'create' ? FAULTS : batchFaults();
		const faulted = await measure(`${name}: under faults`, keyName, operation, faults);
		const rerun = await measure(`${name}: re-run after the faults`, keyName, operation, {}, false);
		duplicates += baseline.duplicates + faulted.duplicates + rerun.duplicates;
		console.log(
			`${name}: ratio calls faults/baseline ${(faulted.calls / baseline.calls).toFixed(3)}   ratio time faults/baseline ${(faulted.ms / baseline.ms).toFixed(2)}   re-run calls ${rerun.calls}`,
		);
	}
	// The look before filing at a service's latency: one listing per distinct policy, as many at once
	// as the key's budget allows (one after another, 500 listings at 50 ms would take 25 s).
	const slow = await measure('Create Many legacy-t3: 50 ms a reply', 'legacy-t3', 'createMany', { delay_ms: 50 });
	duplicates += slow.duplicates;
	console.log(`duplicates found: ${duplicates}`);
	shutdownEngine();
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
