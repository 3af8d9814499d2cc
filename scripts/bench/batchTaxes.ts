/**
 * Issue 47's bench (BENCH_ONLY=taxes): the national bordereau of nationalBordereau.ts (10,000 rows
 * over the 50 states and DC, a month each from 2025-10 to 2026-09, so AL, KS, MT, IA and LA have
 * two rate periods, every calculator fee code on some rows, each row with its state's tax lines,
 * 100 with a wrong SL Tax), filed by Create Many on the t3 key with Bill Taxes From Preview and
 * Sheet Tax Check = Fail, against Create Many without either, the sandbox at 200 ms a reply.
 * BENCH_SCALE scales the rows. The baseline of the check made the way it could be made before, a
 * Preview per row, is measured on BENCH_TAX_SAMPLE rows (500) and extrapolated to the sheet, said
 * so in what it prints. Counts the calls at the sandbox and prints the run's own breakdown of them
 * by kind; checks every wrong row refused and every right row stored once with its tax lines;
 * asserts nothing. The call count alone, at full scale without n8n:
 * BENCH_SCALE=1 npx jest test/nodes-against-sandbox/batchTaxesNational.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { json } from '../../test/e2e/runData';
import { nationalRow, nationalTable } from './nationalBordereau';
import { cpuMs, peakMb, task, type BenchN8n, type BenchSandbox } from './stage';
import { invoiceNode, rows, workflow, type WorkflowJson } from './workflows';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ROWS = Math.round(10_000 * scale);
const SAMPLE = Math.round(Number(process.env.BENCH_TAX_SAMPLE ?? 500) * scale);
const RUNS = Number(process.env.BENCH_TAX_RUNS ?? 3);
const DELAY_MS = 200;
const HIGH_LIMITS = { t1: 1_000_000, t2: 1_000_000, t3: 1_000_000 };
const CHANGING = ['AL', 'KS', 'MT', 'IA', 'LA'];

/** The row function the Code node runs: nationalRow's own source with the rates table beside it. */
const taxRow = () => `(i) => (${nationalRow.toString()})(i, ${JSON.stringify(nationalTable())})`;

const NODE = 'Package Create Many';
const CHECKED = { billTaxesFromPreview: true, sheetTaxCheck: 'fail' };

export function taxWorkflows(): WorkflowJson[] {
	const many = (options: IDataObject) =>
		invoiceNode(NODE, { operation: 'createMany', inputMode: 'json', invoiceJson: '={{ $json }}', options }, 't3');
	return [
		workflow('taxes-off', [[rows('Rows', ROWS, taxRow()), many({})]]),
		workflow('taxes-fail', [[rows('Rows', ROWS, taxRow()), many(CHECKED)]]),
		workflow('taxes-preview', [[rows('Rows', SAMPLE, taxRow()), invoiceNode('Package Preview', { operation: 'preview', inputMode: 'json', invoiceJson: '={{ $json }}', simplify: true, options: { sheetTaxCheck: 'fail' } }, 't3')]]),
	];
}

