/**
 * Exactly once whatever changes between runs, in n8n's engine against the sandbox, on
 * an account that replays by key and on a legacy one: another key of the same account, another
 * body source or node version, stray spaces and nulls, a run stopped at Concurrency 25, a lost
 * reply whose look-up fails, ambiguous amounts and shares. After each, the account's invoices are
 * listed through the API: no row is stored twice and no amount differs from the row's.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';
import { seedWhere } from '../sandbox/faults';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	// The node's clock is the real one moved by its own waits: the sandbox stamps `created` in real time.
	fake = useFakeClock(Date.now());
});
afterEach(() => {
	fake.restore();
});

// A row filed before is found on its policy by the look first on both kinds (a key replays for 24 hours only).
const ACCOUNTS = [
	{ kind: 'keyed', t2: 't2', t3: 't3', again: 'already_filed' },
	{ kind: 'legacy', t2: 'legacy-t2', t3: 'legacy-t3', again: 'already_filed' },
] as const;

const { control, storedUnder, remaining } = sandboxCalls(sb);

const row = (n: number, overrides: IDataObject = {}): IDataObject => ({
	policy_number: `EO-${n}`,
	insured_name: `Insured ${n} LLC`,
	state_code: 'TX',
	net_premium: 1000 + n,
	effective_date: '2026-01-01',
	expiration_date: '2027-01-01',
	...overrides,
});

const JSON_BODY = { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' };

function run(keyName: string, parameters: IDataObject, items: IDataObject[], options: { continueOnFail?: boolean; version?: number } = {}) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...parameters },
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail: options.continueOnFail,
		settings: options.version ? { typeVersion: options.version } : undefined,
	});
}

const outcomes = (output: Array<{ json: IDataObject }> | undefined) => (output ?? []).map((o) => o.json.outcome);

/** No policy holds a transaction twice (same type, effective date and premium). */
function duplicates(invoices: IDataObject[]): string[] {
	const seen = new Map<string, number>();
	for (const i of invoices) {
		const id = `${String(i.policy_number)}|${String((i.type as IDataObject)?.name)}|${String(i.effective_date)}|${String(i.net_premium)}`;
		seen.set(id, (seen.get(id) ?? 0) + 1);
	}
	return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}

