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

/** Day `i` of 2026 (each row of a policy its own term: a policy term has one New). */
const day = (year: number, i: number) => new Date(Date.UTC(year, 0, 1 + i)).toISOString().slice(0, 10);

const row = (i: number, policy = `W-${i % 10}`): IDataObject => ({
	policy_number: policy,
	insured_name: `Insured ${i}`,
	state_code: 'TX',
	net_premium: 1000 + i,
	effective_date: day(2026, i),
	expiration_date: day(2027, i),
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
	const messages: Array<{ invoiceId: number; text: string; events: IDataObject[] }> = [];
	for (const item of items) {
		const updated = await table.updateRows({
			filter: { type: 'and', filters: [
				{ columnName: 'id', condition: 'eq', value: item.row_id as number },
				{ columnName: 'state', condition: 'eq', value: item.previous_state as string },
			] },
			data: { state: item.state as string, checked_at: (item.checked_at as string) ?? null, last_event: item.last_event as string, settled: item.settled as boolean },
		});
		for (const stored of updated) {
			if (stored.last_event) messages.push({ invoiceId: stored.invoice_id as number, text: stored.last_event as string, events: item.events as IDataObject[] });
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

		// The same bordereau again: every row found on its policy (the look first, on every account)
		// and recorded again; the look keeps the oldest row of each invoice and lets the 50 copies go,
		// so nothing is watched twice.
		const again = await fileAndRecord(table, Array.from({ length: 50 }, (_, i) => row(i)));
		expect(again.filed.map((f) => f.outcome)).toEqual(Array(50).fill('already_filed'));
		expect(again.filed.map((f) => f.id)).toEqual(filed.map((f) => f.id));
		expect(again.recorded).toHaveLength(50);
		expect(table.rows).toHaveLength(100);

		const ids = filed.map((f) => f.id as number);
		for (const id of ids.slice(0, 4)) await control(`/invoices/${id}/status`, { status: 'sent', state_status: 'sent' });
		for (const id of ids.slice(4, 6)) await control(`/invoices/${id}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2' });
		for (const id of ids.slice(6, 8)) await control(`/invoices/${id}/status`, { status: 'success', state_status: 'confirmed' });

		const messages: Awaited<ReturnType<typeof store>> = [];
		// Two looks overlap: both read the same rows before either stores anything.
		const before = await remaining();
		const lookA = await look(table);
		const afterA = await remaining();
		const lookB = await look(table);
		// t2: 1000 calls/hour × 25% ÷ 60 looks/hour = 4 calls a look; 10 policies take 3 looks.
		expect(lookA[0].look).toMatchObject({ calls_per_look: 4, looks_per_full_sweep: 3, calls: 4, watched_invoices: 50, invoices_read: 20, invoices_waiting: 30 });
		expect(lookA.filter((item) => item.duplicate_of !== undefined)).toHaveLength(50);
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
		// What happened (the state's reason, insured and policy) and what to do next, in words.
		expect(messages.find((m) => m.invoiceId === ids[4])?.text).toBe(
			`State filing: Invoice ${ids[4]} (policy W-4, insured Insured 4) was REJECTED by the state (not_sent → rejected). Reason: Missing SL-2. Also: invoice status failed at the service (new → error). Next step: Correct what the reason names, then send the invoice again from n8n with Surplus Lines Invoice → Update (Invoice ID ${ids[4]}); a form the state asks for goes on with Surplus Lines Document → Attach. Reminders come until it is settled.`,
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

	it('a run stopped after Create and before the Insert: the re-run records what it left out from the invoice as filed, each change since the filing posted once, nothing watched twice', async () => {
		const table = watchListTable();
		const sheet = Array.from({ length: 10 }, (_, i) => row(200 + i, `S-${i % 3}`));
		const filed = await run({ operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' }, sheet);
		const recorded = await run({ operation: 'watchRecord' }, filed);
		// The run stopped after the Insert of its first 5 rows.
		await table.insertRows(recorded.slice(0, 5) as never, 'count');
		const ids = filed.map((f) => f.id as number);
		await control(`/invoices/${ids[1]}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2' });
		await control(`/invoices/${ids[7]}/status`, { status: 'error', state_status: 'rejected', message: 'Wrong state' });

		// The re-run finds every row on its policy (the look first, on every account): each item is
		// the invoice read now, but a row it records starts from the invoice as filed, so a
		// rejection made before the re-run is still posted (docs/nodes.md, "Recorded on a re-run too").
		const again = await fileAndRecord(table, sheet);
		expect(again.filed.map((f) => f.outcome)).toEqual(Array(10).fill('already_filed'));
		expect(again.filed.map((f) => f.id)).toEqual(ids);
		expect(again.recorded.map((r) => r.invoice_id)).toEqual(ids);
		expect(again.recorded.map((r) => String(r.state).split('|').slice(0, 2).join('|'))).toEqual(
			ids.map(() => 'new|not_sent'),
		);
		expect(table.rows).toHaveLength(15);

		const messages: Awaited<ReturnType<typeof store>> = [];
		for (let i = 0; i < 3; i++) {
			fake.advance(60_000);
			messages.push(...(await store(table, await look(table))));
		}
		// Invoice 2 was on the list from the first run (the re-run's copy leaves): its rejection is
		// posted once. Invoice 8 was first recorded by the re-run, already rejected: posted once too
		// (it was lost before issue 56).
		expect(byInvoice(messages)).toEqual(new Map([[ids[1], 1], [ids[7], 1]]));
		expect(messages.map((m) => m.text.split('. Next step')[0]).sort()).toEqual([
			`State filing: Invoice ${ids[1]} (policy S-1, insured Insured 201) was REJECTED by the state (not_sent → rejected). Reason: Missing SL-2. Also: invoice status failed at the service (new → error)`,
			`State filing: Invoice ${ids[7]} (policy S-1, insured Insured 207) was REJECTED by the state (not_sent → rejected). Reason: Wrong state. Also: invoice status failed at the service (new → error)`,
		]);
		// One row per invoice is left: every invoice is watched, none twice.
		expect(table.rows.map((r) => r.invoice_id).sort((a, b) => Number(a) - Number(b))).toEqual([...ids].sort((a, b) => a - b));
	});

	it('an invoice recorded with no documents reports its first document’s first status, then each move', async () => {
		const table = watchListTable();
		const { filed } = await fileAndRecord(table, [row(300, 'DOC-1')]);
		expect(table.rows[0].state).toBe('new|not_sent|');
		const id = filed[0].id as number;
		const put = await fetch(`${sb.baseUrl}/invoices/${id}/documents/dec-300`, {
			method: 'PUT',
			headers: { authorization: `Bearer ${keyByName('t2').key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ type: 'declaration_page', filename: 'dec.pdf' }),
		});
		expect(put.status).toBe(201);
		const documentId = String(((await put.json()) as { data: { id: number } }).data.id);
		fake.advance(60_000);
		const first = await store(table, await look(table));
		expect(first.map((m) => m.events.map((e) => [e.event, e.document_id, e.previous, e.current]))).toEqual([
			[['document_fetch_status_changed', documentId, null, 'pending']],
		]);
		await control(`/documents/${documentId}/fetch`, { fetch_status: 'fetched', file_size: 10 });
		fake.advance(60_000);
		const second = await store(table, await look(table));
		expect(second.map((m) => m.text)).toEqual([
			`Document: Invoice ${id} (policy DOC-1, insured Insured 300): document ${documentId} was fetched by the service (pending → fetched). Next step: No action needed.`,
		]);
	});

	it('a filing rejected again after a resend is a second event with an id of its own; overlapping looks give one event one id', async () => {
		const table = watchListTable();
		const { filed } = await fileAndRecord(table, [row(400, 'REJ-1')]);
		const id = filed[0].id as number;
		const eventsOf = (messages: Awaited<ReturnType<typeof store>>) => messages.flatMap((m) => m.events);
		const seen: IDataObject[] = [];

		await control(`/invoices/${id}/status`, { status: 'sent', state_status: 'sent' });
		fake.advance(60_000);
		seen.push(...eventsOf(await store(table, await look(table))));
		await control(`/invoices/${id}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2' });
		fake.advance(60_000);
		const lookA = await look(table);
		const lookB = await look(table);
		expect((lookB[0].events as IDataObject[]).map((e) => e.event_id)).toEqual((lookA[0].events as IDataObject[]).map((e) => e.event_id));
		seen.push(...eventsOf(await store(table, lookA)), ...eventsOf(await store(table, lookB)));

		// Corrected and sent again (Update), then rejected again.
		await control(`/invoices/${id}/status`, { status: 're-submitted', state_status: 'sent' });
		fake.advance(60_000);
		seen.push(...eventsOf(await store(table, await look(table))));
		await control(`/invoices/${id}/status`, { status: 'error', state_status: 'rejected', message: 'Still missing SL-2' });
		fake.advance(60_000);
		seen.push(...eventsOf(await store(table, await look(table))));

		const rejections = seen.filter((e) => e.event === 'filing_state_changed' && e.current === 'rejected');
		// The same move twice: sent → rejected.
		expect(rejections.map((e) => e.previous)).toEqual(['sent', 'sent']);
		const moves = seen.map((e) => `${String(e.event)} ${String(e.previous)}>${String(e.current)}`);
		expect(moves).toEqual([
			'invoice_status_changed new>sent',
			'filing_state_changed not_sent>sent',
			'invoice_status_changed sent>error',
			'filing_state_changed sent>rejected',
			'invoice_status_changed error>re-submitted',
			'filing_state_changed rejected>sent',
			'invoice_status_changed re-submitted>error',
			'filing_state_changed sent>rejected',
		]);
		const ids = seen.map((e) => e.event_id);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('reminds about a rejection once a day until it is settled, once across overlapping looks, and says when it clears', async () => {
		const table = watchListTable();
		const { filed } = await fileAndRecord(table, [row(500, 'REM-1')]);
		const id = filed[0].id as number;
		await control(`/invoices/${id}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2' });
		fake.advance(60_000);
		const first = await store(table, await look(table));
		expect(first.map((m) => m.text.split(' Reason')[0])).toEqual([`State filing: Invoice ${id} (policy REM-1, insured Insured 500) was REJECTED by the state (not_sent → rejected).`]);
		// Looks during the day: nothing more.
		const quiet: Awaited<ReturnType<typeof store>> = [];
		for (let i = 0; i < 5; i++) {
			fake.advance(4 * 3_600_000);
			quiet.push(...(await store(table, await look(table))));
		}
		expect(quiet).toEqual([]);
		// A day after the rejection was said: one reminder, though two looks overlap.
		fake.advance(4 * 3_600_000 + 60_000);
		const lookA = await look(table);
		const lookB = await look(table);
		expect(lookA[0]).toMatchObject({ reminder: true, changed: false, needs_action: true });
		const reminders = [...(await store(table, lookA)), ...(await store(table, lookB))];
		expect(reminders.map((m) => m.text)).toEqual([
			expect.stringMatching(new RegExp(`^Reminder, still not settled since 20\\S+: State filing: Invoice ${id} \\(policy REM-1, insured Insured 500\\) was REJECTED by the state\\. Reason: Missing SL-2\\. Next step: Correct what the reason names`)),
		]);
		fake.advance(3_600_000);
		expect(await store(table, await look(table))).toEqual([]);
		// Resent and confirmed: the alarm clears in words, no reminder after.
		await control(`/invoices/${id}/status`, { status: 'success', state_status: 'confirmed', confirmation_number: 'TX-77' });
		fake.advance(60_000);
		const cleared = await store(table, await look(table));
		expect(cleared.map((m) => m.text)).toEqual([
			`State filing: Invoice ${id} (policy REM-1, insured Insured 500) was confirmed by the state (rejected → confirmed). Confirmation number: TX-77. Also: invoice status was completed by the service (error → success). Next step: No action needed.`,
		]);
		expect(table.rows).toHaveLength(0);
	});
});
