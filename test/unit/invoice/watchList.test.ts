/**
 * The watch list's two operations in n8n's engine with nock behind them: what Rows to Record
 * keeps, and what one look reads (budget, order, copies, gone invoices, a 429 mid-look).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { useNockSuite } from '../../helpers/nockSuite';
import { API, BASE, KEYS, envelope, failure, hintsOf } from './helpers';

useNockSuite();

async function run(parameters: IDataObject, items: IDataObject[], key: keyof typeof KEYS = 't1') {
	const result = await runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...parameters },
		items,
		credentials: { apiKey: KEYS[key], baseUrl: API },
	});
	return result;
}

const invoice = (id: number, policy: string, status = 'new', filing = 'not_sent', extra: IDataObject = {}): IDataObject => ({
	id,
	policy_number: policy,
	status,
	filing: { state_status: filing, message: null },
	documents: [],
	...extra,
});
const listing = (invoices: IDataObject[]) => envelope({ invoices, pagination: { page: 1, per_page: 100, total: invoices.length } });
const watchRow = (id: number, invoiceId: number, policy: string | null, state = 'new|not_sent|', checkedAt = ''): IDataObject => ({
	id,
	invoice_id: invoiceId,
	policy_number: policy,
	state,
	checked_at: checkedAt,
	last_event: '',
	settled: false,
});
const look = (items: IDataObject[], key: keyof typeof KEYS = 't1', looksPerHour = 12) =>
	run({ operation: 'watchLook', looksPerHour, options: {} }, items, key);

describe('Watch List: Rows to Record', () => {
	it('one row per invoice in the input whatever its outcome (a re-run records what a stopped run did not); error items and items without an id are left out', async () => {
		const items = [
			{ id: 11, policy_number: 'P-1', status: 'new', filing: { state_status: 'not_sent' }, documents: [{ id: 5, fetch_status: 'pending' }], outcome: 'filed' },
			{ id: 12, policy_number: 'P-1', status: 'new', documents: [], outcome: 'replayed' },
			{ id: 13, policy_number: 'P-2', status: 'sent', filing: { state_status: 'sent' }, documents: [], outcome: 'already_filed' },
			{ error: 'Row 4: net_premium is required' },
			{ id: 14, policy_number: 'P-3', status: 're-submitted', filing_state: 'sent' },
			{ policy_number: 'P-4' },
			{ id: 15, policy_number: 'P-5', status: 'new', documents: [], outcome: 'sent_again' },
		];
		const { output } = await run({ operation: 'watchRecord' }, items);
		const row = (invoice_id: number, policy_number: string, state: string) => ({ invoice_id, policy_number, state, checked_at: '', last_event: '', settled: false });
		expect(output!.map((o) => [o.json, o.pairedItem])).toEqual([
			[row(11, 'P-1', 'new|not_sent|5=pending'), { item: 0 }],
			// Not filed by this run (replayed, already filed): from the invoice as filed, whatever it is
			// now, so a rejection since is posted by the first look (issue 56).
			[row(12, 'P-1', 'new||?'), { item: 1 }],
			[row(13, 'P-2', 'new|not_sent|?'), { item: 2 }],
			// A simplified item has no documents list: unknown ("?"), not none.
			[row(14, 'P-3', 're-submitted|sent|?'), { item: 4 }],
			[row(15, 'P-5', 'new||'), { item: 6 }],
		]);
	});

	it('two items of one invoice (one row said twice in a sheet) give one row paired with both, and the hint counts them', async () => {
		const items = [
			{ id: 21, policy_number: 'P-1', status: 'new', documents: [], outcome: 'filed' },
			{ id: 21, policy_number: 'P-1', status: 'new', documents: [], outcome: 'already_filed' },
			{ id: 22, policy_number: 'P-1', status: 'new', documents: [], outcome: 'filed' },
		];
		const { output, run: executed } = await run({ operation: 'watchRecord' }, items);
		expect(output!.map((o) => [o.json.invoice_id, o.pairedItem])).toEqual([
			[21, [{ item: 0 }, { item: 1 }]],
			[22, { item: 2 }],
		]);
		expect(hintsOf(executed).map((h) => h.message)).toEqual([
			expect.stringMatching(/^2 rows to record \(2 filed\); left out: 1 items of an invoice already in this input/),
		]);
	});
});

describe('Watch List: Look for Changes', () => {
	it('reads only what the budget share allows, longest unread first, one call per policy, and says how far behind a sweep is', async () => {
		// t1: 100 calls/hour × 25% ÷ 12 looks = 2 calls a look; 6 policies of 2 invoices each.
		const items = Array.from({ length: 12 }, (_, i) =>
			watchRow(i + 1, 100 + i, `P-${Math.floor(i / 2)}`, 'new|not_sent|', i < 8 ? '2026-11-22T11:00:00.000Z' : ''),
		);
		// P-4 and P-5 were never read: they come first.
		const p4 = nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'P-4' })
			.reply(200, listing([invoice(108, 'P-4', 'sent', 'sent'), invoice(109, 'P-4')]));
		const p5 = nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'P-5' })
			.reply(200, listing([invoice(110, 'P-5'), invoice(111, 'P-5', 'success', 'confirmed')]));
		const { output, error } = await look(items);
		expect(error).toBeUndefined();
		expect(p4.isDone() && p5.isDone()).toBe(true);
		const rows = output!.map((o) => o.json);
		expect(rows.map((r) => [r.row_id, r.previous_state, r.state, r.changed, r.settled])).toEqual([
			[9, 'new|not_sent|', 'sent|sent|', true, false],
			[10, 'new|not_sent|', 'new|not_sent|', false, false],
			[11, 'new|not_sent|', 'new|not_sent|', false, false],
			[12, 'new|not_sent|', 'success|confirmed|', true, true],
		]);
		expect(output!.map((o) => o.pairedItem)).toEqual([[{ item: 8 }], [{ item: 9 }], [{ item: 10 }], [{ item: 11 }]]);
		expect(rows[0].last_event).toBe(
			'State filing: Invoice 108 (policy P-4) was sent to the state (not_sent → sent). Also: invoice status was sent by the service (new → sent). Next step: Nothing to do yet: the next change comes in a later message.',
		);
		expect(rows[0].events).toEqual([
			expect.objectContaining({ event: 'invoice_status_changed', previous: 'new', current: 'sent', invoice_id: 108 }),
			expect.objectContaining({ event: 'filing_state_changed', previous: 'not_sent', current: 'sent', invoice_id: 108 }),
		]);
		expect(rows[0].look).toMatchObject({ calls: 2, calls_per_look: 2, calls_for_full_sweep: 6, looks_per_full_sweep: 3, invoices_waiting: 8, full_sweep_takes: '15 minutes' });
		expect((rows[0].look as IDataObject).notes).toEqual([
			'8 of 12 watched invoices were not read this look: reading all of them takes 6 calls, 3 looks at 2 calls a look, so each invoice is read about every 15 minutes. Raise Budget Share, look less often, or use a higher tier key to read them sooner.',
		]);
	});

	it('says in one sentence what the look saw, so a look that posts nothing says why', async () => {
		// Every invoice settled and was posted by an earlier look (this workflow's or the other example's).
		const items = [watchRow(1, 60, 'S', 'success|confirmed|'), watchRow(2, 61, 'S', 'sent|sent|')];
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'S' })
			.reply(200, listing([invoice(60, 'S', 'success', 'confirmed'), invoice(61, 'S', 'sent', 'sent')]));
		const { output, run: executed } = await look(items, 't2');
		const said = '2 invoices watched: none changed since the last look. Nothing to post: each row starts from its invoice as it was recorded, so a move made since was already seen by an earlier look (this workflow\'s or another\'s on the same table).';
		expect(hintsOf(executed).map((h) => h.message)).toEqual([said]);
		expect((output![0].json.look as IDataObject).said).toBe(said);

		// The moves after the rows were recorded are changes: counted, the settled one leaving the list.
		const recorded = [watchRow(1, 70, 'T', 'new|not_sent|'), watchRow(2, 71, 'T', 'new|not_sent|'), watchRow(3, 72, 'T', 'new|not_sent|')];
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'T' })
			.reply(200, listing([invoice(70, 'T', 'success', 'confirmed'), invoice(71, 'T', 'sent', 'sent'), invoice(72, 'T')]));
		const moved = await look(recorded, 't2');
		expect(hintsOf(moved.run).map((h) => h.message)).toEqual(['3 invoices watched: 2 changed since the last look (1 settled, leaving the list), 1 unchanged.']);
	});

	it('an empty watch list (the empty item a Data table Get gives with Always Output Data) is said, with no call', async () => {
		const { output, error, run: executed } = await look([{}], 't2');
		expect(error).toBeUndefined();
		expect(output).toEqual([]);
		expect(hintsOf(executed).map((h) => h.message)).toEqual([expect.stringMatching(/^The watch list is empty: no invoice to look at, nothing to post\./)]);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('keeps the oldest row of an invoice recorded twice and lets the copy go; reads by id what its policy does not list; an invoice the service does not find is remembered, and leaves the list when the next look does not find it either', async () => {
		const items = [
			watchRow(7, 500, 'P-1'),
			watchRow(3, 500, 'P-1'),
			watchRow(4, 501, 'P-1'),
			watchRow(5, 502, null),
		];
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'P-1' }).reply(200, listing([invoice(500, 'P-1')]));
		nock(BASE).get('/api/v1/invoices/501').reply(200, envelope(invoice(501, 'P-1', 'error', 'rejected', { filing: { state_status: 'rejected', message: 'No SL-2' } })));
		nock(BASE).get('/api/v1/invoices/502').reply(404, failure('NOT_FOUND', 'Invoice not found'));
		const { output, error } = await look(items, 't2');
		expect(error).toBeUndefined();
		const rows = output!.map((o) => o.json);
		expect(rows.map((r) => [r.row_id, r.settled, r.duplicate_of ?? null])).toEqual([
			[7, true, 3],
			[3, false, null],
			[4, false, null],
			[5, false, null],
		]);
		expect(rows[2].last_event).toBe(
			'State filing: Invoice 501 (policy P-1) was REJECTED by the state (not_sent → rejected). Reason: No SL-2. Also: invoice status failed at the service (new → error). Next step: Correct what the reason names, then send the invoice again from n8n with Surplus Lines Invoice → Update (Invoice ID 501); a form the state asks for goes on with Surplus Lines Document → Attach. Reminders come until it is settled.',
		);
		expect(rows[3]).toMatchObject({ state: 'new|not_sent||notfound', last_event: '', changed: false });
		expect(rows[3].note).toMatch(/^The service answered that invoice 502 is not found\. It stays on the watch list/);

		// The next look: not found again, beside an invoice it finds.
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'P-1' }).reply(200, listing([invoice(500, 'P-1')]));
		nock(BASE).get('/api/v1/invoices/502').reply(404, failure('NOT_FOUND', 'Invoice not found'));
		const next = await look([watchRow(3, 500, 'P-1'), watchRow(5, 502, null, String(rows[3].state))], 't2');
		const gone = next.output!.map((o) => o.json).find((r) => r.row_id === 5)!;
		expect(gone.settled).toBe(true);
		expect(gone.last_event).toMatch(/^Invoice 502 .*no longer found at the service \(it answered "not found" to two looks in a row/);
	});

	it('a refused filing settles the invoice (nothing follows it); a rejected one stays watched, as it may be resent', async () => {
		const items = [watchRow(1, 30, 'C', 'sent|sent|'), watchRow(2, 31, 'C', 'sent|sent|')];
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'C' })
			.reply(200, listing([invoice(30, 'C', 'error', 'refused'), invoice(31, 'C', 'error', 'rejected')]));
		const { output, error } = await look(items, 't2');
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.row_id, o.json.state, o.json.changed, o.json.settled])).toEqual([
			[1, 'error|refused|', true, true],
			// Waiting for someone: the time it was said, for the daily reminder.
			[2, 'error|rejected||r=2026-11-22T12:00:00.000Z', true, false],
		]);
		expect(output![0].json.last_event).toMatch(/^State filing: Invoice 30 \(policy C\) was REFUSED by the state for good \(sent → refused\)\..* Also: invoice status failed at the service \(sent → error\)\. Next step: This invoice cannot be sent again/);
	});

	it('a 429 mid-look keeps what was read and leaves the rest for the next look; a document still fetching keeps a success invoice on the list', async () => {
		const items = [watchRow(1, 10, 'A', 'sent|sent|1=pending'), watchRow(2, 20, 'B')];
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'A' })
			.reply(200, listing([invoice(10, 'A', 'success', 'confirmed', { documents: [{ id: 1, fetch_status: 'fetching' }] })]));
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'B' })
			.reply(429, failure('RATE_LIMIT_EXCEEDED', 'Too many requests'), { 'Retry-After': '60' });
		const { output, error } = await look(items, 't2');
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.row_id, o.json.state, o.json.settled])).toEqual([[1, 'success|confirmed|1=fetching', false]]);
		expect(output![0].json.last_event).toBe(
			'State filing: Invoice 10 (policy A) was confirmed by the state (sent → confirmed). Also: invoice status was completed by the service (sent → success); document 1 is being fetched by the service (pending → fetching). Next step: No action needed.',
		);
		expect(((output![0].json.look as IDataObject).notes as string[])[0]).toMatch(/^The look stopped after 1 of the policies and invoices it meant to read: .*The rest is read first next time\.$/);
	});

	it('an invoice recorded with no documents reports its first document’s first status; one recorded without a list (simplified) takes the list it reads as its start', async () => {
		const items = [watchRow(1, 40, 'D', 'new|not_sent|'), watchRow(2, 41, 'D', 'new|not_sent|?')];
		const docs = { documents: [{ id: 9, fetch_status: 'pending' }] };
		nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'D' })
			.reply(200, listing([invoice(40, 'D', 'new', 'not_sent', docs), invoice(41, 'D', 'new', 'not_sent', docs)]));
		const { output, error } = await look(items, 't2');
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.row_id, o.json.state, o.json.changed, o.json.last_event])).toEqual([
			[1, 'new|not_sent|9=pending', true, 'Document: Invoice 40 (policy D): document 9 waits to be fetched by the service. Next step: Nothing to do yet: the next change comes in a later message.'],
			[2, 'new|not_sent|9=pending', false, ''],
		]);
		expect(output![0].json.events).toEqual([
			expect.objectContaining({ event: 'document_fetch_status_changed', document_id: '9', previous: null, current: 'pending' }),
		]);
	});

	it('every event has its own id: overlapping looks give one move the same id, the same move made again after a resend gets another', async () => {
		const rejected = () =>
			nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'R' })
				.reply(200, listing([invoice(50, 'R', 'error', 'rejected')]));
		const resent = () =>
			nock(BASE).get('/api/v1/invoices').query({ page: 1, per_page: 100, policy_number: 'R' })
				.reply(200, listing([invoice(50, 'R', 're-submitted', 'sent')]));
		const idsOf = (output: Array<{ json: IDataObject }> | undefined) =>
			(output![0].json.events as IDataObject[]).map((e) => e.event_id as string);

		// Two looks read the row as stored at 10:00 before either stores anything.
		const first = watchRow(1, 50, 'R', 'sent|sent|', '2026-11-22T10:00:00.000Z');
		rejected();
		rejected();
		const lookA = idsOf((await look([first], 't2')).output);
		const lookB = idsOf((await look([first], 't2')).output);
		expect(lookB).toEqual(lookA);
		// Resent with Update; a look at 10:10 stores the move back to sent; rejected again later.
		resent();
		const back = (await look([watchRow(1, 50, 'R', 'error|rejected|', '2026-11-22T10:05:00.000Z')], 't2')).output!;
		expect(back[0].json.state).toBe('re-submitted|sent|');
		rejected();
		const again = idsOf((await look([watchRow(1, 50, 'R', 're-submitted|sent|', '2026-11-22T10:10:00.000Z')], 't2')).output);
		expect(again).toHaveLength(2);
		expect(again[1]).toMatch(/^50:filing_state_changed::sent>rejected@/);
		expect(lookA[1]).toMatch(/^50:filing_state_changed::sent>rejected@/);
		expect(again[1]).not.toBe(lookA[1]);
		const all = [...lookA, ...idsOf(back), ...again];
		expect(new Set(all).size).toBe(all.length);
	});
});
