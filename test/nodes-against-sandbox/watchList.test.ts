/**
 * The watch list against the sandbox: one workflow files a bordereau and records what it filed,
 * another looks at the list on a schedule. The data table is the in-memory one
 * (test/helpers/memoryDataTable.ts): the test applies the examples' Data table steps (Insert,
 * Get, the conditional Update, Delete) between node runs, as n8n's Data table node would.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { watchListTable, type MemoryDataTable } from '../helpers/memoryDataTable';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	fake = useFakeClock();
});
afterEach(() => fake.restore());

async function run(parameters: IDataObject, items: IDataObject[]) {
	const result = await runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...parameters },
		items,
		credentials: { apiKey: keyByName('t2').key, baseUrl: sb.baseUrl },
	});
	if (result.error) throw result.error;
	return (result.output ?? []).map((o) => o.json);
}

async function control(path: string, body: IDataObject) {
	const res = await fetch(`${sb.baseUrl.replace(/\/api\/v1$/, '')}/_sandbox${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(res.status).toBe(200);
}

/** Calls left in the key's hour (this check spends one). */
async function remaining(): Promise<number> {
	const res = await fetch(`${sb.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${keyByName('t2').key}` } });
	return Number(res.headers.get('x-ratelimit-remaining'));
}

const row = (i: number, policy = `W-${i % 10}`): IDataObject => ({
	policy_number: policy,
	insured_name: `Insured ${i}`,
	state_code: 'TX',
	net_premium: 1000 + i,
	effective_date: '2026-01-01',
	expiration_date: '2027-01-01',
});

