/**
 * Nothing filed twice, in a real n8n: a CSV read from disk with n8n's own file nodes, filed with
 * Create Many and run again on each kind of account; and n8n killed part-way through a large
 * Create Many (t3) and a per-item Create (legacy-t2), then run again. Every check reads the
 * sandbox's store through the service API.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { keyByName } from '../sandbox';
import { control, type Context, type Scenario } from './context';
import { json, type Run } from './runData';

const KINDS = ['t2', 't3', 'legacy-t2', 'legacy-t3'] as const;
type Kind = (typeof KINDS)[number];

const CREDENTIAL_IDS: Record<Kind, string> = {
	t2: 'slE2eT2Credential',
	t3: 'slE2eT3Credential',
	'legacy-t2': 'slE2eLegacyT2Credential',
	'legacy-t3': 'slE2eLegacyT3Credential',
};

const REKEY_CREDENTIAL_ID = 'slE2eRekeyCredential';
/** The credential whose key the new-key scenario replaces between runs (t2 at first). */
const rekeyCredential = (kind: Kind, baseUrl: string) => ({
	id: REKEY_CREDENTIAL_ID,
	name: 'Surplus Lines sandbox (key replaced)',
	type: 'surplusLinesApi',
	data: { apiKey: keyByName(kind).key, baseUrl },
});

/** The credentials these workflows use beyond the suite's t2 and t1 ones. */
export function refileCredentials(baseUrl: string) {
	return [
		...(['t3', 'legacy-t2', 'legacy-t3'] as const).map((kind) => ({
			id: CREDENTIAL_IDS[kind],
			name: `Surplus Lines sandbox (${kind})`,
			type: 'surplusLinesApi',
			data: { apiKey: keyByName(kind).key, baseUrl },
		})),
		rekeyCredential('t2', baseUrl),
	];
}

const NODE = 'File Invoices';
const NOT_FILED_NOW = new Set(['replayed', 'already_filed']);

/** A spreadsheet export: one transaction a row, numbers as text as a sheet gives them. */
function writeCsv(ctx: Context, file: string, rows: number, prefix: string): void {
	const dir = join(ctx.userFolder, 'files');
	mkdirSync(dir, { recursive: true });
	const lines = ['policy_number,insured_name,state_code,net_premium,effective_date,expiration_date,type_code'];
	for (let i = 0; i < rows; i++) lines.push(`${prefix}-${i},"Insured ${i}, LLC",TX,${1000 + i}.50,2026-02-01,2027-02-01,NEW`);
	writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
}

async function apiGet(ctx: Context, kind: Kind, path: string): Promise<IDataObject> {
	const res = await fetch(`${ctx.sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${keyByName(kind).key}` } });
	assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
	return ((await res.json()) as { data: IDataObject }).data;
}

/** How many invoices the account holds. */
async function storedCount(ctx: Context, kind: Kind): Promise<number> {
	const data = await apiGet(ctx, kind, '/invoices?per_page=1');
	return Number((data.pagination as IDataObject).total);
}

/** Policy number → how many invoices the account holds for it. */
async function storedPerPolicy(ctx: Context, kind: Kind): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	for (let page = 1; ; page++) {
		const data = await apiGet(ctx, kind, `/invoices?per_page=100&page=${page}`);
		const rows = data.invoices as IDataObject[];
		for (const inv of rows) counts.set(String(inv.policy_number), (counts.get(String(inv.policy_number)) ?? 0) + 1);
		if (rows.length < 100) return counts;
	}
}

async function assertEachRowOnce(ctx: Context, kind: Kind, prefix: string, rows: number): Promise<void> {
	const perPolicy = await storedPerPolicy(ctx, kind);
	assert.equal(perPolicy.size, rows, `${kind}: ${perPolicy.size} policies stored for ${rows} rows`);
	for (let i = 0; i < rows; i++) assert.equal(perPolicy.get(`${prefix}-${i}`), 1, `${kind}: row ${prefix}-${i} stored ${perPolicy.get(`${prefix}-${i}`) ?? 0} times`);
}

