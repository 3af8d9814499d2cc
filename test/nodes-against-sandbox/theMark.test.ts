/**
 * The mark the package writes on every filing (filing/mark.ts), against a service whose clock is
 * not n8n's (90 s behind or ahead, an hour off) and whose forms are not the sandbox's own (every
 * form: dates as Central timestamps, money as strings, "&" as AND, punctuation and accents
 * dropped, extra fields): on legacy t2 Create and legacy t3 Create Many, the same sheet twice and
 * after a lost reply (connection dropped, a gateway's 502, a timeout) stores every row once,
 * refuses none and drops none as already filed; two endorsements a day apart without invoice
 * numbers, and two whose references differ by a suffix, are both stored, in one run and split
 * over two.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { derivedMark } from '../../nodes/filing/mark';
import { runNode } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	// The node's clock is the real one moved by its own waits; the service's is offset from it.
	fake = useFakeClock(Date.now());
});
afterEach(() => fake.restore());

const { control, storedUnder: stored } = sandboxCalls(sb);
const JSON_BODY = { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' };

function run(keyName: string, operation: string, items: IDataObject[], options: IDataObject = {}, timeoutSeconds?: number) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: {
			resource: 'invoice',
			operation,
			...JSON_BODY,
			options,
			...(timeoutSeconds ? { requestOptions: { timeoutSeconds } } : {}),
		},
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail: true,
	});
}

/** New rows on policies that hold nothing yet, two endorsements a day apart, two references a suffix apart. */
function sheet(p: string): IDataObject[] {
	const base = { state_code: 'TX', expiration_date: '2027-03-01', insurers: [{ company_id: 301, percent: 100 }] };
	const endorsement = { ...base, policy_number: `${p}-END`, insured_name: 'Harbor Marine Co.', type_code: 'ENDORSEMENT', net_premium: 500 };
	return [
		{ ...base, policy_number: `${p}-1`, insured_name: "Café O'Brien & Sons, L.L.C.", type_code: 'NEW', effective_date: '2026-03-01', net_premium: 1000.125 },
		{ ...base, policy_number: `${p}-2`, insured_name: 'Smith & Jones Incorporated', type_code: 'NEW', effective_date: '2026-03-01', net_premium: 2400, fees: [{ type: 'other', amount: 10 }, { type: 'other', amount: 15.5 }] },
		{ ...endorsement, effective_date: '2026-03-01' },
		{ ...endorsement, effective_date: '2026-03-02' },
		{ ...endorsement, effective_date: '2026-04-01', invoice_number: 'END-7' },
		{ ...endorsement, effective_date: '2026-04-01', invoice_number: 'END-7A' },
	];
}
const policiesOf = (rows: IDataObject[]) => rows.map((r) => String(r.policy_number));
const outcomes = (output: Array<{ json: IDataObject }> | undefined) => (output ?? []).map((o) => o.json.outcome ?? o.json.error);
const prefix = (...parts: Array<string | number>) => parts.join('').replace(/\W/g, '').slice(0, 14);

/** The service's forms, all at once or one per invoice, and its clock `offset` seconds from the real one. */
const service = (mode: 'all' | 'per_invoice', offset: number) => control('/forms', { forms: 'all', mode, clock_offset_seconds: offset });

const LOST_REPLIES = {
	drop: { lose_reply_after_commit: 1 },
	'502': { bad_gateway_after_commit: 1 },
	timeout: { delay_ms: 2500, delay_after_commit: true },
} as const;

const CASES = [
	['legacy-t2', 'create'],
	['legacy-t3', 'createMany'],
] as const;