/** The filing workflow: Create Many, Rows to Record, Data table Insert. */
async function fileAndRecord(table: MemoryDataTable, rows: IDataObject[]) {
	const filed = await run({ operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' }, rows);
	const recorded = await run({ operation: 'watchRecord' }, filed);
	await table.insertRows(recorded as never, 'count');
	return { filed, recorded };
}

/** The notification workflow's look: Data table Get (all rows), then Look for Changes. */
async function look(table: MemoryDataTable) {
	const { data } = await table.getManyRowsAndCount({});
	return await run({ operation: 'watchLook', looksPerHour: 60, options: {} }, JSON.parse(JSON.stringify(data)));
}

/**
 * The rest of the notification workflow for one look's output: Data table Update where the row's
 * id and state are still what the look read; each updated row with a last_event is a message;
 * an updated row that settled is deleted (where it still holds that state).
 */
async function store(table: MemoryDataTable, items: IDataObject[]) {
	const messages: Array<{ invoiceId: number; text: string }> = [];
	for (const item of items) {
		const updated = await table.updateRows({
			filter: { type: 'and', filters: [
				{ columnName: 'id', condition: 'eq', value: item.row_id as number },
				{ columnName: 'state', condition: 'eq', value: item.previous_state as string },
			] },
			data: { state: item.state as string, checked_at: (item.checked_at as string) ?? null, last_event: item.last_event as string, settled: item.settled as boolean },
		});
		for (const stored of updated) {
			if (stored.last_event) messages.push({ invoiceId: stored.invoice_id as number, text: stored.last_event as string });
			if (stored.settled)
				await table.deleteRows({ filter: { type: 'and', filters: [
					{ columnName: 'id', condition: 'eq', value: stored.id },
					{ columnName: 'state', condition: 'eq', value: stored.state },
				] } });
		}
	}
	return messages;
}

const byInvoice = (messages: Array<{ invoiceId: number }>) => {
	const counts = new Map<number, number>();
	for (const m of messages) counts.set(m.invoiceId, (counts.get(m.invoiceId) ?? 0) + 1);
	return counts;
};

describe('Watch list against the sandbox', () => {
	it('records 50 filed rows once, sends each change once across overlapping looks and a filing during a look, drops settled invoices, within the budget share', async () => {
		const table = watchListTable();
		const { filed, recorded } = await fileAndRecord(table, Array.from({ length: 50 }, (_, i) => row(i)));
		expect(filed.filter((f) => f.outcome === 'filed')).toHaveLength(50);
		expect(recorded).toHaveLength(50);
		expect(table.rows).toHaveLength(50);
		expect(table.rows[0]).toMatchObject({ state: expect.stringMatching(/^new\|not_sent\|/), settled: false });

		// The same bordereau again: every row replayed, nothing recorded twice.
		const again = await fileAndRecord(table, Array.from({ length: 50 }, (_, i) => row(i)));
		expect(again.recorded).toHaveLength(0);
		expect(table.rows).toHaveLength(50);

		const ids = filed.map((f) => f.id as number);
		for (const id of ids.slice(0, 4)) await control(`/invoices/${id}/status`, { status: 'sent', state_status: 'sent' });
		for (const id of ids.slice(4, 6)) await control(`/invoices/${id}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2' });
		for (const id of ids.slice(6, 8)) await control(`/invoices/${id}/status`, { status: 'success', state_status: 'confirmed' });

		const messages: Array<{ invoiceId: number; text: string }> = [];
		// Two looks overlap: both read the same rows before either stores anything.
		const before = await remaining();
		const lookA = await look(table);
		const afterA = await remaining();
		const lookB = await look(table);
		// t2: 1000 calls/hour × 25% ÷ 60 looks/hour = 4 calls a look; 10 policies take 3 looks.
		expect(lookA[0].look).toMatchObject({ calls_per_look: 4, looks_per_full_sweep: 3, calls: 4, watched_invoices: 50, invoices_read: 20, invoices_waiting: 30 });
		expect(before - afterA - 1).toBe(4);
		messages.push(...(await store(table, lookA)));
		// A filing run while look B is still storing: its rows are picked up by a later look.
		const late = await fileAndRecord(table, Array.from({ length: 5 }, (_, i) => row(100 + i, 'W-NEW')));
		expect(late.recorded).toHaveLength(5);
		messages.push(...(await store(table, lookB)));

		for (let i = 0; i < 4; i++) {
			fake.advance(60_000);
			const start = await remaining();
			const items = await look(table);
			expect(start - (await remaining()) - 1).toBeLessThanOrEqual(4);
			messages.push(...(await store(table, items)));
		}
		const counts = byInvoice(messages);
		expect([...counts.keys()].sort((a, b) => a - b)).toEqual(ids.slice(0, 8).sort((a, b) => a - b));
		expect([...counts.values()].every((n) => n === 1)).toBe(true);
		expect(messages.find((m) => m.invoiceId === ids[4])?.text).toBe(
			`Invoice ${ids[4]} (policy W-4): status new → error; filing not_sent → rejected: Missing SL-2`,
		);
		// The two settled invoices left the list; the rest (and the 5 filed later) stay.
		expect(table.rows).toHaveLength(53);
		expect(table.rows.some((r) => r.invoice_id === ids[6] || r.invoice_id === ids[7])).toBe(false);

		// Later changes: the sent ones settle, a late one is rejected; each once more, none lost.
		for (const id of ids.slice(0, 4)) await control(`/invoices/${id}/status`, { status: 'success', state_status: 'confirmed' });
		const lateId = late.filed[2].id as number;
		await control(`/invoices/${lateId}/status`, { status: 'error', state_status: 'rejected', message: 'Wrong state' });
		const second: typeof messages = [];
		for (let i = 0; i < 3; i++) {
			fake.advance(60_000);
			second.push(...(await store(table, await look(table))));
		}
		const secondCounts = byInvoice(second);
		expect([...secondCounts.keys()].sort((a, b) => a - b)).toEqual([...ids.slice(0, 4), lateId].sort((a, b) => a - b));
		expect([...secondCounts.values()].every((n) => n === 1)).toBe(true);
		expect(table.rows).toHaveLength(49);
	});
});
