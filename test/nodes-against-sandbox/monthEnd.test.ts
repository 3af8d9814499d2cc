/**
 * One month closed on every account kind (issue 55): an October bordereau in an agency system's
 * own headers (US dates, money in parentheses), on a keyed t2, a legacy t2 and a legacy t3
 * account, each holding the month as that account would: rows filed by the package (Create, with
 * its mark), changes filed by hand as the account holds them (a legacy account keeps the change
 * date as effective_date; a keyed one keeps the term and transaction_effective_date), a filing
 * corrected on the service afterwards, a duplicate, twin endorsements of one policy, and invoices
 * of other months. Every row's answer is written down before running; the period's invoices not
 * on the sheet are exactly those listed; Create run over the same sheet agrees row by row.
 */
import type { IDataObject } from 'n8n-workflow';

import { derivedMark } from '../../nodes/filing/mark';
import { useFakeClock } from '../helpers/fakeClock';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { runInvoiceOn, useSandboxSuite } from '../helpers/sandboxSuite';
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { runNode } from '../harness/engine';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	fake = useFakeClock(Date.now());
});
afterEach(() => fake.restore());

const { api, control } = sandboxCalls(sb);
const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const COLUMNS = { inputMode: 'columns', columns: AUTO };
const OCTOBER = { notOnSheetScope: 'period', periodBy: 'effective', periodFrom: '2026-10-01T00:00:00', periodTo: '2026-10-31T00:00:00' };

const row = (policy: string, type: string, premium: string, dates: [string, string, string?], extra: IDataObject = {}): IDataObject => ({
	'Policy No': policy,
	'Named Insured': 'Harbor Marine Co',
	State: 'TX',
	'Transaction Type': type,
	'Policy Eff Dt': dates[0],
	'Policy Exp Dt': dates[1],
	...(dates[2] ? { 'Endorsement Effective Date': dates[2] } : {}),
	'Gross Premium': premium,
	...extra,
});

/** The month's sheet; `filedBy` says how each row stands on the service before the close. */
function month(p: string) {
	return [
		{ filedBy: 'package', answer: 'filed as the sheet says', row: row(`${p}-1`, 'New', '1,200.00', ['10/01/2026', '10/01/2027']) },
		{ filedBy: 'package', answer: 'filed as the sheet says', row: row(`${p}-2`, 'Endorsement', '250.00', ['01/01/2026', '01/01/2027', '10/15/2026']) },
		{ filedBy: 'hand', answer: 'filed as the sheet says', row: row(`${p}-3`, 'Endorsement', '(100.00)', ['02/01/2026', '02/01/2027', '10/20/2026']) },
		{ filedBy: 'nobody', answer: 'not filed', row: row(`${p}-4`, 'Cancellation', '(500.00)', ['03/01/2026', '03/01/2027', '10/31/2026']) },
		{ filedBy: 'corrected', answer: 'filed differently', row: row(`${p}-5`, 'New', '800.00', ['10/05/2026', '10/05/2027']) },
		{ filedBy: 'twice by hand', answer: 'filed as the sheet says', row: row(`${p}-6`, 'New', '640.00', ['10/07/2026', '10/07/2027']) },
		{ filedBy: 'package', answer: 'filed as the sheet says', row: row(`${p}-7`, 'Endorsement', '75.00', ['04/01/2026', '04/01/2027', '10/09/2026'], { 'Invoice No': 'END-1' }) },
		{ filedBy: 'package', answer: 'filed as the sheet says', row: row(`${p}-7`, 'Endorsement', '75.00', ['04/01/2026', '04/01/2027', '10/09/2026'], { 'Invoice No': 'END-2' }) },
		{ filedBy: 'hand', answer: 'filed as the sheet says', row: row(`${p}-8`, 'Endorsement', '300.00', ['05/01/2026', '05/01/2027', '10/22/2026']) },
	];
}

/** Each account kind, and the filing operation run over the month after Reconcile (t3: batches). */
const KINDS = [
	{ key: 't2', keyed: true, operation: 'create' },
	{ key: 'legacy-t2', keyed: false, operation: 'create' },
	{ key: 'legacy-t3', keyed: false, operation: 'createMany' },
] as const;

async function post(key: string, body: IDataObject): Promise<IDataObject> {
	const res = await api(key).post('/invoices', body);
	if (res.status !== 201) throw new Error(`POST /invoices -> ${res.status} ${JSON.stringify(res.data)}`);
	return res.data.data as IDataObject;
}

