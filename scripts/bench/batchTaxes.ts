/**
 * Issue 39's bench (BENCH_ONLY=taxes): 10,000 rows over 10 states and two rate periods (AL, KS,
 * MT and IA change rates on 2026-01-01 inside the sheet's dates, 2025-07 to 2026-06), 1% with a
 * wrong SL Tax, filed by Create Many on the t3 key with Bill Taxes From Preview and Sheet Tax
 * Check = Fail, against Create Many without either, the sandbox at 200 ms a reply. The baseline
 * of the check made the way it could be made before, a Preview per row, is measured on
 * BENCH_TAX_SAMPLE rows (500) and extrapolated to the sheet, said so in what it prints. Counts
 * the calls at the sandbox; checks every wrong row refused and every right row stored once with
 * its tax lines; asserts nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import { json } from '../../test/e2e/runData';
import { cpuMs, task, type BenchN8n, type BenchSandbox } from './stage';
import { invoiceNode, rows, workflow, type WorkflowJson } from './workflows';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ROWS = Math.round(10_000 * scale);
const SAMPLE = Math.round(Number(process.env.BENCH_TAX_SAMPLE ?? 500) * scale);
const RUNS = Number(process.env.BENCH_TAX_RUNS ?? 3);
const DELAY_MS = 200;
const HIGH_LIMITS = { t1: 1_000_000, t2: 1_000_000, t3: 1_000_000 };

/**
 * Row i: state i mod 10, month (i div 10) mod 12 from 2025-07, a premium with cents, the SL Tax
 * the state's rate gives (IA 0.95% in 2025, 0.925% from 2026), 12.34 too much on every 100th row.
 */
const taxRow = (prefix: string) => `(i) => {
	const STATES = [['TX', 4.85, 2], ['NY', 3.6, 2], ['CA', 3, 0], ['FL', 4.94, 2], ['IL', 3.5, 0], ['GA', 4, 2], ['AL', 6, 2], ['KS', 3, 2], ['MT', 2.75, 2], ['IA', 0, 2]];
	const [state, rate, decimals] = STATES[i % 10];
	const month = Math.floor(i / 10) % 12;
	const year = month < 6 ? 2025 : 2026;
	const date = year + '-' + String(month < 6 ? month + 7 : month - 5).padStart(2, '0') + '-01';
	const r = state === 'IA' ? (date < '2026-01-01' ? 0.95 : 0.925) : rate;
	const premium = 1000 + ((i * 7919) % 90000) / 100;
	const f = 10 ** decimals;
	const tax = Math.round(Number(((premium * r) / 100).toFixed(6)) * f) / f;
	return { policy_number: '${prefix}-' + i, insured_name: 'Insured ' + i, state_code: state, net_premium: premium, effective_date: date, expiration_date: (year + 1) + date.slice(4), fees: [{ type: 'sl_tax', amount: i % 100 === 37 ? Math.round((tax + 12.34) * 100) / 100 : tax }] };
}`;

const NODE = 'Package Create Many';
const CHECKED = { billTaxesFromPreview: true, sheetTaxCheck: 'fail' };

export function taxWorkflows(): WorkflowJson[] {
	const many = (options: IDataObject) =>
		invoiceNode(NODE, { operation: 'createMany', inputMode: 'json', invoiceJson: '={{ $json }}', options }, 't3');
	return [
		workflow('taxes-off', [[rows('Rows', ROWS, taxRow('TAX')), many({})]]),
		workflow('taxes-fail', [[rows('Rows', ROWS, taxRow('TAX')), many(CHECKED)]]),
		workflow('taxes-preview', [[rows('Rows', SAMPLE, taxRow('TAX')), invoiceNode('Package Preview', { operation: 'preview', inputMode: 'json', invoiceJson: '={{ $json }}', simplify: true, options: { sheetTaxCheck: 'fail' } }, 't3')]]),
	];
}

/** Stored TAX- rows: how many, how many twice, how many without a line beyond the sheet's SL Tax. */
function stored(sandbox: BenchSandbox) {
	const perPolicy = new Map<string, number>();
	let bare = 0;
	for (const invoice of sandbox.world.invoices.all()) {
		const policy = invoice.input.policyNumber;
		if (!policy.startsWith('TAX-')) continue;
		perPolicy.set(policy, (perPolicy.get(policy) ?? 0) + 1);
		// Every state here has a line beside sl_tax but GA and, before 2026, AL, KS, MT and IA.
		const state = invoice.input.state.code;
		const more = ['TX', 'NY', 'CA', 'FL', 'IL'].includes(state) || (['AL', 'KS', 'MT'].includes(state) && invoice.input.effectiveDate >= '2026-01-01');
		if (more && invoice.input.fees.length < 2) bare++;
	}
	return { stored: perPolicy.size, twice: [...perPolicy.values()].filter((n) => n > 1).length, bare };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function batchTaxes(n8n: BenchN8n, sandbox: BenchSandbox, flows: Record<string, WorkflowJson>) {
	console.log(`\nCreate Many with the tax check, ${ROWS} rows over 10 states, 4 of them with a rate change inside the sheet's dates, 1% wrong SL Tax (t3), ${DELAY_MS} ms added to each reply; ${RUNS} runs each, in turn`);
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
			console.log(`  run ${run + 1} ${variant.label.padEnd(46)} ${seconds(ms).padStart(8)}  CPU ${seconds(cpu).padStart(7)}  calls ${String(calls).padStart(5)}  refused by the check ${refused}, failed ${failed}${note}${hint}`);
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
	console.log('  (target: calls at most the batches + 2 per state and period + one per wrong row + the account check, about 160; time within 2x of Create Many without the check)');
}
