/**
 * Invoice → Reconcile Sheet against the sandbox, on every account kind (keyed t2 and t3, legacy
 * t2 and t3, and a t1 read-only key of the keyed account), with and without the sandbox showing
 * a service's own forms: a sheet with every kind of answer gets each row's answer right and
 * lists the invoices no row accounts for. Invoices the package filed carry its mark
 * (filing/mark.ts); the fixtures file them with the mark the way Create writes it, and enter
 * others by hand without one.
 */
import type { IDataObject } from 'n8n-workflow';

import { derivedMark } from '../../nodes/filing/mark';
import { useFakeClock } from '../helpers/fakeClock';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { runInvoiceOn, useSandboxSuite } from '../helpers/sandboxSuite';

const hintsOf = (run: Awaited<ReturnType<typeof runInvoiceOn>>['run']) =>
	Object.values(run.data.resultData.runData).flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string; type?: string }>);

const sb = useSandboxSuite();
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	fake = useFakeClock(Date.now());
});
afterEach(() => fake.restore());

const { api, control } = sandboxCalls(sb);
const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const COLUMNS = { inputMode: 'columns', columns: AUTO };

/** Each account kind, with the key that files its fixtures (t1 cannot file: the t2 key of its account). */
const KINDS = [
	{ key: 't2', filer: 't2', filing: true },
	{ key: 't3', filer: 't3', filing: true },
	{ key: 'legacy-t2', filer: 'legacy-t2', filing: false },
	{ key: 'legacy-t3', filer: 'legacy-t3', filing: false },
	{ key: 't1', filer: 't2', filing: true },
] as const;

/** A sheet row in an agency system's own headers. */
const sheetRow = (policy: string, extra: IDataObject = {}): IDataObject => ({
	'Policy #': policy,
	'Insured Name': 'Harbor Marine Co',
	State: 'TX',
	Premium: '1,200.00',
	'Eff Date': '03/01/2026',
	'Exp Date': '03/01/2027',
	...extra,
});

const reconcile = (key: string, items: IDataObject[], more: IDataObject = {}) =>
	runInvoiceOn(sb, key, { operation: 'reconcile', ...COLUMNS, ...more }, items, 2);

/** The create bodies Create would send for these rows (Check Sheet reads them as Create does). */
async function bodiesOf(key: string, rows: IDataObject[]): Promise<IDataObject[]> {
	const { output } = await runInvoiceOn(sb, key, { operation: 'checkSheet', ...COLUMNS }, rows, 2);
	return output!.map((o) => o.json.body as IDataObject);
}

async function post(key: string, body: IDataObject): Promise<IDataObject> {
	const res = await api(key).post('/invoices', body);
	if (res.status !== 201) throw new Error(`POST /invoices -> ${res.status} ${JSON.stringify(res.data)}`);
	return res.data.data as IDataObject;
}

/** Files a row as the package does: with its mark (its own invoice number, else the derived mark). */
const fileWithMark = (key: string, body: IDataObject) =>
	post(key, { ...body, invoice_number: body.invoice_number ?? derivedMark(body) });

const answers = (output: Array<{ json: IDataObject }>) => output.map((o) => [o.json.row, o.json.answer]);

/**
 * Files the fixtures for a sheet of every answer on the account of `filer`, and returns the sheet
 * and what each answer must name.
 */
async function everyAnswer(filer: string, p: string, filingShown: boolean) {
	const rows = [
		sheetRow(`${p}-A`),
		sheetRow(`${p}-B`),
		sheetRow(`${p}-C`),
		sheetRow(`${p}-D`),
		sheetRow(`${p}-E`),
		sheetRow(`${p}-F`, { State: 'Texass' }),
		sheetRow(`${p}-G`, { 'Invoice #': 'INV-0077' }),
	];
	const [a, b, c, , e, , g] = await bodiesOf(filer, rows);
	const filedA = await fileWithMark(filer, a);
	const filedB = await fileWithMark(filer, b);
	// Changed on the service after filing: the premium no longer what the sheet says.
	const changed = await api(filer).put(`/invoices/${String(filedB.id)}`, { net_premium: 1250 });
	expect(changed.status).toBe(200);
	// Entered by hand, without a mark: found by the rule of filing.
	const byHand = await post(filer, c);
	// Entered by hand, alike in all that tells transactions apart, another insured's name.
	const lookAlike = await post(filer, { ...e, insured_name: 'Harbour Marine Company' });
	const own = await fileWithMark(filer, g);
	// On a policy of the sheet, on no row: an endorsement filed by hand.
	const extra = await post(filer, { ...a, type_code: 'ENDORSEMENT', effective_date: '2026-06-01', net_premium: 300 });
	if (filingShown) {
		await control(`/invoices/${String(filedA.id)}/status`, { status: 'success', state_status: 'confirmed', confirmation_number: 'TX-CONF-1' });
		await control(`/invoices/${String(extra.id)}/status`, { status: 'error', state_status: 'rejected', message: 'Missing affidavit' });
	}
	return { rows, filedA, filedB, byHand, lookAlike, own, extra };
}