/** The execution hints n8n recorded for the node (its notes over the output). */
function hintsOf(run: Run, node: string): string[] {
	const tasks = run.data.resultData.runData[node] as Array<{ hints?: Array<{ message: string }> }>;
	return (tasks[tasks.length - 1].hints ?? []).map((h) => h.message);
}

const raiseLimits = (ctx: Context) => control(ctx, '/rate-limit', { limits: { t1: 1_000_000, t2: 1_000_000, t3: 1_000_000 } });

const CSV_ROWS = 25;

function csvScenario(kind: Kind): Scenario {
	const prefix = `CSV-${kind.toUpperCase()}`;
	return {
		name: `refile-csv-${kind}`,
		workflow: `refile-csv-${kind}.json`,
		compat: true,
		async before(ctx) {
			writeCsv(ctx, `refile-${kind}.csv`, CSV_ROWS, prefix);
		},
		// The same workflow twice, as anyone does who is not sure the first run worked.
		execute: async (cli) => [await cli.run(), await cli.run()],
		async check(_run, ctx, runs) {
			const [first, second] = runs;
			const firstOut = json(first, NODE);
			assert.equal(firstOut.length, CSV_ROWS);
			assert.deepEqual([...new Set(firstOut.map((o) => o.outcome))], ['filed'], `${kind}: first run files every row`);
			assert.equal(firstOut[3].net_premium, 1003.5, 'the CSV text "1003.50" is filed as a number');
			const secondOut = json(second, NODE);
			assert.equal(secondOut.length, CSV_ROWS);
			secondOut.forEach((item, i) => {
				assert.ok(NOT_FILED_NOW.has(String(item.outcome)), `${kind}: second run, row ${i}: outcome ${String(item.outcome)} (${JSON.stringify(item).slice(0, 300)})`);
				assert.equal(item.id, firstOut[i].id, `${kind}: row ${i} is the invoice the first run filed`);
			});
			// Every account looks first: a key alone replays for 24 hours only.
			assert.ok(secondOut.every((o) => o.outcome === 'already_filed'), `${kind}: second run items are already_filed`);
			const hint = hintsOf(second, NODE).find((m) => /^Of \d+ rows: .*already filed/.test(m));
			assert.ok(hint, `${kind}: the second run has a hint saying the rows were already filed (hints: ${JSON.stringify(hintsOf(second, NODE))})`);
			assert.match(hint, new RegExp(`^Of ${CSV_ROWS} rows: ${CSV_ROWS} already filed \\(.*\\); nothing was filed twice\\.$`));
			// The outcome summary (the look's cost, "The look for rows already filed: …", is another hint).
			assert.equal(hintsOf(first, NODE).some((m) => /^Of \d+ rows: .*already filed/.test(m)), false, 'no such hint on the first run');
			await assertEachRowOnce(ctx, kind, prefix, CSV_ROWS);
		},
	};
}

/** A bordereau as a broker's sheet writes it: named columns, words, dollar amounts, US dates. */
function writeSheet(ctx: Context, file: string, rows: number, prefix: string, variant: 'typed' | 'untyped'): void {
	const dir = join(ctx.userFolder, 'files');
	mkdirSync(dir, { recursive: true });
	const typed = variant === 'typed';
	const lines = [`Policy Number,Insured Name,State,${typed ? 'Transaction Type,' : ''}Premium,Eff Date,Exp Date`];
	for (let i = 0; i < rows; i++) {
		// The second sheet: the type left out, stray spaces, the premium and dates written otherwise.
		const cells = typed
			? [`${prefix}-${i}`, `"Insured ${i}, LLC"`, 'Texas', 'New', `"$1,${String(100 + i)}.50"`, '02/01/2026', '02/01/2027']
			: [` ${prefix}-${i} `, `"Insured ${i}, LLC  "`, 'TX', `${1100 + i}.5`, '2026-02-01', '2027-02-01'];
		lines.push(cells.join(','));
	}
	writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
}

