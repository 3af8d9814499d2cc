/**
 * Reconcile Sheet at month-end scale, in n8n's engine in this process against the in-process
 * sandbox: 10,000 answers on 4,000 policies (BENCH_SCALE multiplies both): 9,000 rows filed as
 * the sheet says (filed with the package's mark), 500 filed with one field different (the
 * premium), 400 not filed, and 100 invoices on the sheet's policies that the sheet lacks. Seeds
 * with a t3 key's batches, reconciles with the t2 key of the same account (its own hour, Budget
 * Share 50 %: 500 calls), and prints the calls (counted at the sandbox), time, memory and each
 * answer's count against the truth; then Correct Filings sends the 500 corrections (one Update
 * each) and Reconcile runs again. Asserts nothing; exits 1 when an answer or a correction is wrong.
 * Run: npx --no-install tsc -p scripts/bench/tsconfig.json && node .cache/bench/scripts/bench/reconcile.js
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { derivedMark } from '../../nodes/filing/mark';
import { canonicalInvoice } from '../../nodes/filing/canonical';
import { runNode, shutdownEngine } from '../../test/harness/engine';
import { keyByName, startSandbox } from '../../test/sandbox';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const POLICIES = Math.round(4_000 * SCALE);
const FILED = Math.round(9_000 * SCALE);
const DIFFERENT = Math.round(500 * SCALE);
const NOT_FILED = Math.round(400 * SCALE);
const EXTRA = Math.round(100 * SCALE);
const ROWS = FILED + DIFFERENT + NOT_FILED;

type Truth = 'filed as the sheet says' | 'filed differently' | 'not filed';

/** Row i: its policy (rows spread over the policies), its transaction on that policy, and what it is. */
function sheet(): Array<{ body: IDataObject; truth: Truth }> {
	const nth = new Map<number, number>();
	return Array.from({ length: ROWS }, (_, i) => {
		const policy = i % POLICIES;
		const k = nth.get(policy) ?? 0;
		nth.set(policy, k + 1);
		const body: IDataObject = {
			policy_number: `REC-${policy}`,
			insured_name: `Insured ${policy}`,
			state_code: 'TX',
			type_code: k === 0 ? 'NEW' : 'ENDORSEMENT',
			effective_date: `2026-${String(1 + k).padStart(2, '0')}-01`,
			expiration_date: '2027-01-01',
			net_premium: k === 0 ? 1000 + (policy % 97) : 50 + k,
		};
		// Each answer spread over the sheet: every 20th row differs, every 25th is missing.
		const truth: Truth = i % 20 === 7 && i < DIFFERENT * 20 ? 'filed differently' : i % 25 === 3 && i < NOT_FILED * 25 ? 'not filed' : 'filed as the sheet says';
		return { body, truth };
	});
}

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const control = `${sandbox.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox`;
	const seeder = axios.create({ baseURL: sandbox.baseUrl, headers: { Authorization: `Bearer ${keyByName('t3').key}` } });
	const key = keyByName('t2').key;
	await axios.post(`${control}/rate-limit`, { limits: { t3: 1_000_000 } });
	const rows = sheet();
	const counts = { filed: 0, different: 0, notFiled: 0 };
	for (const r of rows) {
		if (r.truth === 'filed as the sheet says') counts.filed++;
		else if (r.truth === 'filed differently') counts.different++;
		else counts.notFiled++;
	}
	// What the package files: each row with its mark; a differing one with another premium.
	const filings = rows
		.filter((r) => r.truth !== 'not filed')
		.map((r) => {
			const mark = derivedMark(canonicalInvoice(r.body));
			const premium = Number(r.body.net_premium) + (r.truth === 'filed differently' ? 25 : 0);
			return { ...r.body, net_premium: premium, invoice_number: mark };
		});
	const extras = Array.from({ length: EXTRA }, (_, i) => ({
		policy_number: `REC-${(i * 37) % POLICIES}`,
		insured_name: 'Not on the sheet',
		state_code: 'TX',
		type_code: 'CANCELLATION',
		effective_date: '2026-12-15',
		expiration_date: '2027-01-01',
		net_premium: -10,
		invoice_number: `HAND-${i}`,
	}));
	const all = [...filings, ...extras];
	const seedStart = process.hrtime.bigint();
	for (let at = 0; at < all.length; at += 500) {
		const res = await seeder.post('/invoices/batch', { invoices: all.slice(at, at + 500) });
		const failed = (res.data.data?.failed as number | undefined) ?? -1;
		if (res.status !== 200 || failed !== 0) throw new Error(`seed batch at ${at}: ${res.status} ${JSON.stringify(res.data).slice(0, 400)}`);
	}
	const seedSeconds = Number(process.hrtime.bigint() - seedStart) / 1e9;
	console.log(`reconcile bench (engine, in-process sandbox), scale ${SCALE}: ${ROWS} rows on ${POLICIES} policies (${counts.filed} filed as the sheet says, ${counts.different} with the premium different, ${counts.notFiled} not filed) + ${EXTRA} invoices the sheet lacks; ${all.length} invoices seeded in ${seedSeconds.toFixed(1)} s`);

	const remaining = async () => Number((await axios.get(`${sandbox.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${key}` } })).headers['x-ratelimit-remaining']);
	const before = await remaining();
	global.gc?.();
	const heapBefore = process.memoryUsage().heapUsed;
	let peak = heapBefore;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
	const start = process.hrtime.bigint();
	const cpuStart = process.cpuUsage();
	const { output, error } = await runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', operation: 'reconcile', inputMode: 'json', invoiceJson: '={{ $json }}' },
		credentials: { apiKey: key, baseUrl: sandbox.baseUrl },
		items: rows.map((r) => r.body),
		continueOnFail: true,
	});
	const ms = Number(process.hrtime.bigint() - start) / 1e6;
	const cpu = process.cpuUsage(cpuStart);
	clearInterval(sampler);
	peak = Math.max(peak, process.memoryUsage().heapUsed);
	if (error) throw error;
	const calls = before - (await remaining()) - 1;
	const items = output ?? [];
	let wrong = 0;
	const got: Record<string, number> = {};
	items.forEach((item, i) => {
		const answer = String(item.json.answer);
		got[answer] = (got[answer] ?? 0) + 1;
		if (i < ROWS && answer !== rows[i].truth) wrong++;
	});
	const extraFound = items.slice(ROWS).filter((o) => String(o.json.invoice_number).startsWith('HAND-')).length;
	const pages = Math.ceil(all.length / 100);
	console.log(`answers: ${JSON.stringify(got)}`);
	console.log(`truth:   {"filed as the sheet says":${counts.filed},"filed differently":${counts.different},"not filed":${counts.notFiled},"on the service, not on the sheet":${EXTRA}}`);
	console.log(`rows answered wrong: ${wrong}; invoices not on the sheet found: ${extraFound} of ${EXTRA}`);
	console.log(`calls: ${calls} (target: ${pages} pages of 100 + 1 account check = ${pages + 1}; counted at the sandbox)`);
	console.log(`time: ${ms.toFixed(0)} ms wall, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; heap: ${(heapBefore / 2 ** 20).toFixed(0)} MB before, ${(peak / 2 ** 20).toFixed(0)} MB peak (sampled every 20 ms)`);

	// Correct Filings over the same sheet: each difference corrected with one call (an Update: the
	// seeded invoices are not accepted yet), after the same listing as Reconcile Sheet's.
	const correctBefore = await remaining();
	const correctStart = process.hrtime.bigint();
	const corrected = await runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', operation: 'correctFilings', inputMode: 'json', invoiceJson: '={{ $json }}', sendCorrections: true },
		credentials: { apiKey: key, baseUrl: sandbox.baseUrl },
		items: rows.map((r) => r.body),
		continueOnFail: true,
	});
	const correctMs = Number(process.hrtime.bigint() - correctStart) / 1e6;
	if (corrected.error) throw corrected.error;
	const correctCalls = correctBefore - (await remaining()) - 1;
	const sent = (corrected.output ?? []).filter((o) => (o.json.correction as IDataObject | null)?.sent === true).length;
	console.log(`corrections: ${sent} of ${counts.different} differences sent in ${correctCalls} calls (target: ${pages + 1} to read + ${counts.different} updates = ${pages + 1 + counts.different}); ${correctMs.toFixed(0)} ms wall`);
	const again = await runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', operation: 'reconcile', inputMode: 'json', invoiceJson: '={{ $json }}' },
		credentials: { apiKey: key, baseUrl: sandbox.baseUrl },
		items: rows.map((r) => r.body),
		continueOnFail: true,
	});
	const stillDifferent = (again.output ?? []).filter((o) => o.json.answer === 'filed differently').length;
	console.log(`after the corrections: ${stillDifferent} rows filed differently`);
	shutdownEngine();
	await sandbox.close();
	if (wrong > 0 || extraFound !== EXTRA || calls > pages + 1) process.exit(1);
	if (sent !== counts.different || correctCalls > pages + 1 + counts.different || stillDifferent > 0) process.exit(1);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
