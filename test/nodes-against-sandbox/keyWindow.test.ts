/**
 * A key replays a create for 24 hours only (service-api.md; the sandbox forgets it after that).
 * The same sheet run again a day later, on every kind of account and with both filing operations,
 * files nothing twice: each row is found on its policy by the package's mark. A corrected New a
 * day later (another premium) is asked, never filed beside the first. Create and Create Many read
 * the account's listing where that takes fewer calls than one listing per policy.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { EVERY_ACCOUNT_AND_OPERATION, useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';
import { invoiceBody } from '../sandbox/testkit';

const sb = useSandboxSuite();
const { api, control, storedUnder, remaining } = sandboxCalls(sb);

function run(keyName: string, operation: string, items: IDataObject[]) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: {
			resource: 'invoice',
			operation,
			inputMode: 'json',
			invoiceJson: '={{ JSON.stringify($json) }}',
			billTaxesFromPreview: false,
			options: {},
		},
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail: true,
		settings: { typeVersion: 3 },
	});
}

const row = (policy: string, extra: IDataObject = {}): IDataObject => ({
	policy_number: policy,
	insured_name: 'Harbor Marine Repair LLC',
	state_code: 'TX',
	net_premium: 12000,
	effective_date: '2026-03-01',
	expiration_date: '2027-03-01',
	type_code: 'NEW',
	...extra,
});

/** The service's clock a day and an hour ahead: every key it holds is past its 24 hours. */
const aDayLater = async () => await control('/forms', { clock_offset_seconds: 25 * 3600 });

const outcomes = (output: Array<{ json: IDataObject }> | undefined) =>
	(output ?? []).map((o) => o.json.outcome ?? o.json.code ?? o.json.error);

describe.each(EVERY_ACCOUNT_AND_OPERATION)('%s %s: the same sheet a day later', (key, operation) => {
	const policies = [`DAY-${key}-${operation}-1`, `DAY-${key}-${operation}-2`];

	it('files nothing twice: each row found on its policy by its mark', async () => {
		const rows = policies.map((p) => row(p));
		const first = await run(key, operation, rows);
		expect(outcomes(first.output)).toEqual(['filed', 'filed']);
		await aDayLater();
		const again = await run(key, operation, rows);
		expect(outcomes(again.output)).toEqual(['already_filed', 'already_filed']);
		expect(again.output!.map((o) => o.json.recognisedBy)).toEqual(
			first.output!.map((o) => `mark ${String(o.json.invoice_number)}`),
		);
		expect(again.output!.map((o) => o.json.id)).toEqual(first.output!.map((o) => o.json.id));
		expect((await storedUnder(key, policies)).map((i) => i.policy_number)).toEqual(policies);
	});

	it('a corrected New a day later is refused naming the first, not filed beside it', async () => {
		await run(key, operation, [row(policies[0])]);
		await aDayLater();
		const corrected = await run(key, operation, [row(policies[0], { net_premium: 12500 })]);
		expect(outcomes(corrected.output)).toEqual(['LOOK_ALIKE_ON_POLICY']);
		expect(String(corrected.output![0].json.error)).toContain('net_premium (12500 in the row, 12000 stored)');
		expect((await storedUnder(key, [policies[0]])).map((i) => i.net_premium)).toEqual([12000]);
	});
});

describe('The look reads the account’s listing where it takes fewer calls', () => {
	const sheet = (prefix: string) => Array.from({ length: 12 }, (_, i) => row(`${prefix}-${i + 1}`));

	it.each([
		['t3', 'createMany', 1],
		['t2', 'create', 12],
	] as const)('%s %s, 12 policies on a small account: one listing of the account, not twelve', async (key, operation, filingCalls) => {
		const before = await remaining(key);
		const first = await run(key, operation, sheet(`ACCT-${operation}`));
		// The account's listing (empty), then the filing calls; the remaining() check spends one.
		expect(before - (await remaining(key)) - 1).toBe(1 + filingCalls);
		expect(outcomes(first.output)).toEqual(Array(12).fill('filed'));
		await aDayLater();
		const mid = await remaining(key);
		const again = await run(key, operation, sheet(`ACCT-${operation}`));
		// One page of the account holds all 12: every row found, nothing sent.
		expect(mid - (await remaining(key)) - 1).toBe(1);
		expect(outcomes(again.output)).toEqual(Array(12).fill('already_filed'));
	});

	it('an account larger than the sheet’s policies: each policy listed', async () => {
		// 1,500 invoices on other policies: 14 pages after the first, more than the sheet's 10 policies.
		for (let batch = 0; batch < 3; batch++) {
			const invoices = Array.from({ length: 500 }, (_, i) => invoiceBody({ policy_number: `OTHER-${batch}-${i}` }));
			await api('t3').post('/invoices/batch', { invoices });
		}
		const policies = sheet('BIG').slice(0, 10);
		const before = await remaining('t3');
		const filed = await run('t3', 'createMany', policies);
		// The account's size (one page), then each policy, then one batch.
		expect(before - (await remaining('t3')) - 1).toBe(1 + 10 + 1);
		expect(outcomes(filed.output)).toEqual(Array(10).fill('filed'));
	});

});

describe('A book of tens of thousands: the look follows the sheet', () => {
	const rows = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => row(`${prefix}-${i + 1}`));
	const hints = (run: Awaited<ReturnType<typeof runNode>>) =>
		Object.values(run.run.data.resultData.runData).flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string }>).map((h) => h.message);

	it.each(['t3', 'legacy-t3'])('%s: 400 policies on an account of 12,000 read its 120 pages at once, and a day later file nothing twice', async (key) => {
		await control('/seed', { count: 12_000, key, prefix: 'BOOK' });
		const sheet = rows(`WIDE-${key}`, 400);
		const before = await remaining(key);
		const first = await run(key, 'createMany', sheet);
		// Page 1, then pages 2-120 (more than one listing's 100-page cap, fewer than 400 policy
		// listings), then one batch.
		expect(before - (await remaining(key)) - 1).toBe(1 + 119 + 1);
		expect(outcomes(first.output)).toEqual(Array(400).fill('filed'));
		expect(hints(first).join('\n')).toMatch(/The look for rows already filed: 120 calls in \d+\.\d s \(Read the account’s listing \(12000 invoices: 120 pages.*; the filing: 1 call in \d+\.\d s of the run’s \d+\.\d s\./);
		await aDayLater();
		const mid = await remaining(key);
		const again = await run(key, 'createMany', sheet);
		// 12,400 invoices: 124 pages; nothing sent.
		expect(mid - (await remaining(key)) - 1).toBe(124);
		expect(outcomes(again.output)).toEqual(Array(400).fill('already_filed'));
		expect((await storedUnder(key, sheet.map((r) => String(r.policy_number)))).length).toBe(400);
	});

	it('a sheet of 12 policies on an account of 12,000 lists its policies, never the book', async () => {
		await control('/seed', { count: 12_000, key: 't3', prefix: 'BOOK' });
		const before = await remaining('t3');
		const filed = await run('t3', 'createMany', rows('FEW', 12));
		// Page 1 (the account's size), 12 policy listings, one batch: the 119 other pages are not read.
		expect(before - (await remaining('t3')) - 1).toBe(1 + 12 + 1);
		expect(outcomes(filed.output)).toEqual(Array(12).fill('filed'));
	});
});
