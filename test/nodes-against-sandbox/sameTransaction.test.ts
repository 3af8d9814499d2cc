/**
 * "The same transaction" is the same filing, on every account kind and operation, in n8n's
 * engine against the sandbox: rows of one policy that differ only in invoice number and insurer,
 * in state, or in insurer are each filed (none comes back already_filed with another row's
 * invoice), the same filings are stored whatever the account; a genuine re-run is still found
 * (already_filed, on every account: the look first), also after a lost reply.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { RERUN_CASES, useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';
import { seedWhere } from '../sandbox/faults';
import { derivedMark, isDerivedMark } from '../../nodes/filing/mark';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	// The node's clock is the real one moved by its own waits: the sandbox stamps `created` in real time.
	fake = useFakeClock(Date.now());
});
afterEach(() => fake.restore());

const { control, storedUnder: stored } = sandboxCalls(sb);

const JSON_BODY = { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' };

function run(keyName: string, operation: string, items: IDataObject[], options: IDataObject = {}) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', operation, ...JSON_BODY, options },
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail: true,
	});
}

/** Seven different filings on three policies (`p` keeps each test's policies apart). */
function sheet(p: string): IDataObject[] {
	const base = { insured_name: 'Harbor Marine LLC', expiration_date: '2027-01-01' };
	const endorsement = {
		...base,
		policy_number: `${p}-END`,
		state_code: 'TX',
		type_code: 'ENDORSEMENT',
		net_premium: 500,
		effective_date: '2026-03-01',
	};
	const term = { ...base, policy_number: `${p}-ST`, net_premium: 1200, effective_date: '2026-01-01' };
	const share = { ...base, policy_number: `${p}-INS`, state_code: 'TX', net_premium: 900, effective_date: '2026-01-01' };
	return [
		// Two same-day endorsements of 500, their own invoice numbers and insurers.
		{ ...endorsement, invoice_number: 'END-001', insurers: [{ company_id: 301 }] },
		{ ...endorsement, invoice_number: 'END-002', insurers: [{ company_id: 302 }] },
		// One policy filed in TX and in LA.
		{ ...term, state_code: 'TX' },
		{ ...term, state_code: 'LA' },
		// One row per insurer.
		{ ...share, insurers: [{ company_id: 303 }] },
		{ ...share, insurers: [{ company_id: 304 }] },
		{ ...share, insurers: [{ company_id: 305 }] },
	];
}

const policiesOf = (rows: IDataObject[]) => rows.map((r) => String(r.policy_number));

/** What a filing is, without the test's policy prefix and the service's ids: comparable across accounts. */
function filing(invoice: IDataObject): string {
	const insurers = ((invoice.insurers as IDataObject[]) ?? []).map((i) => i.company_id).join('+');
	const state = (invoice.state as IDataObject)?.code;
	const policy = String(invoice.policy_number).replace(/^[^-]+-/, '');
	// A derived mark holds the policy number: the same on every account, not across prefixes.
	const number = isDerivedMark(invoice.invoice_number) ? 'mark' : (invoice.invoice_number ?? '');
	return [policy, (invoice.type as IDataObject)?.name, state, number, insurers, invoice.net_premium].join('|');
}

const EXPECTED = sheet('X')
	.map((r) =>
		[
			String(r.policy_number).replace(/^[^-]+-/, ''),
			r.type_code === 'ENDORSEMENT' ? 'Endorsement' : 'New',
			r.state_code,
			r.invoice_number ?? 'mark',
			((r.insurers as IDataObject[]) ?? []).map((i) => i.company_id).join('+'),
			r.net_premium,
		].join('|'),
	)
	.sort();

