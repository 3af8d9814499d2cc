/**
 * Issue 53, against the sandbox: Check Sheet, Preview, Create, Create Many and Reconcile Sheet give
 * one answer for a row. One day-first sheet (a GBP row, a risk in Western Australia, an unknown
 * NAIC, a wrong SL Tax, a change dated 03/04/2026 read day first as the sheet proves) runs through
 * each operation on a legacy and a keyed t3 account at version 4's defaults, each on a fresh sandbox; each
 * row's verdict is compared: what Check Sheet refuses every operation refuses with the same
 * reasons, Create and Create Many file the same rows, and Reconcile Sheet says "Create would file
 * it" only of the rows Create filed.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runInvoiceOn, useSandboxSuite } from '../helpers/sandboxSuite';

const sb = useSandboxSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

const row = (n: number, extra: IDataObject = {}): IDataObject => ({
	'Policy No': `ONE-${n}`,
	'Insured Name': `Insured ${n}`,
	'Risk State': 'TX',
	'Risk Country': 'US',
	Currency: 'USD',
	'Trans Type': 'New',
	'Eff Dt': '30/04/2026',
	'Exp Dt': '30/04/2027',
	'Trans Eff Dt': '',
	'Gross Premium': '10,000.00',
	NAIC: '90001',
	'SL Tax': '',
	...extra,
});
const SHEET = [
	row(1),
	row(2, { Currency: 'GBP' }),
	row(3, { 'Risk State': 'WA', 'Risk Country': 'AU' }),
	row(4, { NAIC: '99999' }),
	row(5, { 'SL Tax': '533.50' }),
	row(6, { 'Trans Type': 'Endorsement', 'Eff Dt': '22/04/2026', 'Exp Dt': '22/04/2027', 'Trans Eff Dt': '03/04/2026', 'Gross Premium': '500.00' }),
];

type Verdict = 'files' | 'refused';

const firstReason = (o: INodeExecutionData) => {
	const fields = (o.json.fields ?? o.json.reasons) as string[] | undefined;
	return fields?.[0];
};

describe.each(['legacy-t3', 't3'])('one answer for a row, whatever the operation (%s, version 4)', (keyName) => {
	const verdicts: Record<string, Verdict[]> = {};
	const reasonsOf: Record<string, Array<string | undefined>> = {};
	const run = async (operation: string) => (await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO }, SHEET, 4)).output!;

	it('Check Sheet', async () => {
		const out = await run('checkSheet');
		verdicts.checkSheet = out.map((o) => (o.json.result === 'would be sent' ? 'files' : 'refused'));
		reasonsOf.checkSheet = out.map(firstReason);
		expect(verdicts.checkSheet).toEqual(['files', 'refused', 'refused', 'files', 'files', 'files']);
	});

	it('Preview', async () => {
		const out = await run('preview');
		// A row the service's checks refuse is a preview with validation.valid false.
		verdicts.preview = out.map((o) => (o.json.error || (o.json.validation as IDataObject | undefined)?.valid === false ? 'refused' : 'files'));
		reasonsOf.preview = out.map(firstReason);
	});

	it('Create', async () => {
		const out = await run('create');
		verdicts.create = out.map((o) => (o.json.outcome === 'filed' ? 'files' : 'refused'));
		reasonsOf.create = out.map(firstReason);
	});

	it('Create Many', async () => {
		const out = await run('createMany');
		verdicts.createMany = out.map((o) => (o.json.outcome === 'filed' ? 'files' : 'refused'));
		reasonsOf.createMany = out.map(firstReason);
	});

	it('Reconcile Sheet', async () => {
		const out = (await run('reconcile')).filter((o) => o.json.row !== null);
		verdicts.reconcile = out.map((o) => (o.json.answer === 'not filed' && String(o.json.note).endsWith('Create would file it.') ? 'files' : 'refused'));
		reasonsOf.reconcile = out.map(firstReason);
	});

	it('gives each row one answer', () => {
		// The unknown NAIC (row 5) and the wrong SL Tax (row 6) are refused by the checks Check
		// Sheet does not make (the account's look-up, the tax check): every operation that makes
		// them refuses them, and Reconcile does not say Create would file them.
		const expected: Verdict[] = ['files', 'refused', 'refused', 'refused', 'refused', 'files'];
		expect(verdicts).toEqual({ checkSheet: verdicts.checkSheet, preview: expected, create: expected, createMany: expected, reconcile: expected });
		// What Check Sheet refuses, every operation refuses with the same first reason.
		for (const index of [1, 2]) {
			const reason = reasonsOf.checkSheet[index];
			expect(reason).toBeDefined();
			for (const op of ['preview', 'create', 'createMany', 'reconcile']) expect([op, reasonsOf[op][index]]).toEqual([op, reason]);
		}
	});
});
