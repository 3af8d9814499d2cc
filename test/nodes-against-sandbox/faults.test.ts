/**
 * Proof under load and faults: "nothing is lost and nothing is filed twice", and the trigger emits
 * each change exactly once. The sandbox injects seeded faults (lost replies after the commit,
 * 500s, 429 storms, replies held past the node's timeout) on /invoices; afterwards the account's
 * invoices are listed through the API and every input row is accounted for. Each faulted run is
 * then run again unchanged (a re-run after a crash or an unsure first run): every row ends up
 * filed exactly once, and no row filed by the first run is filed now. The fake clock makes
 * backoff, Retry-After and the node's waits instant.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { RATE_LIMIT_RETRY_FLOOR_SECONDS } from '../../nodes/shared/service';
import { pollNode, runNode } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';
import { Faults, seedWhere, type FaultPlan } from '../sandbox/faults';
import { client } from '../sandbox/testkit';
import { LoadedTrigger } from '../unit/trigger/helpers';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	fake = useFakeClock();
});
afterEach(() => fake.restore());

const LIMIT = 1_000_000;
const ROWS = 150;
/** What "unknown outcome" error items must say, in their message. */
const UNKNOWN_OUTCOME = /outcome unknown, the invoice may have been filed/;
/** What error items of rows that were certainly not filed say. */
const NOTHING_FILED = /nothing was filed|nothing reached the service/;
/** What a re-run gives a row filed before: found on its policy by the look first, on every account (a key replays for 24 hours only). */
const NOT_FILED_NOW = ['already_filed'];

const api = (keyName: string) => client(sb.baseUrl, keyByName(keyName).key);
async function control(path: string, body: object = {}) {
	const res = await client(sb.baseUrl.replace(/\/api\/v1$/, ''), null).post(`/_sandbox${path}`, body);
	if (res.status !== 200) throw new Error(`control ${path} -> ${res.status} ${JSON.stringify(res.data)}`);
	return res;
}
const raiseLimits = () => control('/rate-limit', { limits: { t1: LIMIT, t2: LIMIT, t3: LIMIT } });
const faults = (settings: object) => control('/faults', { path_prefix: '/invoices', ...settings });
const noFaults = () => control('/faults', {});

/** Calls left in the key's window after this check (which spends one itself). */
async function remaining(keyName: string): Promise<number> {
	return Number((await api(keyName).get('/auth/me')).headers['x-ratelimit-remaining']);
}
/** Calls spent between two `remaining()` checks, leaving out the second check. */
const spentBetween = (before: number, after: number) => before - after - 1;

/** No fault in the plan. */
const clean = (plan: FaultPlan) => !plan.error500 && !plan.rateLimited && !plan.loseReply && !plan.badGateway;

/**
 * A seed under which the batch call draws `want`. With only POSTs faulted the batch is the first
 * faulted request; with GETs faulted too, the look first's read of the account's listing (150
 * policies: one page of a small account) comes before it, and is drawn clean.
 */
function seedWhereBatch(want: keyof FaultPlan, settings: Record<string, unknown>): number {
	const methods = settings.methods as string[] | undefined;
	const listingFaulted = !methods || methods.includes('GET');
	return seedWhere(settings, 'POST', '/invoices/batch', [...(listingFaulted ? [clean] : []), (plan) => Boolean(plan[want])], 10_000);
}

const rowsOf = (prefix: string, count = ROWS): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({
		policy_number: `${prefix}-${i}`,
		insured_name: `Insured ${i}`,
		state_code: 'TX',
		net_premium: 1000 + i,
		effective_date: '2026-01-01',
		expiration_date: '2027-01-01',
	}));

function run(keyName: string, operation: 'create' | 'createMany', items: IDataObject[], extra: IDataObject = {}) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', operation, inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}', simplify: true, ...extra },
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail: true,
	});
}

/** Every invoice of the key's account, read page by page (faults off). */
async function storedInvoices(keyName: string): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const res = await api(keyName).get('/invoices', { params: { page, per_page: 100 } });
		expect(res.status).toBe(200);
		const rows = res.data.data.invoices as IDataObject[];
		all.push(...rows);
		if (rows.length < 100) return all;
	}
}

interface Tally {
	rows: number;
	filed: number;
	replayed: number;
	recovered: number;
	alreadyFiled: number;
	sentAgain: number;
	errors: number;
	unknownStored: number;
	duplicates: number;
}