// Rows as the sheet shows them: the header is row 1.
const EXPECTED = [
	[2, 'filed as the sheet says'],
	[3, 'filed differently'],
	[4, 'filed as the sheet says'],
	[5, 'not filed'],
	[6, 'cannot tell'],
	[7, 'refused'],
	[8, 'filed as the sheet says'],
	[null, 'on the service, not on the sheet'],
];

describe.each(['plain', 'forms'] as const)('Reconcile Sheet, the sandbox %s', (forms) => {
	beforeEach(async () => {
		if (forms === 'forms') await control('/forms', { forms: 'all', mode: 'all' });
	});

	it.each(KINDS)('$key: every row gets its answer; the invoices no row accounts for are listed', async ({ key, filer, filing }) => {
		const p = `RC${key.replace(/\W/g, '')}${forms.length}`;
		const f = await everyAnswer(filer, p, filing);
		const { output, run } = await reconcile(key, f.rows);
		const hints = hintsOf(run);
		const items = output!;
		// A transaction entered by hand carries no mark: under the service's forms its dates are
		// timestamps that read as either of two days, so it matches only through a second reading,
		// which is never "the same" (issue 44): Reconcile cannot tell, as Create would ask.
		const expected = forms === 'plain' ? EXPECTED : EXPECTED.map(([row, answer]) => [row, row === 4 ? 'cannot tell' : answer]);
		expect(answers(items)).toEqual(expected);
		const [a, b, c, d, e, refused, g, extra] = items.map((o) => o.json);

		expect(a).toMatchObject({ policy_number: `${p}-A`, recognised_by: 'mark', invoice_id: f.filedA.id });
		if (filing) expect(a).toMatchObject({ status: 'success', filing_state: 'confirmed', confirmation_number: 'TX-CONF-1' });
		expect(b).toMatchObject({ recognised_by: 'mark', invoice_id: f.filedB.id });
		// Named in the sheet's own column words, with the cell as the sheet writes it and the value as the service shows it.
		expect(b.differences).toEqual([{ column: 'Premium', field: 'net_premium', sheet: '1,200.00', service: expect.stringMatching(/^1250(\.00)?$/) }]);
		if (forms === 'plain') expect(c).toMatchObject({ recognised_by: 'forms', invoice_id: f.byHand.id });
		else expect(c.candidates).toEqual([expect.objectContaining({ invoice_id: f.byHand.id, differences: expect.arrayContaining([expect.objectContaining({ column: 'Eff Date', sheet: '03/01/2026', service: expect.stringContaining('either of two days') })]) })]);
		expect(d.invoice_id).toBeUndefined();
		expect(e.candidates).toEqual([
			expect.objectContaining({
				invoice_id: f.lookAlike.id,
				// Under the service's forms its dates read two ways as well (listed beside the name).
				differences: (forms === 'plain' ? (d: unknown[]) => d : expect.arrayContaining)([
					expect.objectContaining({ column: 'Insured Name', sheet: 'Harbor Marine Co', service: expect.stringMatching(/^harbour marine company$/i) }),
				]),
			}),
		]);
		expect(refused.policy_number).toBe(`${p}-F`);
		expect((refused.reasons as string[]).join(' ')).toContain('Column "State"');
		expect(g).toMatchObject({ invoice_id: f.own.id });
		// The service may show the sheet's own number in another form (INV-0077 as inv-77): the mark's
		// comparison form (filing/mark.ts: one case, no leading zeros in a run of digits) still finds it.
		expect(g.recognised_by).toBe('mark');
		expect(extra).toMatchObject({ invoice_id: f.extra.id, policy_number: `${p}-A`, row: null });
		if (filing) expect(extra).toMatchObject({ filing_state: 'rejected', filing_message: 'Missing affidavit' });

		// Paired to its row; the invoice not on the sheet to the first item.
		expect(items.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3, 4, 5, 6, 0].map((item) => ({ item })));
		const summary = hints.find((h) => String(h.message).includes('rows filed as the sheet says'));
		expect(summary?.message).toContain(
			`${forms === 'plain' ? '3' : '2'} rows filed as the sheet says, 1 differently, 1 not filed, ${forms === 'plain' ? '1' : '2'} cannot tell, 1 refused by the sheet’s own rules; 1 invoices on the service not on the sheet; ${filing ? 1 : 0} filings rejected by their state.`,
		);
	});
});

