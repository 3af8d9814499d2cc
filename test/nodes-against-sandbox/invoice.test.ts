/**
 * The Invoice node in n8n's engine against the local sandbox (real HTTP, real envelope, real
 * faults): the main flows, and a lost reply on a legacy account that must leave one invoice.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { useFakeClock } from '../helpers/fakeClock';
import { clock } from '../../nodes/shared/timing';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;

beforeEach(() => {
	fake = useFakeClock();
});
afterEach(() => fake.restore());

const row = (overrides: IDataObject = {}): IDataObject => ({
	policy_number: 'SB-1',
	insured_name: 'Acme Roofing LLC',
	state_code: 'TX',
	net_premium: 1000,
	effective_date: '2026-01-01',
	expiration_date: '2027-01-01',
	...overrides,
});

function run(keyName: string, parameters: IDataObject, items: IDataObject[] = [{}], continueOnFail = false) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...parameters },
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail,
	});
}

const json = (operation: string, extra: IDataObject = {}) => ({ operation, inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}', ...extra });

async function control(path: string, body: IDataObject = {}) {
	const origin = sb.baseUrl.replace(/\/api\/v1$/, '');
	const res = await fetch(`${origin}/_sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	expect(res.status).toBeLessThan(300);
}

async function stored(keyName: string, policyNumber: string): Promise<IDataObject[]> {
	const res = await fetch(`${sb.baseUrl}/invoices?policy_number=${policyNumber}&per_page=100`, {
		headers: { authorization: `Bearer ${keyByName(keyName).key}` },
	});
	return ((await res.json()) as { data: { invoices: IDataObject[] } }).data.invoices;
}

/** Calls left in the key's hour (this check spends one). */
async function remaining(keyName: string): Promise<number> {
	const res = await fetch(`${sb.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${keyByName(keyName).key}` } });
	return Number(res.headers.get('x-ratelimit-remaining'));
}