/** Every invoice of the key's account, grouped by policy number. */
async function storedByPolicy(keyName: string): Promise<Map<string, IDataObject[]>> {
	const byPolicy = new Map<string, IDataObject[]>();
	for (const inv of await storedInvoices(keyName)) byPolicy.set(String(inv.policy_number), [...(byPolicy.get(String(inv.policy_number)) ?? []), inv]);
	return byPolicy;
}

/**
 * The proof for one run: every row is either filed exactly once with its output carrying that
 * invoice's id, or an error item saying the outcome is unknown (then 0 or 1 stored, never 2) or
 * that nothing was filed (then 0 stored); nothing stored that no row asked for. A row may be
 * stored twice only when its item says so (outcome sent_again: sent again after a reply held
 * past every look, on an account without keys), and only where `twiceAllowed`.
 */
async function account(keyName: string, rows: IDataObject[], output: INodeExecutionData[] | undefined, twiceAllowed = false): Promise<Tally> {
	await noFaults();
	const byPolicy = await storedByPolicy(keyName);
	const stored = [...byPolicy.values()].flat();
	const duplicates = [...byPolicy.values()].filter((list) => list.length > 1).length;
	if (!twiceAllowed) expect(duplicates).toBe(0);
	expect(stored.filter((inv) => !rows.some((r) => r.policy_number === inv.policy_number))).toEqual([]);

	expect(output).toHaveLength(rows.length);
	const tally: Tally = { rows: rows.length, filed: 0, replayed: 0, recovered: 0, alreadyFiled: 0, sentAgain: 0, errors: 0, unknownStored: 0, duplicates };
	rows.forEach((row, i) => {
		const item = output![i];
		const same = byPolicy.get(String(row.policy_number)) ?? [];
		expect(item.pairedItem).toEqual({ item: i });
		if (typeof item.json.id === 'number') {
			tally.filed++;
			if (item.json.outcome === 'replayed') tally.replayed++;
			if (item.json.outcome === 'already_filed') tally.alreadyFiled++;
			if (item.json._recovered) tally.recovered++;
			expect(['filed', 'replayed', 'already_filed', 'sent_again']).toContain(item.json.outcome);
			expect(item.json).toMatchObject({ policy_number: row.policy_number, net_premium: row.net_premium });
			if (item.json.outcome === 'sent_again') {
				tally.sentAgain++;
				expect(String(item.json.outcomeNote)).toContain(`policy ${String(row.policy_number)}`);
				expect(same.map((inv) => inv.id)).toContain(item.json.id);
				expect(same.length).toBeLessThanOrEqual(2);
			} else {
				expect(same.map((inv) => [inv.id, inv.net_premium])).toEqual([[item.json.id, row.net_premium]]);
			}
		} else {
			tally.errors++;
			const said = `${String(item.json.error)}\n${String(item.json.description ?? '')}`;
			if (NOTHING_FILED.test(String(item.json.error))) {
				expect(same).toHaveLength(0);
				return;
			}
			if (!UNKNOWN_OUTCOME.test(String(item.json.error)))
				throw new Error(`row ${i}: an error item that says neither "nothing was filed" nor that the outcome is unknown:\n${said}`);
			expect(same.length).toBeLessThanOrEqual(1);
			tally.unknownStored += same.length;
		}
	});
	return tally;
}

/**
 * The same rows run again unchanged, without faults: every row is then stored exactly once (or
 * as often as the first run's sent_again items allowed), no row the first run filed is filed
 * again, and each such row comes out as already_filed (found on its policy by the look first).
 */
async function rerun(keyName: string, operation: 'create' | 'createMany', rows: IDataObject[], first: INodeExecutionData[], extra: IDataObject = {}) {
	const before = await storedByPolicy(keyName);
	const { output, error } = await run(keyName, operation, rows, extra);
	expect(error).toBeUndefined();
	const after = await storedByPolicy(keyName);
	let notFiledNow = 0;
	rows.forEach((row, i) => {
		const policy = String(row.policy_number);
		const had = before.get(policy)?.length ?? 0;
		const has = after.get(policy)?.length ?? 0;
		const item = output![i].json;
		if (had > 0) {
			// Filed (or maybe filed) by the first run: never filed again.
			expect([row.policy_number, has]).toEqual([row.policy_number, had]);
			expect(NOT_FILED_NOW).toContain(item.outcome);
			notFiledNow++;
		} else {
			expect([row.policy_number, has]).toEqual([row.policy_number, 1]);
			expect(item.outcome).toBe('filed');
		}
		if (first[i].json.outcome !== 'sent_again') expect(has).toBe(1);
	});
	return { notFiledNow, output: output! };
}

