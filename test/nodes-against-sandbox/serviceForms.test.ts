/**
 * The sandbox shows stored invoices in a service's own forms (its forms switch): the same sheet
 * run twice, and run after a lost reply, stores each row once on every account kind and
 * operation; a transaction entered by hand alike in all that tells transactions apart is refused
 * naming its id (or filed, or taken as filed, by the setting); recovery never takes an older
 * transaction as its own; look-alike rows of one run are matched one to one.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { RERUN_CASES, useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	// The node's clock is the real one moved by its own waits: the sandbox stamps `created` in real time.
	fake = useFakeClock(Date.now());
});
afterEach(() => fake.restore());

const { api, control, storedUnder: stored } = sandboxCalls(sb);
const JSON_BODY = { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' };

function run(keyName: string, operation: string, items: IDataObject[], options: IDataObject = {}) {
	return runNode({
		node: new SurplusLinesInvoice(),
		// Idempotency sits on the main panel in version 1, under Options in version 2: set both.
		parameters: { resource: 'invoice', operation, ...JSON_BODY, ...(options.idempotency ? { idempotency: options.idempotency } : {}), options },
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail: true,
	});
}

const showForms = (mode: 'all' | 'per_invoice') => control('/forms', { forms: 'all', mode });

/** Rows each form bites on: spaces, a trailing period, leading zeros, a 100 percent, no commission, a sub-cent premium, two `other` fees. */
function sheet(p: string): IDataObject[] {
	return [1, 2, 3].map((n) => ({
		policy_number: `${p}-${n}`,
		insured_name: 'Harbor  Marine Co.',
		state_code: 'TX',
		type_code: 'NEW',
		effective_date: '2026-03-01',
		expiration_date: '2027-03-01',
		invoice_number: `inv-00${n}`,
		net_premium: 1000.125,
		insurers: [{ company_id: 301, percent: 100 }],
		fees: [
			{ type: 'other', amount: 10 },
			{ type: 'other', amount: 15.5 },
		],
	}));
}
const policiesOf = (rows: IDataObject[]) => rows.map((r) => String(r.policy_number));
const outcomes = (output: Array<{ json: IDataObject }> | undefined) => (output ?? []).map((o) => o.json.outcome ?? o.json.error);