/** A change as the account holds it when entered by hand: on a legacy account, the change date is its effective date. */
function byHand(body: IDataObject, keyed: boolean): IDataObject {
	if (keyed || !body.transaction_effective_date) return body;
	const held: IDataObject = { ...body, effective_date: body.transaction_effective_date };
	delete held.transaction_effective_date;
	return held;
}

describe.each(['as sent', 'in the service’s forms'] as const)('the month closed, the sandbox showing values %s', (forms) => {
	beforeEach(async () => {
		// Every form but the zoned dates, which read as two days and make a hand entry "cannot tell" (issue 44).
		if (forms !== 'as sent')
			await control('/forms', { forms: ['name_upper', 'number_zeros', 'number_upper', 'amount_cents', 'dates_us', 'commission_zero', 'money_strings', 'extra_fields'], mode: 'all' });
	});

	it.each(KINDS)('$key: every row answered as decided, the period’s other invoices exactly; $operation agrees', async ({ key, keyed, operation }) => {
		const p = `ME${key.replace(/\W/g, '')}${forms.length}`;
		const sheet = month(p);
		const rows = sheet.map((s) => s.row);
		const check = (await runInvoiceOn(sb, key, { operation: 'checkSheet', ...COLUMNS }, rows, 2)).output!;
		expect(check.map((o) => o.json.result)).toEqual(rows.map(() => 'would be sent'));
		const bodies = check.map((o) => o.json.body as IDataObject);
		expect(bodies[2]).toMatchObject({ type_code: 'ENDORSEMENT', net_premium: -100, transaction_effective_date: '2026-10-20' });

		// The package's own filings: Create over those rows (with its mark).
		const byPackage = sheet.map((s, i) => (s.filedBy === 'package' || s.filedBy === 'corrected' ? i : -1)).filter((i) => i >= 0);
		const created = (await runInvoiceOn(sb, key, { operation: 'create', ...COLUMNS, billTaxesFromPreview: false }, byPackage.map((i) => rows[i]), 2)).output!;
		expect(created.map((o) => o.json.outcome)).toEqual(byPackage.map(() => 'filed'));
		const corrected = created[byPackage.indexOf(4)].json;
		expect((await api(key).put(`/invoices/${String(corrected.id)}`, { net_premium: 850 })).status).toBe(200);
		const hand3 = await post(key, byHand(bodies[2], keyed));
		const hand8 = await post(key, byHand(bodies[8], keyed));
		const first6 = await post(key, bodies[5]);
		const duplicate6 = await post(key, bodies[5]);
		// Other months, and October invoices of policies not on the sheet.
		await post(key, { ...bodies[0], policy_number: `${p}-SEP`, effective_date: '2026-09-15', expiration_date: '2027-09-15' });
		const octoberOther = await post(key, { ...bodies[0], policy_number: `${p}-OCT`, effective_date: '2026-10-10', expiration_date: '2027-10-10' });
		await post(key, byHand({ ...bodies[1], transaction_effective_date: '2026-11-05', net_premium: 40 }, keyed));

		const reconciled = (await runInvoiceOn(sb, key, { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, rows, 2)).output!;
		const answers = reconciled.map((o) => [o.json.row, o.json.answer]);
		expect(answers).toEqual([
			...sheet.map((s, i) => [i + 2, s.answer]),
			// Exactly the period's invoices no row accounts for: the duplicate, and the other policy's October filing.
			[null, 'on the service, not on the sheet'],
			[null, 'on the service, not on the sheet'],
		]);
		const json = reconciled.map((o) => o.json);
		expect(json.slice(sheet.length).map((j) => j.invoice_id).sort()).toEqual([duplicate6.id, octoberOther.id].sort());
		// The duplicate is said to be one, with the invoice it duplicates and how to void it.
		const dup = json.find((j) => j.invoice_id === duplicate6.id)!;
		expect(dup.duplicate_of).toEqual({ row: 7, invoice_id: first6.id });
		expect(String(dup.note)).toContain('Invoice → Delete');
		expect(json.find((j) => j.invoice_id === octoberOther.id)!.duplicate_of).toBeUndefined();
		expect([json[2].invoice_id, json[8].invoice_id, json[5].invoice_id]).toEqual([hand3.id, hand8.id, first6.id]);
		expect(json[4].differences).toEqual([expect.objectContaining({ column: 'Gross Premium', field: 'net_premium' })]);
		expect(json[6].invoice_id).not.toEqual(json[7].invoice_id);

		// The same month as a report: a subtotal under the insured's column after every third row, a
		// blank line and a grand total. Every transaction row gets the same answer, numbered as the file shows it.
		const report: IDataObject[] = [];
		const reportRow: number[] = [];
		rows.forEach((r, i) => {
			reportRow.push(report.length + 2);
			report.push(r);
			if (i % 3 === 2) report.push({ 'Named Insured': 'Subtotal', 'Gross Premium': '1,000.00' }, {});
		});
		report.push({ 'Named Insured': 'Grand Total', 'Gross Premium': '9,999.00' });
		const fromReport = (await runInvoiceOn(sb, key, { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, report, 2)).output!.map((o) => o.json);
		expect(fromReport.filter((j) => j.answer !== 'not a transaction').map((j) => [j.row, j.answer, j.invoice_id ?? null])).toEqual(
			json.map((j, i) => [i < sheet.length ? reportRow[i] : null, j.answer, j.invoice_id ?? null]),
		);
		expect(fromReport.filter((j) => j.answer === 'not a transaction')).toHaveLength(report.length - rows.length);

		// Create over the same sheet: already filed where Reconcile says filed, filed where not filed.
		const again = (await runInvoiceOn(sb, key, { operation, ...COLUMNS, billTaxesFromPreview: false }, rows, 2)).output!;
		const CREATE_SAYS: Record<string, string> = {
			'filed as the sheet says': 'already_filed',
			'not filed': 'filed',
			// The package's own mark says which invoice is the row's; Correct Filings corrects it.
			'filed differently': 'already_filed',
		};
		expect(again.map((o) => [o.json.outcome ?? o.json.error])).toEqual(sheet.map((s) => [CREATE_SAYS[s.answer]]));
		sheet.forEach((s, i) => {
			if (s.answer !== 'not filed') expect([i, again[i].json.id]).toEqual([i, json[i].invoice_id]);
		});
		// And Reconcile again: the row Create filed is filed as the sheet says; nothing else moved.
		const after = (await runInvoiceOn(sb, key, { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, rows, 2)).output!;
		expect(after.map((o) => o.json.answer)).toEqual([
			...sheet.map((s) => (s.answer === 'not filed' ? 'filed as the sheet says' : s.answer)),
			'on the service, not on the sheet',
			'on the service, not on the sheet',
		]);
	});
});

describe('a report-shaped month (issue 55)', () => {
	const hintsOf = (run: Awaited<ReturnType<typeof runInvoiceOn>>['run']) =>
		Object.values(run.data.resultData.runData).flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string }>);

	it('t2: subtotals labelled in the insured’s column are not transactions; a refused row names its policy’s invoices, which are not listed as not on the sheet', async () => {
		const p = 'MEREPORT';
		const good = row(`${p}-1`, 'New', '1,200.00', ['10/01/2026', '10/01/2027']);
		const refused = row(`${p}-2`, 'New', '900.00', ['10/03/2026', '10/03/2027'], { State: 'Texass' });
		const sheet = [good, { 'Named Insured': 'Subtotal', 'Gross Premium': '1,200.00' }, refused, { 'Named Insured': 'Grand Total', 'Gross Premium': '2,100.00' }];
		const [body] = (await runInvoiceOn(sb, 't2', { operation: 'checkSheet', ...COLUMNS }, [good], 2)).output!.map((o) => o.json.body as IDataObject);
		const filed = await post('t2', { ...body, invoice_number: derivedMark(body) });
		const filedForRefused = await post('t2', { ...body, policy_number: `${p}-2`, net_premium: 900, effective_date: '2026-10-03', expiration_date: '2027-10-03' });
		const { output } = await runInvoiceOn(sb, 't2', { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, sheet, 2);
		const json = output!.map((o) => o.json);
		expect(json.map((j) => j.answer)).toEqual(['filed as the sheet says', 'not a transaction', 'refused', 'not a transaction']);
		expect(json[0].invoice_id).toBe(filed.id);
		expect(json[2].service_invoices).toEqual([expect.objectContaining({ invoice_id: filedForRefused.id })]);
		expect(String(json[2].note)).toContain(`invoice ${String(filedForRefused.id)}`);
		expect(json[0].summary).toMatchObject({ notOnSheet: 0, refused: 1, notATransaction: 2 });
	});

	it('t2: a sheet whose header is below report lines is not read, and the period’s invoices are not listed as missing from it', async () => {
		const p = 'METITLED';
		const good = row(`${p}-1`, 'New', '1200', ['10/01/2026', '10/01/2027']);
		const [body] = (await runInvoiceOn(sb, 't2', { operation: 'checkSheet', ...COLUMNS }, [good], 2)).output!.map((o) => o.json.body as IDataObject);
		await post('t2', body);
		const header = Object.keys(good);
		// Extract From File read the title line as the header: every item has the title as its only named key.
		const title = 'October 2026 Bordereau';
		const items = [header, Object.values(good) as string[]].map((cells) => ({ [title]: cells[0], ...Object.fromEntries(cells.slice(1).map((c, n) => [`_${n + 1}`, c])) }));
		const { output, run } = await runInvoiceOn(sb, 't2', { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, items, 2);
		expect(output!.map((o) => o.json.answer)).toEqual(['refused', 'refused']);
		const summary = hintsOf(run).find((h) => h.message.includes('rows filed as the sheet says'))?.message;
		expect(summary).toContain('the sheet’s columns could not be read');
		expect(summary).not.toMatch(/[1-9]\d* invoices on the service not on the sheet/);
	});
});

describe('corrections applied, never doubled (issue 55)', () => {
	const correct = (key: string, rows: IDataObject[], send: boolean) =>
		runInvoiceOn(sb, key, { operation: 'correctFilings', ...COLUMNS, sendCorrections: send }, rows, 2);
	const reconcile = (key: string, rows: IDataObject[]) => runInvoiceOn(sb, key, { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, rows, 2);

	it.each(['t2', 'legacy-t2'])('%s: shown first, then an Update before success and a cancellation and new filing after; every row then filed as the sheet says, nothing sent twice', async (key) => {
		const p = `MECORR${key.replace(/\W/g, '')}`;
		const taxes = { 'SL Tax': '48.50', 'Stamping Fee': '9.90' };
		const filedRows = [
			row(`${p}-1`, 'New', '800.00', ['10/05/2026', '10/05/2027']),
			row(`${p}-2`, 'Endorsement', '250.00', ['01/01/2026', '01/01/2027', '10/15/2026']),
			row(`${p}-3`, 'New', '970.00', ['10/08/2026', '10/08/2027'], taxes),
		];
		const created = (await runInvoiceOn(sb, key, { operation: 'create', ...COLUMNS, billTaxesFromPreview: false }, filedRows, 2)).output!.map((o) => o.json);
		expect(created.map((c) => c.outcome)).toEqual(['filed', 'filed', 'filed']);
		// Changed on the service after filing; the second then accepted by the state.
		expect((await api(key).put(`/invoices/${String(created[0].id)}`, { net_premium: 850 })).status).toBe(200);
		expect((await api(key).put(`/invoices/${String(created[1].id)}`, { net_premium: 275, insured_name: 'Harbor Marine Company' })).status).toBe(200);
		await control(`/invoices/${String(created[1].id)}/status`, { status: 'success' });
		// The sheet's tax corrected since the third was filed; the stamping fee is 9.90 on both sides.
		const sheet = [filedRows[0], filedRows[1], { ...filedRows[2], 'SL Tax': '50.00' }];

		const before = (await reconcile(key, sheet)).output!.map((o) => o.json);
		expect(before.map((j) => j.answer)).toEqual(['filed differently', 'filed differently', 'filed differently']);
		expect(before[0].differences).toEqual([{ column: 'Gross Premium', field: 'net_premium', sheet: '800.00', service: '850' }]);
		expect(before[2].differences).toEqual([{ column: 'SL Tax', field: 'sl_tax', sheet: '50.00', service: '48.50' }]);

		// Create over the changed sheet: the row changed since the package filed it is refused, and
		// the advice is its correction, never File Anyway (a second invoice).
		const refiled = (await runInvoiceOn(sb, key, { operation: 'create', ...COLUMNS, billTaxesFromPreview: false }, sheet, 2)).output!.map((o) => o.json);
		expect(refiled[2].outcome).toBeUndefined();
		const advice = JSON.stringify(refiled[2]);
		expect(advice).toContain('Correct Filings');
		expect(advice).not.toContain('File Anyway');

		// Shown first: nothing sent.
		const count = async () => (await api(key).get(`/invoices?per_page=100`)).data.data.invoices.length as number;
		const invoices = await count();
		const shown = (await correct(key, sheet, false)).output!.map((o) => o.json);
		expect(shown.map((j) => (j.correction as IDataObject | null)?.action)).toEqual(['update', 'cancel and refile', 'update']);
		expect(shown.every((j) => (j.correction as IDataObject).sent === false)).toBe(true);
		expect(await count()).toBe(invoices);
		expect(String((shown[1].correction as IDataObject).said)).toContain('Gross Premium: 275 → 250.00');

		// Sent, with the cancellation's reply lost: nothing is resent; the run again files only what is missing.
		await control('/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });
		const first = (await correct(key, sheet, true)).output!.map((o) => o.json);
		expect(first.map((j) => ((j.correction as IDataObject).results as IDataObject[]).map((r) => r.outcome))).toEqual([['sent'], ['failed'], ['sent']]);
		// The failed row is an error item (On Error → Continue), with the advice to run again.
		expect([first[0].error, typeof first[1].error]).toEqual([undefined, 'string']);
		expect(String(first[1].note)).toContain('Run Correct Filings again');
		const second = (await correct(key, sheet, true)).output!.map((o) => o.json);
		expect(second.map((j) => (j.correction as IDataObject | null)?.action ?? null)).toEqual([null, 'cancel and refile', null]);
		expect(((second[1].correction as IDataObject).results as IDataObject[]).map((r) => r.outcome)).toEqual(['sent']);
		expect(await count()).toBe(invoices + 2);
		const third = (await correct(key, sheet, true)).output!.map((o) => o.json);
		expect(third.map((j) => j.correction)).toEqual([null, null, null]);
		expect(await count()).toBe(invoices + 2);

		const after = (await reconcile(key, sheet)).output!.map((o) => o.json);
		expect(after.map((j) => j.answer)).toEqual(['filed as the sheet says', 'filed as the sheet says', 'filed as the sheet says']);
		expect(after[1].corrected).toEqual([expect.objectContaining({ invoice_id: created[1].id })]);
		// And Create over the corrected sheet files nothing.
		const again = (await runInvoiceOn(sb, key, { operation: 'create', ...COLUMNS, billTaxesFromPreview: false }, sheet, 2)).output!;
		expect(again.map((o) => o.json.outcome)).toEqual(['already_filed', 'already_filed', 'already_filed']);
		expect(await count()).toBe(invoices + 2);
	});
});

describe('rejections and errors acted on (issue 55)', () => {
	const hintsOf = (run: Awaited<ReturnType<typeof runInvoiceOn>>['run']) =>
		Object.values(run.data.resultData.runData).flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string }>);

	it('t2: a rejection and an error come with the state’s reason and the next step in n8n; the rejected filing, its document attached, is re-submitted and no longer asks for anything', async () => {
		const p = 'MEREJECT';
		const rows = [row(`${p}-1`, 'New', '1200', ['10/01/2026', '10/01/2027']), row(`${p}-2`, 'New', '700', ['10/02/2026', '10/02/2027'])];
		const [rejected, failed] = (await runInvoiceOn(sb, 't2', { operation: 'create', ...COLUMNS, billTaxesFromPreview: false }, rows, 2)).output!.map((o) => o.json);
		await control(`/invoices/${String(rejected.id)}/status`, { status: 'sent', state_status: 'rejected', message: 'The SL-2 form is missing the broker signature' });
		await control(`/invoices/${String(failed.id)}/status`, { status: 'error' });
		// One more of the period, not on the sheet, rejected too.
		const other = await post('t2', { ...(await runInvoiceOn(sb, 't2', { operation: 'checkSheet', ...COLUMNS }, [rows[0]], 2)).output![0].json.body as IDataObject, policy_number: `${p}-X` });
		await control(`/invoices/${String(other.id)}/status`, { status: 'sent', state_status: 'rejected', message: 'Diligent search affidavit not provided' });

		const { output, run } = await runInvoiceOn(sb, 't2', { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, rows, 2);
		const json = output!.map((o) => o.json);
		expect(json[0]).toMatchObject({ why: 'rejected', state_reason: 'The SL-2 form is missing the broker signature', document_type: 'sl2_form' });
		expect(String(json[0].next_step)).toContain('Surplus Lines Document node (Attach, type sl2_form)');
		expect(json[1]).toMatchObject({ why: 'error' });
		expect(String(json[1].next_step)).toContain('Invoice → Update');
		expect(json[2]).toMatchObject({ answer: 'on the service, not on the sheet', document_type: 'declinations_form' });
		const summary = hintsOf(run).find((h) => h.message.includes('rows filed as the sheet says'))!.message;
		expect(summary).toContain('2 filings rejected by their state; 1 invoices in error');
		for (const id of [rejected.id, failed.id, other.id]) expect(summary).toContain(`invoice ${String(id)}`);
		expect(summary).toContain('The SL-2 form is missing the broker signature → Attach the SL-2 form');

		// The next step followed: the signed SL-2 attached with the Document node; the operator re-submits.
		const attached = await runNode({
			node: new SurplusLinesDocument(),
			parameters: { resource: 'document', operation: 'attach', invoiceId: { __rl: true, mode: 'id', value: String(rejected.id) }, docUUID: 'sl2-signed-1', documentType: 'sl2_form' },
			items: [{}],
			credentials: { apiKey: keyByName('t2').key, baseUrl: sb.baseUrl },
			continueOnFail: true,
		});
		expect(attached.output![0].json.error).toBeUndefined();
		await control(`/invoices/${String(rejected.id)}/status`, { status: 're-submitted', state_status: 'sent' });
		const again = (await runInvoiceOn(sb, 't2', { operation: 'reconcile', ...COLUMNS, ...OCTOBER }, rows, 2)).output!.map((o) => o.json);
		expect(again[0]).toMatchObject({ answer: 'filed as the sheet says', status: 're-submitted', filing_state: 'sent' });
		expect(again[0].next_step).toBeUndefined();
		expect((await api('t2').get(`/invoices/${String(rejected.id)}/documents`)).data.data.documents).toEqual([expect.objectContaining({ doc_type: 'sl2_form', external_doc_uuid: 'sl2-signed-1' })]);
	});
});

describe('what is late (issue 55)', () => {
	const dayFrom = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
	const us = (isoDay: string) => `${isoDay.slice(5, 7)}/${isoDay.slice(8, 10)}/${isoDay.slice(0, 4)}`;

	it('t2: each row not filed and each filing not yet sent or rejected says its state’s deadline and the days left or overdue; Only Due Within lists just those', async () => {
		const p = 'MELATE';
		const rows = [
			// Florida: 30 days from the effective date. Effective 40 days ago: 10 days overdue.
			{ ...row(`${p}-1`, 'New', '1000', [us(dayFrom(-40)), us(dayFrom(325))]), State: 'FL' },
			// Texas: 60 days. Effective 10 days ago: 50 days left.
			row(`${p}-2`, 'New', '1000', [us(dayFrom(-10)), us(dayFrom(355))]),
			// A state whose rule the package did not find: says so, no days.
			{ ...row(`${p}-3`, 'New', '1000', [us(dayFrom(-10)), us(dayFrom(355))]), State: 'OH' },
			// Filed and accepted: nothing is due.
			row(`${p}-4`, 'New', '1000', [us(dayFrom(-10)), us(dayFrom(355))]),
		];
		const bodies = (await runInvoiceOn(sb, 't2', { operation: 'checkSheet', ...COLUMNS }, rows, 2)).output!.map((o) => o.json.body as IDataObject);
		const filed = await post('t2', { ...bodies[3], invoice_number: derivedMark(bodies[3]) });
		await control(`/invoices/${String(filed.id)}/status`, { status: 'success', state_status: 'accepted' });
		const { output: allOut, run } = await runInvoiceOn(sb, 't2', { operation: 'reconcile', ...COLUMNS }, rows, 2);
		const all = allOut!.map((o) => o.json);
		const hints = Object.values(run.data.resultData.runData).flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string }>);
		expect(hints.some((h) => h.message.includes('1 rows or filings are past their state’s filing deadline'))).toBe(true);
		expect(all[0].summary).toMatchObject({ overdue: 1 });
		expect(all.map((j) => j.answer)).toEqual(['not filed', 'not filed', 'not filed', 'filed as the sheet says']);
		expect(all[0].deadline).toMatchObject({ state: 'FL', days_left: -10, due_date: dayFrom(-10), source: 'https://www.fslso.com/filing' });
		expect(String((all[0].deadline as IDataObject).said)).toBe(`10 days overdue (due ${dayFrom(-10)})`);
		expect(all[1].deadline).toMatchObject({ state: 'TX', days_left: 50 });
		expect(all[2].deadline).toMatchObject({ state: 'OH', days_left: null, due_date: null });
		expect(String((all[2].deadline as IDataObject).rule)).toMatch(/^not found/);
		expect(all[3].deadline).toBeUndefined();

		const due = (await runInvoiceOn(sb, 't2', { operation: 'reconcile', ...COLUMNS, options: { dueWithinDays: 30 } }, rows, 2)).output!.map((o) => o.json);
		expect(due.map((j) => j.policy_number)).toEqual([`${p}-1`, `${p}-3`]);
	});
});