const table: string[] = [];
function report(label: string, t: Tally, calls: number, extra = '') {
	table.push(
		`${label.padEnd(44)} ${String(t.rows).padStart(4)} ${String(t.filed).padStart(5)} ${String(t.replayed).padStart(8)} ${String(t.recovered).padStart(9)} ${String(t.alreadyFiled).padStart(7)} ${String(t.sentAgain).padStart(10)} ${String(t.errors).padStart(6)} ${String(t.unknownStored).padStart(13)} ${String(t.duplicates).padStart(4)} ${String(calls).padStart(6)}${extra ? `  ${extra}` : ''}`,
	);
}
afterAll(() => {
	console.log(
		[
			'Faults proof (seeded; calls from the sandbox X-RateLimit-Remaining; re-run: the same rows again, no faults)',
			`${'run'.padEnd(44)} rows filed replayed recovered already sent_again errors stored-of-err dups  calls`,
			...table,
		].join('\n'),
	);
});

/** Runs the node on fresh rows under the given faults, checks the store, then runs the rows again; returns the tally. */
async function prove(label: string, keyName: string, operation: 'create' | 'createMany', settings: object, prefix: string) {
	await raiseLimits();
	const rows = rowsOf(prefix);
	const before = await remaining(keyName);
	await faults(settings);
	const { output, error } = await run(keyName, operation, rows);
	expect(error).toBeUndefined();
	const calls = spentBetween(before, await remaining(keyName));
	const tally = await account(keyName, rows, output);
	const again = await rerun(keyName, operation, rows, output!);
	report(label, tally, calls, `re-run: ${again.notFiledNow} not filed now, ${rows.length - again.notFiledNow} filed now, 0 twice`);
	return { tally, calls };
}

const LOSSY = { lose_reply_after_commit: 0.2, error_500: 0.15 };

describe('Create (per item) under lost replies and 500s', () => {
	it('new-features account (t2): every row filed exactly once, lost replies come back as replays', async () => {
		const { tally, calls } = await prove('Create t2 (lost 0.2, 500 0.15)', 't2', 'create', { ...LOSSY, seed: 11 }, 'NF');
		expect(tally.filed + tally.errors).toBe(ROWS);
		expect(tally.recovered).toBeGreaterThan(10); // lost replies were resent with the same key and replayed
		expect(tally.filed).toBeGreaterThan(ROWS * 0.9);
		expect(calls).toBeGreaterThan(ROWS);
	});

	it('legacy account (legacy-t2): lost replies recovered from the policy list, never filed twice', async () => {
		const { tally } = await prove('Create legacy-t2 (lost 0.2, 500 0.15)', 'legacy-t2', 'create', { ...LOSSY, seed: 12 }, 'LG');
		expect(tally.filed + tally.errors).toBe(ROWS);
		expect(tally.replayed).toBe(0); // legacy accounts do not honour the key
		expect(tally.recovered).toBeGreaterThan(10);
		// A row whose first attempt got a 500 (nothing stored) is looked for, then sent again: marked.
		expect(tally.sentAgain).toBeGreaterThan(5);
		expect(tally.filed).toBeGreaterThan(ROWS * 0.7);
	});
});