describe.each(RERUN_CASES)('$key $operation', ({ key, operation, again }) => {
	it('different transactions of one policy are each filed (the same filings as on every account kind); a re-run files none again', async () => {
		const prefix = `ST${key.replace(/\W/g, '')}${operation.length}`;
		const rows = sheet(prefix);
		const first = await run(key, operation, rows);
		expect(first.error).toBeUndefined();
		const items = first.output!.map((o) => o.json);
		expect(items.map((j) => j.outcome)).toEqual(rows.map(() => 'filed'));
		// Each item is its own row's filing (not another row's invoice).
		// Each row without an invoice number carries its mark, the same on every account kind.
		expect(items.map((j) => j.invoice_number)).toEqual(rows.map((r) => r.invoice_number ?? derivedMark(r)));
		expect(items.map((j) => (j.state as IDataObject).code)).toEqual(rows.map((r) => r.state_code));
		const kept = await stored(key, policiesOf(rows));
		expect(kept.map(filing).sort()).toEqual(EXPECTED);

		const second = await run(key, operation, rows);
		expect(second.output!.map((o) => o.json.outcome)).toEqual(rows.map(() => again));
		expect(second.output!.map((o) => o.json.id)).toEqual(items.map((j) => j.id));
		expect(await stored(key, policiesOf(rows))).toHaveLength(rows.length);
	});
});

describe('a genuine re-run is found, what was compared is said', () => {
	it('legacy: the already_filed item lists the fields compared and those the listing cannot show', async () => {
		const row = { ...sheet('SC')[0], policy_limit: 1_000_000 };
		await run('legacy-t2', 'create', [row]);
		const { output } = await run('legacy-t2', 'create', [row]);
		const json = output![0].json;
		expect(json.outcome).toBe('already_filed');
		const compared = json.outcomeCompared as { compared: string[]; notComparable: string[] };
		expect(compared.compared).toEqual(expect.arrayContaining(['state', 'insured_name', 'type', 'effective_date', 'net_premium', 'invoice_number', 'insurers', 'fees']));
		expect(compared.notComparable).toEqual(['policy_limit (the listing does not show it)']);
		expect(String(json.outcomeNote)).toContain('Compared: policy_number, state');
	});
});

describe('after a lost reply, each row is recovered as its own filing', () => {
	/** The reply of the `nth` POST under /invoices is lost after the service stored it. */
	async function loseReplyOf(nth: number, path: string) {
		const settings = { lose_reply_after_commit: 0.5, methods: ['POST'], path_prefix: '/invoices', count: nth };
		const seed = seedWhere(settings, 'POST', path, Array.from({ length: nth }, (_, n) => (plan) => plan.loseReply === (n === nth - 1)));
		await control('/faults', { ...settings, seed });
	}

	it.each([
		['legacy-t2', 'create', '/invoices', 2],
		['t2', 'create', '/invoices', 2],
		['legacy-t3', 'createMany', '/invoices/batch', 1],
		['t3', 'createMany', '/invoices/batch', 1],
	] as const)('%s %s: the lost filing is found (not sent again), the other rows of the policy stay their own', async (key, operation, path, nth) => {
		const rows = sheet(`LR${key.replace(/\W/g, '')}`);
		await loseReplyOf(nth, path);
		// Create: the second create's reply is lost (whichever row it carries; the rows of one policy
		// go one after another). Create Many: the batch's.
		const { output, error } = await run(key, operation, rows);
		expect(error).toBeUndefined();
		const items = output!.map((o) => o.json);
		expect(items.map((j) => j.error)).toEqual(rows.map(() => undefined));
		expect(items.map((j) => j.outcome)).toEqual(rows.map(() => 'filed'));
		expect(items.some((j) => j._recovered === true)).toBe(true);
		// Each row without an invoice number carries its mark, the same on every account kind.
		expect(items.map((j) => j.invoice_number)).toEqual(rows.map((r) => r.invoice_number ?? derivedMark(r)));
		expect(items.map((j) => ((j.insurers as IDataObject[]) ?? []).map((i) => i.company_id))).toEqual(rows.map((r) => ((r.insurers as IDataObject[]) ?? []).map((i) => i.company_id)));
		const kept = await stored(key, policiesOf(rows));
		expect(kept.map(filing).sort()).toEqual(EXPECTED);
		expect(new Set(items.map((j) => j.id)).size).toBe(rows.length);
	});
});