describe.each(ACCOUNTS)('exactly once on a $kind account', (account) => {
	it('another key of the same account (t2 Create, then t3 Create Many) files no row again', async () => {
		const rows = Array.from({ length: 6 }, (_, n) => row(n));
		const first = await run(account.t2, { operation: 'create', ...JSON_BODY }, rows);
		expect(first.error).toBeUndefined();
		expect(outcomes(first.output)).toEqual(rows.map(() => 'filed'));
		const again = await run(account.t3, { operation: 'createMany', ...JSON_BODY }, rows);
		expect(again.error).toBeUndefined();
		expect(outcomes(again.output)).toEqual(rows.map(() => account.again));
		expect(again.output!.map((o) => o.json.id)).toEqual(first.output!.map((o) => o.json.id));
		const stored = await storedUnder(account.t2, rows.map((r) => String(r.policy_number)));
		expect(stored).toHaveLength(6);
		expect(duplicates(stored)).toEqual([]);
	});

	it('the same invoice from Fields (both versions), JSON with stray spaces and nulls, Map Columns and the item as is: one invoice', async () => {
		const fields = {
			operation: 'create',
			inputMode: 'fields',
			policyNumber: 'EO-F',
			insuredName: 'Harbor Marine',
			stateCode: 'FL',
			netPremium: 2500,
			effectiveDate: '2026-04-01T00:00:00',
			expirationDate: '2027-04-01T00:00:00',
			fees: { fee: [{ type: 'policy_fee_broker', amount: 75 }, { type: 'inspection_fee', amount: 20 }] },
		};
		const first = await run(account.t2, fields, [{}]);
		expect(first.error).toBeUndefined();
		expect(outcomes(first.output)).toEqual(['filed']);
		const id = first.output![0].json.id;

		const json = {
			policy_number: ' EO-F ',
			insured_name: 'Harbor Marine  ',
			state_code: 'fl',
			net_premium: '2,500.00',
			effective_date: '04/01/2026',
			expiration_date: '2027-04-01',
			class_code: null,
			invoice_number: '',
			fees: [{ type: 'inspection_fee', amount: 20 }, { type: 'policy_fee_broker', amount: '$75' }],
		};
		const sheetRow = {
			'Policy Number': 'EO-F',
			'Insured Name': ' Harbor Marine',
			State: 'Florida',
			'Transaction Type': 'New',
			Premium: '$2,500',
			'Eff Date': '2026-04-01',
			'Exp Date': '04/01/2027',
			'Broker Policy Fee': '75',
			'Inspection Fee': '20.00',
			'Class Code': '',
		};
		const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
		const variants: Array<[string, IDataObject, IDataObject, number?]> = [
			['JSON', { operation: 'create', ...JSON_BODY }, json],
			['Map Columns', { operation: 'create', inputMode: 'columns', columns: AUTO }, sheetRow],
			['Input Item As Is', { operation: 'create', inputMode: 'inputItem' }, { ...json, type_code: 'NEW', class_code: '' }],
			// Version 2 bills the preview's taxes by default: the same invoice, other fees.
			['Fields, version 2', { ...fields, billTaxesFromPreview: false }, {}, 2],
			['Create Many, Map Columns', { operation: 'createMany', inputMode: 'columns', columns: AUTO }, sheetRow],
		];
		for (const [source, parameters, item, version] of variants) {
			const { output, error } = await run(account.t2, parameters, [item], { version });
			expect([source, error?.message]).toEqual([source, undefined]);
			expect([source, output![0].json.outcome, output![0].json.id]).toEqual([source, account.again, id]);
		}
		expect(await storedUnder(account.t2, ['EO-F'])).toHaveLength(1);
	});

	it('a fee written with the other code of its alias pair (one stored column) on a re-run: found, not filed again', async () => {
		const first = await run(account.t2, { operation: 'create', ...JSON_BODY }, [row(300, { fees: [{ type: 'slas_fee', amount: 4 }, { type: 'sl_tax', amount: 48.5 }] })]);
		expect(outcomes(first.output)).toEqual(['filed']);
		const other = row(300, { fees: [{ type: 'sl_tax', amount: 48.5 }, { type: 'clearinghouse_fee', amount: 4 }] });
		for (const operation of ['create', 'createMany']) {
			const again = await run(account.t3, { operation, ...JSON_BODY }, [other]);
			expect([operation, again.error?.message]).toEqual([operation, undefined]);
			expect([operation, again.output![0].json.outcome, again.output![0].json.id]).toEqual([operation, 'already_filed', first.output![0].json.id]);
		}
		expect(await storedUnder(account.t2, ['EO-300'])).toHaveLength(1);
	});

	it('a row refused locally stops a Concurrency 25 run before any call: nothing filed, and the message says so truly', async () => {
		const rows = Array.from({ length: 30 }, (_, n) => row(100 + n));
		rows[0] = { ...rows[0], effective_date: '02/30/2026' };
		const before = await remaining(account.t2);
		const { error, output } = await run(account.t2, { operation: 'create', ...JSON_BODY }, rows);
		expect(output).toBeUndefined();
		expect(error!.message).toMatch(/^Row 2 \(item 0\): Invalid input, nothing was sent: effective_date: Must be a valid date/);
		expect(error!.description).toContain('1 of 30 rows failed the checks made before any call; no row was sent.');
		// Only the two `remaining` reads reached the service.
		expect(before - (await remaining(account.t2))).toBe(1);
		expect(await storedUnder(account.t2, rows.map((r) => String(r.policy_number)))).toHaveLength(0);
	});

	it('a service refusal stops a Concurrency 25 run: the error names every row filed in flight with its invoice; a re-run files none twice', async () => {
		const rows = Array.from({ length: 30 }, (_, n) => row(200 + n));
		// Unknown company: only the service can tell, so row 4 passes the local checks.
		rows[3] = { ...rows[3], insurers: [{ company_id: 999 }] };
		const { error, output } = await run(account.t2, { operation: 'create', ...JSON_BODY }, rows);
		expect(output).toBeUndefined();
		expect(error!.message).not.toContain('nothing was sent');
		expect(error!.message).toContain('VALIDATION_ERROR');
		const policies = rows.map((r) => String(r.policy_number));
		const stored = await storedUnder(account.t2, policies);
		expect(stored.length).toBeGreaterThan(3);
		const byPolicy = new Map(stored.map((i) => [String(i.policy_number), i.id]));
		for (const [n, policy] of policies.entries()) {
			if (!byPolicy.has(policy)) continue;
			expect(error!.description).toContain(`row ${n + 2} (item ${n}) → invoice ${String(byPolicy.get(policy))} (filed)`);
		}
		expect(error!.description).toContain('They stay filed');

		rows[3] = row(203);
		const again = await run(account.t2, { operation: 'create', ...JSON_BODY }, rows);
		expect(again.error).toBeUndefined();
		for (const [n, policy] of policies.entries()) {
			expect([policy, again.output![n].json.outcome]).toEqual([policy, byPolicy.has(policy) ? account.again : 'filed']);
		}
		const after = await storedUnder(account.t2, policies);
		expect(after).toHaveLength(30);
		expect(duplicates(after)).toEqual([]);
	});

	it('ambiguous amounts and shares are refused naming the field; nothing filed, no wrong amount', async () => {
		const rows = [
			row(300, { net_premium: '1.500' }),
			row(301, { net_premium: '$12.345' }),
			row(302, { fees: [{ type: 'policy_fee_broker', amount: '1.003' }] }),
			row(303, { insurers: [{ company_id: 301, percent: 0.5 }, { company_id: 302, percent: 0.5 }] }),
			row(304, { effective_date: '1/1/0001' }),
			row(305, { effective_date: '2026-03-01T25:99' }),
		];
		const { output } = await run(account.t2, { operation: 'createMany', ...JSON_BODY }, rows, { continueOnFail: true });
		const fields = output!.map((o) => (o.json.fields as string[])[0]);
		expect(fields[0]).toMatch(/^net_premium: Must be a number: "1\.500" reads two ways .* write 1\.5 or 1500/);
		expect(fields[1]).toMatch(/^net_premium: Must be a number: "\$12\.345" reads two ways/);
		expect(fields[2]).toMatch(/^fees\[0\]\.amount: Must be a number: "1\.003" reads two ways/);
		expect(fields[3]).toMatch(/^insurers\[0\]\.percent: the percents 0\.5 \+ 0\.5 add up to 1, .*write them out of 100 \(50, 50/);
		expect(fields[4]).toMatch(/^effective_date: Must be a valid date: the year must be from 1900 to 2199/);
		expect(fields[5]).toMatch(/^effective_date: Must be a valid date: the time after the date is not a time of day/);
		expect(await storedUnder(account.t2, rows.map((r) => String(r.policy_number)))).toHaveLength(0);

		// Written the one way, they are filed with the amounts meant, each conversion listed.
		const plain = [row(300, { net_premium: '1,500.00' }), row(303, { insurers: [{ company_id: 301, percent: '50%' }, { company_id: 302, percent: 50 }], insured_address: { zip: 2108 } })];
		const filed = await run(account.t2, { operation: 'createMany', ...JSON_BODY }, plain);
		expect(filed.error).toBeUndefined();
		expect(filed.output![0].json).toMatchObject({ net_premium: 1500, _converted: [{ field: 'net_premium', from: '1,500.00', to: 1500 }] });
		expect(filed.output![1].json._converted).toEqual([
			{ field: 'insured_address.zip', from: 2108, to: '02108' },
			{ field: 'insurers[0].percent', from: '50%', to: 50 },
		]);
		const stored = await storedUnder(account.t2, ['EO-300', 'EO-303']);
		expect(stored.map((i) => i.net_premium).sort()).toEqual([1303, 1500]);
	});
});

describe('an unknown outcome is not forgotten for the rest of the run', () => {
	it('legacy: a lost reply whose look-up fails, then an identical row of the same run: found, not filed again', async () => {
		// Requests to /invoices in order: the look-first listing (kept), the create (stored, reply
		// lost), the look-up of it in 3 attempts (lost), then nothing more is faulted.
		const draws = [false, true, true, true, true];
		const settings = { lose_reply_after_commit: 0.5, path_prefix: '/invoices', count: draws.length };
		const seed = seedWhere(settings, 'GET', '/invoices', draws.map((want) => (plan) => plan.loseReply === want));
		await control('/faults', { ...settings, seed });
		const same = row(400);
		const { output } = await run('legacy-t2', { operation: 'create', ...JSON_BODY }, [same, { ...same }], { continueOnFail: true });
		expect(String(output![0].json.error)).toMatch(/outcome unknown, the invoice may have been filed/);
		expect(output![1].json.outcome).toBe('already_filed');
		const stored = await storedUnder('legacy-t2', ['EO-400']);
		expect(stored).toHaveLength(1);
		expect(output![1].json.id).toBe(stored[0].id);
	});

	it.each([
		['found on its policy by its mark (the look first)', {}, 'already_filed', 'mark '],
		// Without the look, the key alone must stop the second filing.
		['replayed by its key (Look for Rows Already Filed off: the key alone)', { lookFirst: false }, 'replayed', 'idempotency key'],
	] as const)('keyed: a lost reply whose resends fail, then an identical row of the same run: %s, one invoice', async (_, options, outcome, by) => {
		// The create and its 3 resends with the same key: every reply lost. One item at a time, so
		// the identical row comes after.
		await control('/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 4 });
		const same = row(401);
		const parameters = { operation: 'create', ...JSON_BODY, options, requestOptions: { concurrency: 1 } };
		const { output } = await run('t2', parameters, [same, { ...same }], { continueOnFail: true });
		expect(String(output![0].json.error)).toMatch(/outcome unknown, the invoice may have been filed/);
		expect(output![1].json.outcome).toBe(outcome);
		expect(String(output![1].json.recognisedBy)).toContain(by);
		const stored = await storedUnder('t2', ['EO-401']);
		expect(stored).toHaveLength(1);
		expect(output![1].json.id).toBe(stored[0].id);
	});

	it('legacy: when the policy still does not show it, the identical row is filed but says it may be there twice', async () => {
		// The create fails with a 500 the service did not carry out, then the look-up fails: the
		// first row's outcome is unknown to the node; the identical row finds nothing and is sent.
		const draws = [false, true, true, true, true];
		const settings = { error_500: 0.5, path_prefix: '/invoices', count: draws.length };
		const seed = seedWhere(settings, 'GET', '/invoices', draws.map((want) => (plan) => plan.error500 === want));
		await control('/faults', { ...settings, seed });
		const same = row(402);
		const { output } = await run('legacy-t2', { operation: 'create', ...JSON_BODY }, [same, { ...same }], { continueOnFail: true });
		expect(String(output![0].json.error)).toMatch(/outcome unknown, the invoice may have been filed/);
		expect(output![1].json.outcome).toBe('sent_again');
		expect(String(output![1].json.outcomeNote)).toContain('policy EO-402');
		expect(await storedUnder('legacy-t2', ['EO-402'])).toHaveLength(1);
	});
});

describe('the first run on an account with keys: looked for first like every account, no account check', () => {
	it('Create Many of 10,000 rows on a keyed t3 account makes 21 calls: one read of the account’s listing (not 10,000 policy listings) and 20 batches', async () => {
		const rows = Array.from({ length: 10_000 }, (_, n) => row(20_000 + n));
		const before = await remaining('t3');
		const { output, error } = await run('t3', { operation: 'createMany', ...JSON_BODY }, rows);
		expect(error).toBeUndefined();
		expect(outcomes(output).filter((o) => o !== 'filed')).toEqual([]);
		// This check's own call is not the run's.
		const spent = before - (await remaining('t3')) - 1;
		expect(spent).toBe(21);
		process.stdout.write(`first run, keyed t3: ${rows.length} rows of ${rows.length} policies cost ${spent} calls\n`);
		// 10,000 rows take 15 s on 2 free cores: room for shared ones.
	}, 180_000);

	it('a single Create on a keyed t2 account: the policy’s listing and the create, no account check', async () => {
		const before = await remaining('t2');
		const { output } = await run('t2', { operation: 'create', ...JSON_BODY }, [row(520)]);
		expect(outcomes(output)).toEqual(['filed']);
		expect(before - (await remaining('t2')) - 1).toBe(2);
	});
});