describe('Create Many under lost replies and 500s', () => {
	it('t3: the batch reply is lost: the same batch is sent again with the same per-row keys, every row replayed (recovered), none filed again', async () => {
		const seed = seedWhereBatch('loseReply', { ...LOSSY, path_prefix: '/invoices' });
		const { tally } = await prove(`Create Many t3, batch reply lost (${seed})`, 't3', 'createMany', { ...LOSSY, seed }, 'BL');
		expect(tally.filed + tally.errors).toBe(ROWS);
		expect(tally.recovered).toBeGreaterThan(ROWS * 0.9);
	});

	it('legacy-t3: the batch reply is lost: every row found among its policy’s transactions, none filed again', async () => {
		// The look before filing (the account's listing) is a GET; the batch is the first faulted POST.
		const seed = seedWhereBatch('loseReply', { ...LOSSY, path_prefix: '/invoices', methods: ['POST'] });
		const { tally } = await prove(`Create Many legacy-t3, batch reply lost (${seed})`, 'legacy-t3', 'createMany', { ...LOSSY, seed, methods: ['POST'] }, 'LBL');
		expect(tally.recovered + tally.errors).toBe(ROWS);
		expect(tally.recovered).toBeGreaterThan(ROWS * 0.9);
	});

	it('t3: the batch gets a 500: nothing stored, the rows sent again with the same per-row keys (as a batch, else each on its own) under the same faults', async () => {
		const seed = seedWhereBatch('error500', { ...LOSSY, path_prefix: '/invoices' });
		const { tally } = await prove(`Create Many t3, batch 500 (${seed})`, 't3', 'createMany', { ...LOSSY, seed }, 'B5');
		expect(tally.filed + tally.errors).toBe(ROWS);
		expect(tally.filed).toBeGreaterThan(ROWS * 0.9);
		// The 500 stored nothing: no row comes back as the service's replay of it.
		expect(tally.recovered).toBe(0);
	});

	it('t2: one create per row under the same faults', async () => {
		const { tally } = await prove('Create Many t2 (lost 0.2, 500 0.15)', 't2', 'createMany', { ...LOSSY, seed: 21 }, 'MT2');
		expect(tally.filed + tally.errors).toBe(ROWS);
		expect(tally.recovered).toBeGreaterThan(10);
	});
});

describe('Replies held past the node’s timeout (Timeout 2 s; the first POST answered after 4 s)', () => {
	const ROWS_HELD = 4;
	// Real time, with seconds between the steps so a loaded machine keeps their order: the
	// Timeout covers every call of the run (the account check and the looks must not time out);
	// after it the node's looks and resend (fake-clock waits) have 2 s before the held POST is
	// carried out; the run then waits until that has surely happened.
	const TIMEOUT_SECONDS = 2;
	const HELD_MS = 4000;
	const realSleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	/** Files fresh rows with the first POST held; waits until it is carried out; checks the store and re-runs. */
	async function held(label: string, keyName: string, operation: 'create' | 'createMany', afterCommit: boolean, prefix: string) {
		await raiseLimits();
		const rows = rowsOf(prefix, ROWS_HELD);
		const before = await remaining(keyName);
		await faults({ delay_ms: HELD_MS, delay_after_commit: afterCommit, methods: ['POST'], count: 1 });
		const options = { requestOptions: { timeoutSeconds: TIMEOUT_SECONDS } };
		const { output, error } = await run(keyName, operation, rows, options);
		expect(error).toBeUndefined();
		await realSleep(HELD_MS - TIMEOUT_SECONDS * 1000 + 1000); // the held request is carried out by now
		const calls = spentBetween(before, await remaining(keyName));
		const tally = await account(keyName, rows, output, true);
		const again = await rerun(keyName, operation, rows, output!, options);
		expect(again.notFiledNow).toBe(ROWS_HELD);
		report(label, tally, calls, `re-run: ${again.notFiledNow} not filed now`);
		return { tally, output: output! };
	}

	describe('stored late (the service stores after the node gave up looking)', () => {
		it('Create, t2 (keys): the resend carries the key, the late first attempt is a replay: no row twice', async () => {
			const { tally } = await held('held, stored late: Create t2', 't2', 'create', false, 'HL2');
			expect(tally).toMatchObject({ duplicates: 0, sentAgain: 0, filed: ROWS_HELD });
		});

		it('Create, legacy-t2: the row sent again is stored twice, and its item says so (sent_again, policy named)', async () => {
			const { tally, output } = await held('held, stored late: Create legacy-t2', 'legacy-t2', 'create', false, 'HLL2');
			expect(tally).toMatchObject({ duplicates: 1, sentAgain: 1, filed: ROWS_HELD });
			expect(output[0].json.outcome).toBe('sent_again');
			expect(output[0].json.outcomeNote).toContain('policy HLL2-0 holds it twice');
		});

		it('Create Many, t3 (keys): the batch is sent again with the same per-row keys: no row twice', async () => {
			const { tally } = await held('held, stored late: Create Many t3', 't3', 'createMany', false, 'HL3');
			expect(tally).toMatchObject({ duplicates: 0, sentAgain: 0, filed: ROWS_HELD });
		});

		it('Create Many, legacy-t3: every row sent again is marked sent_again with its policy', async () => {
			const { tally, output } = await held('held, stored late: Create Many legacy-t3', 'legacy-t3', 'createMany', false, 'HLL3');
			expect(tally).toMatchObject({ duplicates: ROWS_HELD, sentAgain: ROWS_HELD, filed: ROWS_HELD });
			output.forEach((item, i) => expect(item.json.outcomeNote).toContain(`policy HLL3-${i} holds it twice`));
		});
	});

	describe('stored at once, reply held (delay_after_commit)', () => {
		it.each([
			['t2', 'create'],
			['legacy-t2', 'create'],
			['t3', 'createMany'],
			['legacy-t3', 'createMany'],
		] as const)('%s %s: the stored invoice is replayed or found, nothing sent twice, nothing marked', async (keyName, operation) => {
			const { tally } = await held(`held, stored at once: ${operation} ${keyName}`, keyName, operation, true, `HC-${keyName}-${operation}`);
			expect(tally).toMatchObject({ duplicates: 0, sentAgain: 0, filed: ROWS_HELD, errors: 0 });
		});
	});
});