describe.each(RERUN_CASES)('forms switch on: $key $operation', ({ key, operation, again }) => {
	it.each(['all', 'per_invoice'] as const)('the same sheet run twice stores each row once (forms: %s)', async (mode) => {
		await showForms(mode);
		const rows = sheet(`SF${key.replace(/\W/g, '')}${operation.length}${mode.length}`);
		const first = await run(key, operation, rows);
		expect(outcomes(first.output)).toEqual(rows.map(() => 'filed'));
		const second = await run(key, operation, rows);
		expect(outcomes(second.output)).toEqual(rows.map(() => again));
		expect(second.output!.map((o) => o.json.id)).toEqual(first.output!.map((o) => o.json.id));
		if (again === 'already_filed') {
			const compared = second.output![0].json.outcomeCompared as IDataObject;
			expect(String(second.output![0].json.outcomeNote)).toContain('matched only in form');
			expect(compared).toBeDefined();
		}
		expect(await stored(key, policiesOf(rows))).toHaveLength(rows.length);
	});

	it('run after a lost reply, then again: each row stored once', async () => {
		await showForms('all');
		const rows = sheet(`LF${key.replace(/\W/g, '')}${operation.length}`);
		await control('/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });
		const first = await run(key, operation, rows);
		expect(outcomes(first.output)).toEqual(rows.map(() => 'filed'));
		expect(new Set(first.output!.map((o) => o.json.id)).size).toBe(rows.length);
		const second = await run(key, operation, rows);
		expect(outcomes(second.output)).toEqual(rows.map(() => again));
		expect(await stored(key, policiesOf(rows))).toHaveLength(rows.length);
	});
});

describe('a transaction entered by hand, alike in all that tells transactions apart', () => {
	const row: IDataObject = { ...sheet('HAND')[0], fees: [{ type: 'policy_fee_broker', amount: 75 }] };
	/** The same policy, state, type, dates, premium and insurer, without the invoice number and fees. */
	async function enterByHand(key: string): Promise<number> {
		const rest: IDataObject = { ...row };
		delete rest.invoice_number;
		delete rest.fees;
		const res = await api(key).post('/invoices', rest);
		expect(res.status).toBe(201);
		return res.data.data.id as number;
	}

	it.each([
		['legacy-t2', 'create'],
		['legacy-t3', 'createMany'],
	] as const)('%s %s: refused by default, naming its id and each differing field with both values; nothing filed', async (key, operation) => {
		await showForms('all');
		const id = await enterByHand(key);
		const { output } = await run(key, operation, [row]);
		const json = output![0].json;
		expect(json.outcome).toBeUndefined();
		expect(String(json.error)).toContain(`Invoice ${id} on policy ${row.policy_number} may be this row's filing`);
		expect(String(json.error)).toContain('invoice_number (inv-001 in the row, none stored)');
		expect(String(json.error)).toMatch(/fees \(policy_fee_broker:75 in the row, none stored\)/);
		expect(await stored(key, [String(row.policy_number)])).toHaveLength(1);
	});

	it('File Anyway files it, naming the look-alike; Take It as Filed returns the stored invoice', async () => {
		await showForms('all');
		const id = await enterByHand('legacy-t2');
		const taken = await run('legacy-t2', 'create', [row], { lookAlike: 'takeAsFiled' });
		expect([taken.output![0].json.outcome, taken.output![0].json.id]).toEqual(['already_filed', id]);
		expect(String(taken.output![0].json.outcomeNote)).toContain(`invoice ${id}`);
		const filed = await run('legacy-t3', 'createMany', [row], { lookAlike: 'file' });
		expect(filed.output![0].json.outcome).toBe('filed');
		expect(String(filed.output![0].json.outcomeNote)).toContain(`Filed beside invoice ${id}`);
		expect(await stored('legacy-t2', [String(row.policy_number)])).toHaveLength(2);
	});
});

describe('recovery never takes an older transaction as its own (fault 1)', () => {
	it.each([
		['t2', { idempotency: 'off' }],
		['legacy-t2', { lookFirst: false }],
	] as const)('%s %j: a 500 (nothing stored) after an identical filing a minute earlier: filed again, not the older id', async (key, options) => {
		const rows = sheet(`OLD${key.replace(/\W/g, '')}`).slice(0, 1);
		const first = await run(key, 'create', rows, options);
		expect(first.output![0].json.outcome).toBe('filed');
		// A minute later on the service's own clock (the window is measured on it, never n8n's).
		await control('/forms', { forms: [], clock_offset_seconds: 60 });
		await control('/faults', { error_500: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });
		const second = await run(key, 'create', rows, options);
		expect(second.output![0].json.id).not.toBe(first.output![0].json.id);
		expect(second.output![0].json.outcome).toBe('sent_again');
		expect(await stored(key, policiesOf(rows))).toHaveLength(2);
	});
});

describe('look-alike rows of one run (alike in all the listing shows): matched one to one', () => {
	const rows = (p: string) => {
		const base = sheet(p)[0];
		return [
			{ ...base, policy_limit: 1_000_000, class_code: '91111' },
			{ ...base, policy_limit: 2_000_000, class_code: '91111' },
		];
	};
	it.each([
		['legacy-t2', 'create'],
		['legacy-t3', 'create'],
		['legacy-t3', 'createMany'],
		['t2', 'create'],
		['t3', 'createMany'],
	] as const)('%s %s: both filed (faults 3), a re-run finds each once; two rows and one stored file one', async (key, operation) => {
		await showForms('per_invoice');
		const two = rows(`LA${key.replace(/\W/g, '')}${operation.length}`);
		const first = await run(key, operation, two);
		expect(outcomes(first.output)).toEqual(['filed', 'filed']);
		expect(new Set(first.output!.map((o) => o.json.id)).size).toBe(2);
		// Found on the policy by the look first, on keyed accounts too (a key replays for 24 hours only).
		const second = await run(key, operation, two);
		const again = 'already_filed';
		expect(outcomes(second.output)).toEqual([again, again]);
		expect(new Set(second.output!.map((o) => o.json.id)).size).toBe(2);
		expect(String(second.output![1].json.outcomeNote ?? '')).not.toContain('Identical to row 2');
		expect(await stored(key, policiesOf(two))).toHaveLength(2);

		const other = rows(`LB${key.replace(/\W/g, '')}${operation.length}`);
		await run(key, operation, [other[0]]);
		const both = await run(key, operation, other);
		expect(outcomes(both.output)).toEqual([again, 'filed']);
		expect(await stored(key, policiesOf(other))).toHaveLength(2);
	});

	it('legacy-t3 Create Many, a lost batch reply: each row gets its own invoice (fault 2)', async () => {
		const two = rows('LOSTB');
		await control('/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices/batch', count: 1 });
		const { output } = await run('legacy-t3', 'createMany', two);
		expect(outcomes(output)).toEqual(['filed', 'filed']);
		expect(new Set(output!.map((o) => o.json.id)).size).toBe(2);
		expect(await stored('legacy-t3', policiesOf(two))).toHaveLength(2);
	});
});