describe('Reconcile Sheet and Create agree', () => {
	it('legacy-t2: what Reconcile calls filed as the sheet says, a re-run of Create calls already filed; not filed, Create files; cannot tell, Create refuses', async () => {
		const p = 'RCTOGETHER';
		const rows = [sheetRow(`${p}-1`), sheetRow(`${p}-2`), sheetRow(`${p}-3`), sheetRow(`${p}-4`, { Premium: '900' })];
		const [one, , three] = await bodiesOf('legacy-t2', rows);
		await post('legacy-t2', one);
		await post('legacy-t2', { ...three, insured_name: 'Someone Else Entirely' });
		// Policy 4 holds a New of the same term at another premium: a second New of one term is
		// asked, never filed in silence (issue 44), by Create and Reconcile alike.
		await post('legacy-t2', { ...one, policy_number: `${p}-4` });
		const reconciled = (await reconcile('legacy-t2', rows)).output!.slice(0, rows.length).map((o) => o.json.answer);
		expect(reconciled).toEqual(['filed as the sheet says', 'not filed', 'cannot tell', 'cannot tell']);
		// Tax lines from a preview are the package's, not the sheet's: Reconcile compares what the
		// sheet says, so Create runs without them here (the hand-entered invoices carry none).
		const created = (await runInvoiceOn(sb, 'legacy-t2', { operation: 'create', ...COLUMNS, billTaxesFromPreview: false }, rows, 2)).output!;
		const CREATE_SAYS: Record<string, (json: IDataObject) => boolean> = {
			'filed as the sheet says': (json) => json.outcome === 'already_filed',
			'not filed': (json) => json.outcome === 'filed',
			'cannot tell': (json) => String(json.error).includes('may be this row\'s filing'),
		};
		created.forEach((item, index) => expect([reconciled[index], CREATE_SAYS[String(reconciled[index])](item.json)]).toEqual([reconciled[index], true]));
	});

	it.each(['legacy-t3', 't3'])('%s: rows filed by Create Many then reconciled are all filed as the sheet says (after the mark lands in Create: by their mark)', async (key) => {
		const p = `RCCREATE${key.replace(/\W/g, '')}`;
		const rows = [sheetRow(`${p}-1`), sheetRow(`${p}-2`), sheetRow(`${p}-2`, { 'Eff Date': '04/01/2026', Type: 'Endorsement', Premium: '100' })];
		const filed = (await runInvoiceOn(sb, key, { operation: 'createMany', ...COLUMNS }, rows, 2)).output!;
		expect(filed.map((o) => o.json.outcome)).toEqual(['filed', 'filed', 'filed']);
		const { output } = await reconcile(key, rows);
		expect(answers(output!)).toEqual([
			[2, 'filed as the sheet says'],
			[3, 'filed as the sheet says'],
			[4, 'filed as the sheet says'],
		]);
		expect(output!.map((o) => o.json.invoice_id)).toEqual(filed.map((o) => o.json.id));
		// Once Create writes the mark (h-44), this reads 'mark' for every row.
		expect(output!.map((o) => o.json.recognised_by)).toEqual(['mark', 'mark', 'mark']);
	});
});

describe('Reconcile Sheet over a period', () => {
	it('t2: invoices of the account effective in the period that no row accounts for are listed, other policies included', async () => {
		const p = 'RCPERIOD';
		const rows = [sheetRow(`${p}-1`, { 'Eff Date': '03/01/2031', 'Exp Date': '03/01/2032' })];
		const [one] = await bodiesOf('t2', rows);
		const filed = await fileWithMark('t2', one);
		const other = await post('t2', { ...one, policy_number: `${p}-OTHER`, invoice_number: 'X-1' });
		await post('t2', { ...one, policy_number: `${p}-LATER`, invoice_number: 'X-2', effective_date: '2031-05-01', expiration_date: '2032-05-01' });
		const { output, run } = await reconcile('t2', rows, {
			notOnSheetScope: 'period',
			periodBy: 'effective',
			periodFrom: '2031-03-01T00:00:00',
			periodTo: '2031-03-31T00:00:00',
		});
		expect(output!.map((o) => [o.json.answer, o.json.invoice_id])).toEqual([
			['filed as the sheet says', filed.id],
			['on the service, not on the sheet', other.id],
		]);
		expect(String(hintsOf(run).find((h) => String(h.message).includes('calls'))?.message)).toContain('the account’s listing, 100 a page');
	});
});