describe('429 storm', () => {
	it('rate_limit_429 0.3: every row filed exactly once; each 429 waited its Retry-After or, refused again, longer (virtual time)', async () => {
		const settings = { rate_limit_429: 0.3, seed: 31, methods: ['POST'] };
		// The draws are seeded: replaying them gives how many 429s the run must meet (one draw per request).
		const replay = new Faults();
		replay.configure({ ...settings, path_prefix: '/invoices' });
		let expected429 = 0;
		for (let row = 0; row < ROWS; row++) while (replay.plan('POST', '/invoices').rateLimited) expected429++;

		const { tally, calls } = await prove('Create t2 (429 0.3)', 't2', 'create', settings, 'RL');
		expect(tally).toMatchObject({ filed: ROWS, errors: 0, replayed: 0, recovered: 0, duplicates: 0 });
		// The look first reads the account's listing once (150 policies on a small account: fewer
		// calls than a listing per policy), then one create per row; no account check. The sandbox
		// counts each 429 too (it counts before it injects faults).
		expect(calls).toBe(1 + ROWS + expected429);
		expect(expected429).toBeGreaterThan(30);
		// One wait per 429: the Retry-After (1 s), longer for a request refused again (2, 4, … s).
		expect(fake.sleeps).toHaveLength(expected429);
		const floors = RATE_LIMIT_RETRY_FLOOR_SECONDS.map((floor) => floor * 1000);
		fake.sleeps.forEach((ms) => expect(floors).toContain(ms));
		const waited = fake.sleeps.reduce((a, b) => a + b, 0) / 1000;
		table[table.length - 1] += `  429s ${expected429}, virtual wait ${waited} s`;
	});

	it('t3 Create Many in a 429 storm: the batch call waits and files every row once', async () => {
		// A seed whose first three draws are 429s: the one batch call is refused at least three times in a row.
		const settings = { rate_limit_429: 0.3, methods: ['POST'] };
		const drawsOf = (seed: number) => {
			const f = new Faults();
			f.configure({ ...settings, seed });
			return () => f.plan('POST', '/invoices/batch').rateLimited;
		};
		const refused = (plan: FaultPlan) => plan.rateLimited;
		const seed = seedWhere(settings, 'POST', '/invoices/batch', [refused, refused, refused], 10_000);
		const draw = drawsOf(seed);
		let refusals = 0;
		while (draw()) refusals++;
		const { tally, calls } = await prove(`Create Many t3 (429 0.3, seed ${seed})`, 't3', 'createMany', { ...settings, seed }, 'RB');
		expect(tally).toMatchObject({ filed: ROWS, errors: 0, replayed: 0, recovered: 0, duplicates: 0 });
		// Each 429 in a row waits longer: 1, 2, 4, … s (the sandbox asks for 1 s every time).
		const waits = RATE_LIMIT_RETRY_FLOOR_SECONDS.slice(0, refusals).map((floor) => floor * 1000);
		expect(fake.sleeps).toEqual(waits);
		expect(calls).toBe(refusals + 1 + 1); // the batch call and the look first's one read of the account's listing
		table[table.length - 1] += `  429s ${refusals}, virtual wait ${waits.reduce((a, b) => a + b, 0) / 1000} s`;
	});
});