describe.each([-90, 90, 3600])('a service clock %i s off n8n’s', (offset) => {
	describe.each(CASES)('%s %s', (key, operation) => {
		it.each(['all', 'per_invoice'] as const)('the same sheet twice: every row stored once, recognised by its mark (forms: %s)', async (mode) => {
			await service(mode, offset);
			const rows = sheet(prefix('MK', key, operation.length, mode.length, offset));
			const first = await run(key, operation, rows);
			expect(outcomes(first.output)).toEqual(rows.map(() => 'filed'));
			// Each row without an invoice number carries its mark; the others keep their own.
			expect(first.output!.map((o) => o.json.invoice_number)).toEqual(rows.map((r) => r.invoice_number ?? derivedMark(r)));
			const second = await run(key, operation, rows);
			expect(outcomes(second.output)).toEqual(rows.map(() => 'already_filed'));
			expect(second.output!.map((o) => o.json.id)).toEqual(first.output!.map((o) => o.json.id));
			expect(second.output!.map((o) => String(o.json.recognisedBy))).toEqual(
				rows.map((r) => `mark ${String(r.invoice_number ?? derivedMark(r)).toUpperCase()}`),
			);
			expect(await stored(key, policiesOf(rows))).toHaveLength(rows.length);
		});

		it.each(Object.keys(LOST_REPLIES) as Array<keyof typeof LOST_REPLIES>)('after a lost reply (%s), then again: every row stored once, none sent again', async (fault) => {
			await service('all', offset);
			const rows = sheet(prefix('LR', key, operation.length, fault, offset));
			await control('/faults', { ...LOST_REPLIES[fault], methods: ['POST'], path_prefix: '/invoices', count: 1 });
			const first = await run(key, operation, rows, {}, fault === 'timeout' ? 1 : undefined);
			expect(outcomes(first.output)).toEqual(rows.map(() => 'filed'));
			expect(first.output!.some((o) => o.json._recovered === true)).toBe(true);
			expect(new Set(first.output!.map((o) => o.json.id)).size).toBe(rows.length);
			expect(await stored(key, policiesOf(rows))).toHaveLength(rows.length);
			const second = await run(key, operation, rows);
			expect(outcomes(second.output)).toEqual(rows.map(() => 'already_filed'));
			expect(await stored(key, policiesOf(rows))).toHaveLength(rows.length);
		});

		it('endorsements split over two runs: the second of each pair is filed, not dropped as the first', async () => {
			await service('all', offset);
			const rows = sheet(prefix('SP', key, operation.length, offset));
			// The later day and the suffixed reference first (a date shown as the day's UTC midnight in
			// US Central reads as the day before too).
			const firstRun = [rows[3], rows[5]];
			expect(outcomes((await run(key, operation, firstRun)).output)).toEqual(['filed', 'filed']);
			const second = await run(key, operation, rows);
			expect(outcomes(second.output)).toEqual(['filed', 'filed', 'filed', 'already_filed', 'filed', 'already_filed']);
			expect(await stored(key, policiesOf(rows))).toHaveLength(rows.length);
		});
	});

	it('legacy-t2 Create without the look first: a lost reply is found in the window on the service’s clock', async () => {
		await service('all', offset);
		const rows = sheet(prefix('WN', offset)).slice(0, 2);
		await control('/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });
		const { output } = await run('legacy-t2', 'create', rows, { lookFirst: false });
		expect(outcomes(output)).toEqual(['filed', 'filed']);
		expect(output![0].json._recovered).toBe(true);
		expect(await stored('legacy-t2', policiesOf(rows))).toHaveLength(2);
	});
});

describe('one New per policy term', () => {
	it.each(CASES)('%s %s: a second New of the same policy and term with another premium is asked, naming the first', async (key, operation) => {
		const row: IDataObject = { policy_number: `ONE${key.replace(/\W/g, '')}`, insured_name: 'Acme LLC', state_code: 'TX', type_code: 'NEW', effective_date: '2026-03-01', expiration_date: '2027-03-01', net_premium: 1000, insurers: [{ company_id: 301 }] };
		const first = await run(key, operation, [row]);
		expect(outcomes(first.output)).toEqual(['filed']);
		const { output } = await run(key, operation, [{ ...row, net_premium: 1200 }]);
		expect(String(output![0].json.error)).toContain(`Invoice ${String(first.output![0].json.id)} on policy ${String(row.policy_number)} may be this row's filing`);
		expect(String(output![0].json.error)).toContain('one per policy term');
		expect(await stored(key, [String(row.policy_number)])).toHaveLength(1);
	});
});

describe('the mark switched off', () => {
	it('legacy-t2 Create: filed without an invoice number; a re-run is still found where the forms decide', async () => {
		const row: IDataObject = { ...sheet('OFF')[1] };
		const first = await run('legacy-t2', 'create', [row], { writeMark: false });
		expect(first.output![0].json.invoice_number ?? null).toBeNull();
		const second = await run('legacy-t2', 'create', [row], { writeMark: false });
		expect([second.output![0].json.outcome, second.output![0].json.recognisedBy]).toEqual(['already_filed', 'forms']);
	});
});

describe('one New per policy term, in one run', () => {
	it.each([...CASES, ['t3', 'createMany'], ['t2', 'create']] as const)('%s %s: the second of two News of one term is refused naming the first row; File Anyway files both', async (key, operation) => {
		const row: IDataObject = { policy_number: `RUN${key.replace(/\W/g, '')}${operation.length}`, insured_name: 'Acme LLC', state_code: 'TX', type_code: 'NEW', effective_date: '2026-03-01', expiration_date: '2027-03-01', net_premium: 1000, insurers: [{ company_id: 301 }] };
		const rows = [row, { ...row, net_premium: 1200 }];
		const { output } = await run(key, operation, rows);
		expect(output![0].json.outcome).toBe('filed');
		expect(String(output![1].json.error)).toContain('for the same term as row 2 of this run');
		expect(await stored(key, [String(row.policy_number)])).toHaveLength(1);
		// The first row is found on its policy by the look first, on keyed accounts too (a key replays for 24 hours only).
		const both = await run(key, operation, rows, { lookAlike: 'file' });
		expect(outcomes(both.output)).toEqual(['already_filed', 'filed']);
		expect(both.output![0].json.recognisedBy).toBe(`mark ${derivedMark(row)}`);
		expect(await stored(key, [String(row.policy_number)])).toHaveLength(2);
	});
});