/** Stored NAT- rows: how many, how many twice, how many without an SL Tax line. */
function stored(sandbox: BenchSandbox) {
	const perPolicy = new Map<string, number>();
	let bare = 0;
	for (const invoice of sandbox.world.invoices.all()) {
		const policy = invoice.input.policyNumber;
		if (!policy.startsWith('NAT-')) continue;
		perPolicy.set(policy, (perPolicy.get(policy) ?? 0) + 1);
		if (!invoice.input.fees.some((f) => f.type === 'sl_tax')) bare++;
	}
	return { stored: perPolicy.size, twice: [...perPolicy.values()].filter((n) => n > 1).length, bare };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function batchTaxes(n8n: BenchN8n, sandbox: BenchSandbox, flows: Record<string, WorkflowJson>) {
	console.log(`\nCreate Many with the tax check, the national bordereau: ${ROWS} rows over the 50 states and DC, ${CHANGING.length} of them with a rate change inside the sheet's dates, every calculator fee code, 1% wrong SL Tax (t3), ${DELAY_MS} ms added to each reply; ${RUNS} runs each, in turn`);
	const prepare = () => {
		sandbox.world.reset();
		sandbox.world.rateLimiter.configure(3600, HIGH_LIMITS);
		sandbox.world.faults.configure({ delay_ms: DELAY_MS });
		sandbox.calls.take();
	};
	const variants = [
		{ id: 'taxes-off', label: 'Create Many, no tax options', node: NODE },
		{ id: 'taxes-fail', label: 'Create Many, Bill Taxes + Tax Check = Fail', node: NODE },
		{ id: 'taxes-preview', label: `Preview per row (Fail), ${SAMPLE} rows`, node: 'Package Preview' },
	];
	const results = new Map(variants.map((v) => [v.id, { ms: [] as number[], cpu: [] as number[], calls: [] as number[] }]));
	for (let run = 0; run < RUNS; run++) {
		for (const variant of variants.map((_, k) => variants[(k + run) % variants.length])) {
			prepare();
			const execution = await n8n.execute(flows[variant.id].id);
			const calls = sandbox.calls.take().count('t3');
			const ms = task(execution.run, variant.node).executionTime ?? 0;
			const cpu = cpuMs(execution, [variant.node]);
			const memory = peakMb(execution, [variant.node]).total;
			const items = json(execution.run, variant.node);
			const refused = items.filter((i) => i.code === 'TAX_CHECK_FAILED').length;
			const failed = items.filter((i) => i.error !== undefined).length;
			const kept = stored(sandbox);
			const r = results.get(variant.id)!;
			r.ms.push(ms);
			r.cpu.push(cpu);
			r.calls.push(calls);
			const note = variant.id === 'taxes-preview' ? '' : `; stored ${kept.stored}, twice ${kept.twice}, without their tax lines ${kept.bare}`;
			const hint = variant.id === 'taxes-fail' ? `\n      ${String(((task(execution.run, variant.node) as { hints?: Array<{ message: string }> }).hints ?? []).map((h) => h.message).find((m) => m.startsWith('Taxes of')) ?? '')}` : '';
			console.log(`  run ${run + 1} ${variant.label.padEnd(46)} ${seconds(ms).padStart(8)}  CPU ${seconds(cpu).padStart(7)}  peak ${memory.toFixed(0)} MB  calls ${String(calls).padStart(5)}  refused by the check ${refused}, failed ${failed}${note}${hint}`);
		}
	}
	const [off, fail, preview] = variants.map((v) => results.get(v.id)!);
	const perRow = median(preview.ms) / SAMPLE;
	console.log(
		`  => with the check: median ${seconds(median(fail.ms))} against ${seconds(median(off.ms))} without, ratio ${(median(fail.ms) / median(off.ms)).toFixed(2)}; CPU ratio ${(median(fail.cpu) / median(off.cpu)).toFixed(2)}; calls ${median(fail.calls)} against ${median(off.calls)}`,
	);
	console.log(
		`  => Preview per row: ${SAMPLE} rows measured, median ${seconds(median(preview.ms))}, ${median(preview.calls)} calls; extrapolated to ${ROWS} rows: ${seconds(perRow * ROWS)} and ${ROWS} calls${ROWS > 5000 ? ` (more than a t3 key's 5,000 an hour: ${Math.ceil(ROWS / 5000)} hours of its limit)` : ''}`,
	);
	const budget = Math.ceil(ROWS / 500) + 2 * (51 + CHANGING.length) + 1 + Math.round(ROWS / 100) + 1;
	console.log(`  (target: calls at most the batches + 2 per state and period + one per fee code with a rule of its own in a state + one per wrong row + the account check, ${budget}; time within 2x of Create Many without the check; memory: the n8n process's peak, stage.ts)`);
}