describe('Trigger under faults', () => {
	const WATCHED = 20;
	/** Each invoice walks these steps; a step changes the status, the filing state or both. */
	const STEPS = [
		{ status: 'sent', state_status: 'sent' },
		{ status: 'error', state_status: 'rejected', message: 'Missing SL-2' },
		{ status: 're-submitted', state_status: 'sent' },
		{ status: 'success', state_status: 'sent' },
		{ status: 'success', state_status: 'accepted' },
		{ status: 'success', state_status: 'confirmed', confirmation_number: 'TX-1' },
	];
	const EVERY_5_MINUTES = { item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] };

	it('20 invoices moved between polls while GETs fail: each change emitted exactly once', async () => {
		await raiseLimits();
		const created = await api('t3').post('/invoices/batch', { invoices: rowsOf('TRG', WATCHED) });
		const ids = (created.data.data.results as Array<{ invoice: { id: number } }>).map((r) => r.invoice.id);
		expect(ids).toHaveLength(WATCHED);

		let staticData: IDataObject = {};
		const emitted: IDataObject[] = [];
		let polls = 0;
		const poll = async () => {
			fake.advance(5 * 60 * 1000);
			polls++;
			const result = await pollNode({
				node: new LoadedTrigger(),
				parameters: { invoiceIds: ids.join(','), events: ['invoiceStatus', 'filingState'], pollTimes: EVERY_5_MINUTES, options: {} },
				credentials: { apiKey: keyByName('t2').key, baseUrl: sb.baseUrl },
				staticData,
			});
			staticData = result.staticData;
			emitted.push(...(result.emitted?.[0] ?? []).map((item) => item.json));
		};
		/** What the trigger has recorded for an invoice (undefined: not read yet). */
		const recorded = (id: number) =>
			((staticData.trigger as IDataObject | undefined)?.invoices as Record<string, { s: string; f: string }> | undefined)?.[String(id)];

		const step = new Map(ids.map((id) => [id, -1]));
		const current = new Map(ids.map((id) => [id, { s: 'new', f: 'not_sent' }]));
		const expected: string[] = [];
		let rng = 7;
		const coin = () => ((rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) < 0.5;

		const before = await remaining('t2');
		await faults({ ...LOSSY, seed: 41, methods: ['GET'] });
		for (let round = 0; round < 40; round++) {
			await poll();
			// Move only invoices whose last change the trigger has read, so every change is observable.
			for (const id of ids) {
				const seen = recorded(id);
				const now = current.get(id)!;
				if (!seen || seen.s !== now.s || seen.f !== now.f || step.get(id)! >= STEPS.length - 1 || !coin()) continue;
				const next = STEPS[step.get(id)! + 1];
				await control(`/invoices/${id}/status`, next);
				if (next.status !== now.s) expected.push(`${id} invoice_status_changed ${now.s}->${next.status}`);
				if (next.state_status !== now.f) expected.push(`${id} filing_state_changed ${now.f}->${next.state_status}`);
				current.set(id, { s: next.status, f: next.state_status });
				step.set(id, step.get(id)! + 1);
			}
		}
		const faultedPolls = polls;
		await noFaults();
		for (let clean = 0; clean < 3; clean++) await poll();
		const calls = spentBetween(before, await remaining('t2'));

		expect([...step.values()].every((s) => s === STEPS.length - 1)).toBe(true); // every invoice went the whole way
		for (const id of ids) expect(recorded(id)).toMatchObject({ s: 'success', f: 'confirmed' });
		const ids_ = emitted.map((e) => e.event_id);
		expect(new Set(ids_).size).toBe(ids_.length);
		const got = emitted.map((e) => `${String(e.invoice_id)} ${String(e.event)} ${String(e.previous)}->${String(e.current)}`);
		expect(got.sort()).toEqual([...expected].sort());
		expect(expected).toHaveLength(WATCHED * 9);
		table.push(
			`Trigger: ${WATCHED} invoices, ${faultedPolls} polls under GET faults (lost 0.2, 500 0.15) + 3 clean: ${emitted.length} events for ${expected.length} changes, duplicates ${ids_.length - new Set(ids_).size}, calls ${calls}`,
		);
	});
});