const REKEY_ROWS = 10;

/**
 * The same sheet filed with a t2 key, the credential's key replaced by the account's t3 key
 * (to use Create Many's batches), run again, then the sheet rewritten without the type and
 * with stray spaces and run a third time: every row comes back replayed by its key (the key no
 * longer depends on the API key, the type written or the spaces), and is stored once. The
 * workflow switches off Look for Rows Already Filed: this is the key's own proof, which a look
 * would settle first.
 */
const newKeyScenario: Scenario = {
	name: 'refile-new-key',
	workflow: 'refile-new-key.json',
	async before(ctx) {
		writeSheet(ctx, 'refile-new-key.csv', REKEY_ROWS, 'REKEY', 'typed');
	},
	async execute(cli, ctx) {
		const first = await cli.run();
		await cli.importCredentials([rekeyCredential('t3', ctx.sandbox.baseUrl)]);
		const second = await cli.run();
		writeSheet(ctx, 'refile-new-key.csv', REKEY_ROWS, 'REKEY', 'untyped');
		const third = await cli.run();
		await cli.importCredentials([rekeyCredential('t2', ctx.sandbox.baseUrl)]);
		return [first, second, third];
	},
	async check(_run, ctx, runs) {
		const [first, ...again] = runs.map((run) => json(run, NODE));
		assert.equal(first.length, REKEY_ROWS);
		assert.deepEqual([...new Set(first.map((o) => o.outcome))], ['filed'], 'the first run (t2 key) files every row');
		assert.equal(first[3].net_premium, 1103.5, 'the sheet\'s "$1,103.50" is filed as 1103.5');
		again.forEach((out, run) => {
			assert.equal(out.length, REKEY_ROWS);
			out.forEach((item, i) => {
				assert.equal(item.outcome, 'replayed', `run ${run + 2}, row ${i}: outcome ${String(item.outcome)} (${JSON.stringify(item).slice(0, 300)})`);
				assert.equal(item.id, first[i].id, `run ${run + 2}, row ${i} is the invoice the first run filed`);
			});
		});
		await assertEachRowOnce(ctx, 't2', 'REKEY', REKEY_ROWS);
		const outcomes = again.map((out) => out.map((o) => String(o.outcome)).join(' '));
		console.log(`[e2e]         refile-new-key: ${REKEY_ROWS} rows filed with a t2 key; with the t3 key: ${outcomes[0]}; untyped sheet: ${outcomes[1]}; each row stored once`);
	},
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * n8n killed with SIGKILL once `killAt` invoices are stored (a request may still be in flight:
 * the sandbox carries it out after n8n is gone), then the same workflow run again.
 */
function crashScenario(options: { name: string; kind: Kind; rows: number; killAt: number; faults: IDataObject; settleMs: number }): Scenario {
	const { kind, rows } = options;
	const prefix = `CRASH-${kind.toUpperCase()}`;
	let storedAtKill = 0;
	return {
		name: options.name,
		workflow: `${options.name}.json`,
		compat: true,
		async before(ctx) {
			writeCsv(ctx, `${options.name.replace('refile-', '')}.csv`, rows, prefix);
			await raiseLimits(ctx);
			// Slows each create (stored after the delay) so the kill lands part-way through.
			await control(ctx, '/faults', options.faults);
		},
		async execute(cli, ctx) {
			const killed = await cli.runUntilKilled(async () => (await storedCount(ctx, kind)) >= options.killAt);
			assert.ok(killed, `n8n finished before ${options.killAt} invoices were stored: no crash happened`);
			await sleep(options.settleMs); // a request sent before the kill is carried out now
			await control(ctx, '/faults', {});
			storedAtKill = await storedCount(ctx, kind);
			assert.ok(storedAtKill >= options.killAt && storedAtKill < rows, `${kind}: ${storedAtKill} of ${rows} stored at the crash: part-way`);
			return [await cli.run()];
		},
		async check(run, ctx) {
			const out = json(run, NODE);
			assert.equal(out.length, rows);
			const notNow = out.filter((o) => NOT_FILED_NOW.has(String(o.outcome))).length;
			const now = out.filter((o) => o.outcome === 'filed').length;
			assert.equal(notNow, storedAtKill, `${kind}: the re-run finds the ${storedAtKill} rows stored before it (got ${notNow})`);
			assert.equal(now, rows - storedAtKill, `${kind}: and files the other ${rows - storedAtKill} (got ${now})`);
			await assertEachRowOnce(ctx, kind, prefix, rows);
			console.log(`[e2e]         ${options.name}: killed with ${storedAtKill} of ${rows} stored; re-run: ${notNow} not filed now, ${now} filed, every row once`);
		},
	};
}

const FORMS_ROWS = 3;

/**
 * The sandbox shows stored invoices in a service's own forms (its forms switch: names in
 * capitals, spaces collapsed, invoice numbers without leading zeros, amounts rounded half-even,
 * dates in US Central, a tax line of its own): the sheet filed with the first create or batch
 * reply lost, then run again. Every row is stored once, the second run finds each (what matched
 * only in form is named on the item).
 */
function formsScenario(kind: 'legacy-t2' | 'legacy-t3'): Scenario {
	const prefix = `FORMS-${kind.toUpperCase()}`;
	return {
		name: `refile-forms-${kind}`,
		workflow: `refile-forms-${kind}.json`,
		compat: true,
		async before(ctx) {
			const dir = join(ctx.userFolder, 'files');
			mkdirSync(dir, { recursive: true });
			const lines = ['policy_number,insured_name,invoice_number,state_code,net_premium,effective_date,expiration_date,type_code'];
			for (let i = 0; i < FORMS_ROWS; i++) lines.push(`${prefix}-${i},"Harbor  Marine ${i} Co.",inv-00${i + 1},TX,1000.125,2026-03-01,2027-03-01,NEW`);
			writeFileSync(join(dir, `refile-forms-${kind}.csv`), `${lines.join('\n')}\n`);
			await control(ctx, '/forms', { forms: 'all', mode: 'all' });
			await control(ctx, '/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });
		},
		execute: async (cli) => [await cli.run(), await cli.run()],
		async check(_run, ctx, runs) {
			const [first, second] = runs.map((run) => json(run, NODE));
			assert.equal(first.length, FORMS_ROWS);
			assert.deepEqual(first.map((o) => o.outcome), first.map(() => 'filed'), `${kind}: the first run files every row (${JSON.stringify(first).slice(0, 400)})`);
			assert.equal(new Set(first.map((o) => o.id)).size, FORMS_ROWS, `${kind}: each row its own invoice`);
			second.forEach((item, i) => {
				assert.equal(item.outcome, 'already_filed', `${kind}: second run, row ${i}: ${JSON.stringify(item).slice(0, 400)}`);
				assert.equal(item.id, first[i].id, `${kind}: row ${i} is the invoice the first run filed`);
				assert.match(String(item.outcomeNote), /matched only in form[^.]*insured_name/, `${kind}: row ${i} names what matched only in form`);
			});
			await assertEachRowOnce(ctx, kind, prefix, FORMS_ROWS);
			console.log(`[e2e]         refile-forms-${kind}: ${FORMS_ROWS} rows, first reply lost, service forms shown: filed once each, re-run already_filed`);
		},
	};
}

/**
 * The same workflow against a service whose clock is 90 s behind n8n's, with every form shown,
 * and a sheet without invoice numbers (each row sent with its derived mark): the first create or
 * batch reply lost, then the sheet again. Every row is stored once, none sent again; the second
 * run recognises each by its mark.
 */
function clockScenario(kind: 'legacy-t2' | 'legacy-t3'): Scenario {
	const prefix = `CLOCK-${kind.toUpperCase()}`;
	return {
		name: `refile-clock-${kind}`,
		workflow: `refile-forms-${kind}.json`,
		compat: true,
		async before(ctx) {
			const dir = join(ctx.userFolder, 'files');
			mkdirSync(dir, { recursive: true });
			const lines = ['policy_number,insured_name,invoice_number,state_code,net_premium,effective_date,expiration_date,type_code'];
			for (let i = 0; i < FORMS_ROWS; i++) lines.push(`${prefix}-${i},"Smith & Jones ${i}, L.L.C.",,TX,1000.125,2026-03-01,2027-03-01,NEW`);
			writeFileSync(join(dir, `refile-forms-${kind}.csv`), `${lines.join('\n')}\n`);
			await control(ctx, '/forms', { forms: 'all', mode: 'all', clock_offset_seconds: -90 });
			await control(ctx, '/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });
		},
		execute: async (cli) => [await cli.run(), await cli.run()],
		async check(_run, ctx, runs) {
			const [first, second] = runs.map((run) => json(run, NODE));
			assert.equal(first.length, FORMS_ROWS);
			assert.deepEqual(first.map((o) => o.outcome), first.map(() => 'filed'), `${kind}: the first run files every row, none sent again (${JSON.stringify(first).slice(0, 400)})`);
			second.forEach((item, i) => {
				assert.equal(item.outcome, 'already_filed', `${kind}: second run, row ${i}: ${JSON.stringify(item).slice(0, 400)}`);
				assert.equal(item.id, first[i].id, `${kind}: row ${i} is the invoice the first run filed`);
				// The workflow simplifies its items: the mark shows in what recognised the row.
				assert.match(String(item.recognisedBy), /^mark SL[A-Z2-7]{16}$/, `${kind}: row ${i} recognised by its mark (${String(item.recognisedBy)})`);
			});
			assert.equal(new Set(second.map((o) => o.recognisedBy)).size, FORMS_ROWS, `${kind}: each row its own mark`);
			await assertEachRowOnce(ctx, kind, prefix, FORMS_ROWS);
			console.log(`[e2e]         refile-clock-${kind}: ${FORMS_ROWS} rows without invoice numbers, service clock 90 s behind, first reply lost: filed once each, re-run recognised by the mark`);
		},
	};
}

export const REFILE_SCENARIOS: Scenario[] = [
	...KINDS.map(csvScenario),
	formsScenario('legacy-t2'),
	formsScenario('legacy-t3'),
	clockScenario('legacy-t2'),
	clockScenario('legacy-t3'),
	newKeyScenario,
	crashScenario({
		name: 'refile-crash-t3',
		kind: 't3',
		rows: 16000,
		killAt: 500,
		// Each batch of 500 is stored 2.5 s after it arrives, and 10 go at once: the kill lands with
		// the first wave stored (5,000) and the second in flight; a kill seen up to 5 s late on a
		// loaded machine sends a third wave at most (15,000), so the last batches are never sent and
		// the crash lands part-way. The settle outlasts the delay by 2 s.
		faults: { delay_ms: 2500, methods: ['POST'], path_prefix: '/invoices/batch' },
		settleMs: 4500,
	}),
	crashScenario({
		name: 'refile-crash-legacy-t2',
		kind: 'legacy-t2',
		rows: 1000,
		killAt: 100,
		// Each create is stored 1 s after it arrives, up to 200 in flight (the budget is known
		// before the first create now): the kill lands after the first wave (200 stored) with the
		// next 200 in flight; a kill seen up to 2 s late on a loaded machine still leaves rows never
		// sent (800 at most stored). The settle outlasts the delay.
		faults: { delay_ms: 1000, methods: ['POST'], path_prefix: '/invoices' },
		settleMs: 2500,
	}),
];