const loseNextCreateReply = () => control('/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });

describe('Invoice node against the sandbox', () => {
	it('Create, Get, Update, Get Many, Delete', async () => {
		const created = await run('t2', json('create'), [row({ fees: [{ type: 'policy_fee_company', amount: 150 }] })]);
		expect(created.error).toBeUndefined();
		const invoice = created.output![0].json;
		expect(invoice).toMatchObject({ id: 1001, policy_number: 'SB-1', status: 'new', net_premium: 1000, type: { id: 1, name: 'New' } });
		expect(invoice.fees).toEqual([{ type: 'policy_fee_company', amount: 150 }]);
		const id = { __rl: true, mode: 'id', value: '1001' };

		const read = await run('t2', { operation: 'get', invoiceId: id, simplify: true });
		expect(read.output![0].json).toEqual({
			id: 1001, policy_number: 'SB-1', type: 'New', status: 'new', filed: false, state: 'TX', net_premium: 1000, fees_total: 150, warnings: [],
			filing_state: 'not_sent', confirmation_number: null, filing_message: null,
		});

		const updated = await run('t2', json('update', { invoiceId: id }), [{ commission: 120 }]);
		expect(updated.output![0].json).toMatchObject({ id: 1001, commission: 120, net_premium: 1000 });

		await run('t2', json('create'), [row({ type_code: 'ENDORSEMENT', net_premium: -200, effective_date: '2026-06-01' })]);
		const many = await run('t2', { operation: 'getAll', policyNumber: 'SB-1', returnAll: true, simplify: true });
		expect(many.output!.map((o) => [o.json.id, o.json.type, o.json.net_premium])).toEqual([[1001, 'New', 1000], [1002, 'Endorsement', -200]]);

		const deleted = await run('t2', { operation: 'delete', invoiceId: id });
		expect(deleted.output![0].json).toEqual({ id: 1001, deleted: true });
		expect((await stored('t2', 'SB-1')).map((i) => i.id)).toEqual([1002]);
		// The same delete again (as a resend after a lost reply would) finds it gone: still a success.
		const again = await run('t2', { operation: 'delete', invoiceId: id });
		expect(again.error).toBeUndefined();
		expect(again.output![0].json).toMatchObject({ id: 1001, deleted: true, already_gone: true });
	});

	it('the same create twice on a new-features account: the second is found on its policy by its mark, not sent (one invoice stored)', async () => {
		const first = await run('t2', json('create'), [row()]);
		const beforeSecond = await remaining('t2');
		const second = await run('t2', json('create'), [row()]);
		expect(first.output![0].json._replayed).toBeUndefined();
		expect(second.output![0].json).toMatchObject({
			id: first.output![0].json.id,
			outcome: 'already_filed',
			recognisedBy: `mark ${String(first.output![0].json.invoice_number)}`,
		});
		expect(second.output![0].json._replayed).toBeUndefined();
		// The policy's listing and the `remaining` read: no create was sent.
		expect(beforeSecond - (await remaining('t2'))).toBe(1 + 1);
		expect(await stored('t2', 'SB-1')).toHaveLength(1);
	});

	it('lost reply on a new-features account: resent with the same key, replayed, one invoice stored', async () => {
		// The look first finds nothing on the new policy, so the row is sent with its key.
		await loseNextCreateReply();
		const { output, error } = await run('t2', json('create'), [row()]);
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1001, _replayed: true });
		expect(await stored('t2', 'SB-1')).toHaveLength(1);
	});

	it('lost reply on a legacy account: recovered from the policy list, exactly one invoice stored', async () => {
		await loseNextCreateReply();
		const { output, error } = await run('legacy-t2', json('create'), [row({ net_premium: 1234.56 })]);
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1001, net_premium: 1234.56, _recovered: true });
		expect(await stored('legacy-t2', 'SB-1')).toHaveLength(1);
	});

	it('timed-out create on a legacy account: the service stores it late; the node waits, finds it, exactly one stored', async () => {
		// Real time here: the sandbox holds the first POST 4.5 s and then stores it, the node gives
		// up after 2 s, waits 2 s and looks (usually too early), then looks again at Max Wait for a
		// Lost Create, 8 s (found). Each step is seconds from the next, so a loaded machine keeps
		// the order; the 2 s Timeout also covers the look before filing and, after the timeout, the
		// account check.
		fake.restore();
		const waits: number[] = [];
		const realSleep = clock.sleep;
		clock.sleep = async (ms) => {
			waits.push(ms);
			await realSleep(ms);
		};
		try {
			await control('/faults', { delay_ms: 4500, methods: ['POST'], path_prefix: '/invoices', count: 1 });
			const { output, error } = await run(
				'legacy-t2',
				json('create', { requestOptions: { timeoutSeconds: 2 }, options: { lostCreateWaitSeconds: 8 } }),
				[row({ net_premium: 777 })],
			);
			expect(error).toBeUndefined();
			expect(output![0].json).toMatchObject({ id: 1001, net_premium: 777, _recovered: true });
			// Usually both looks; on a loaded machine the first look may come late enough to find it.
			expect(waits[0]).toBe(2000);
			expect(waits.length).toBeLessThanOrEqual(2);
			expect(await stored('legacy-t2', 'SB-1')).toHaveLength(1);
		} finally {
			clock.sleep = realSleep;
		}
	});

	it('a t1 key cannot create; the service is never asked', async () => {
		const { error } = await run('t1', json('create'), [row()]);
		expect(error!.message).toBe("Create an invoice needs a t2 (Standard) key or higher; this credential's key is t1 (Basic)");
		expect(await stored('t2', 'SB-1')).toHaveLength(0);
	});

	it('Bill Taxes From Preview files the computed tax lines', async () => {
		const preview = await run('t2', json('preview'), [row()]);
		const lines = ((preview.output![0].json.tax_calculation as IDataObject).line_items as IDataObject[]).map((l) => ({ type: l.code, amount: l.amount }));
		expect(lines.length).toBeGreaterThan(0);
		const { output, error } = await run('t2', json('create', { options: { billTaxesFromPreview: true } }), [row()]);
		expect(error).toBeUndefined();
		expect(output![0].json.fees).toEqual(lines);
	});

	it('Preview shows the tax figures without storing anything', async () => {
		const { output } = await run('t1', json('preview'), [row()]);
		const data = output![0].json as IDataObject;
		expect((data.tax_calculation as IDataObject).line_items).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'sl_tax' })]));
		expect(await stored('t2', 'SB-1')).toHaveLength(0);
	});

	it('409 once the state accepted the invoice', async () => {
		await run('t2', json('create'), [row()]);
		await control('/invoices/1001/status', { status: 'success' });
		const { error } = await run('t2', { operation: 'delete', invoiceId: { __rl: true, mode: 'id', value: '1001' } });
		expect(error!.message).toContain('the state accepted this invoice (status success), so it can no longer be deleted');
	});

	it('a rejected-and-kept invoice keeps its id on the error item', async () => {
		const { output } = await run('keeps-rejected-t2', json('create'), [row({ lob_id: 99 })], true);
		expect(output![0].json).toMatchObject({ code: 'VALIDATION_ERROR', keptInvoiceId: expect.any(Number), fields: ['lob_id: Referenced line_of_businesses not found'] });
		expect(String(output![0].json.requestId)).toMatch(/^req_[0-9a-f]{16}$/);
	});

	it('Create Many: 1,001 items with t3 in 3 batch calls after one read of the account; with t2 one listing and one create per item', async () => {
		const items = Array.from({ length: 1001 }, (_, i) => row({ policy_number: `B-${i}`, net_premium: 100 + i }));
		items[7] = { ...items[7], insurers: [{ company_id: 999 }] };
		const before = await remaining('t3');
		const t3 = await run('t3', json('createMany', { simplify: true }), items, true);
		// 3 batch calls, one read of the account's listing (1,001 policies on an empty account: one
		// page, fewer calls than a listing per policy) and the `remaining` read.
		expect(before - (await remaining('t3'))).toBe(3 + 1 + 1);
		expect(t3.output).toHaveLength(1001);
		expect(t3.output![7].json.code).toBe('VALIDATION_ERROR');
		expect(t3.output!.filter((o) => o.json.id !== undefined)).toHaveLength(1000);
		expect(t3.output![1000].json).toMatchObject({ policy_number: 'B-1000', net_premium: 1100 });

		const few = Array.from({ length: 3 }, (_, i) => row({ policy_number: `C-${i}` }));
		const beforeT2 = await remaining('t2');
		const t2 = await run('t2', json('createMany'), few);
		// 3 policies (fewer than 10: each listed on its own), 3 creates and the `remaining` read.
		expect(beforeT2 - (await remaining('t2'))).toBe(3 + 3 + 1);
		expect(t2.output!.map((o) => o.json.policy_number)).toEqual(['C-0', 'C-1', 'C-2']);
	});
});
