/**
 * Issue 53, against the sandbox in n8n's engine, node version 4 with its default settings: a
 * London coverholder's supplementary bordereau (day-first dates, an original and a settlement
 * currency, the insured's and the risk's country) filed with Map Automatically on keyed t2 and
 * legacy t2 (Create) and legacy t3 (Create Many). Nothing is filed wrong: a GBP row, a risk in
 * Western Australia (WA beside AU) and a row whose SL Tax is 10 % high are refused, each named
 * with its sheet row and its own header; the change dates of days 1-12 are read day first, as the
 * sheet's other columns prove, also after following the advice to empty them on New rows.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import ExcelJS from 'exceljs';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { extractXlsx } from '../helpers/reportSheet';

import { runInvoiceOn, storedInvoice, useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

const row = (policy: string, extra: IDataObject = {}): IDataObject => ({
	'Certificate Ref': policy,
	'Insured Name': `Insured ${policy}`,
	'Risk State': 'TX',
	'Risk Country': 'US',
	'Orig Curr': 'USD',
	'Trans Type': 'New',
	'Eff Dt': '30/04/2026',
	'Exp Dt': '30/04/2027',
	'Trans Eff Dt': '',
	'Gross Premium': '10,000.00',
	'SL Tax': '',
	...extra,
});

/** The bordereau, the change-date column left empty on New rows (the package's own advice). */
const SHEET = (p: string) => [
	row(`${p}-01`),
	row(`${p}-02`, { 'Orig Curr': 'GBP' }),
	row(`${p}-03`, { 'Risk State': 'WA', 'Risk Country': 'AU' }),
	row(`${p}-04`, { 'Trans Type': 'Endorsement', 'Eff Dt': '22/04/2026', 'Exp Dt': '22/04/2027', 'Trans Eff Dt': '03/04/2026', 'Gross Premium': '500.00' }),
	row(`${p}-05`, { 'Trans Type': 'Endorsement', 'Eff Dt': '01/03/2026', 'Exp Dt': '01/03/2027', 'Trans Eff Dt': '10/04/2026', 'Gross Premium': '800.00' }),
	// TX on 2026-04-30 computes 485.00 on 10,000: 533.50 is 10 % high.
	row(`${p}-06`, { 'SL Tax': '533.50' }),
	row(`${p}-07`, { 'Orig Curr': 'GBP', 'Gross Premium USD': '12,700.00' }),
];

async function policyInvoices(keyName: string, policy: string): Promise<IDataObject[]> {
	const res = await fetch(`${sb.baseUrl}/invoices?policy_number=${policy}&page=1&per_page=100`, {
		headers: { authorization: `Bearer ${keyByName(keyName).key}` },
	});
	return ((await res.json()) as { data: { invoices: IDataObject[] } }).data.invoices;
}

const text = (o: INodeExecutionData) => JSON.stringify(o.json);

describe('a bordereau read with its currency, country, date order and tax figures (version 4 defaults)', () => {
	it.each([
		['t2', 'create'],
		['legacy-t2', 'create'],
		['legacy-t3', 'createMany'],
	])('on %s with %s: nothing filed wrong, each refused row named with its sheet row and header', async (keyName, operation) => {
		const p = `VC${keyName.replace(/\W/g, '')}${operation.length}`;
		const items = SHEET(p);
		const { output } = await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO }, items, 4);
		expect(output).toHaveLength(items.length);

		// Refused: the GBP row (sheet row 3), the risk in Western Australia (row 4), the wrong SL Tax (row 7).
		const refused = (index: number) => {
			expect(output![index].json.error).toBeDefined();
			return text(output![index]);
		};
		expect(refused(1)).toContain('column \\"Gross Premium\\" (10,000.00): the amount is in GBP (column \\"Orig Curr\\" (GBP))');
		expect(refused(2)).toContain('column \\"Risk Country\\" (AU): a country other than the United States');
		expect(refused(2)).toContain('column \\"Risk State\\" (WA) is not read as a US state');
		expect(refused(5)).toContain('Tax check: Surplus Lines Tax (column \\"SL Tax\\"): sheet 533.50, computed 485.00');
		expect(refused(5)).toContain('TAX_CHECK_FAILED');
		for (const [index, sheetRow] of [[1, 3], [2, 4], [5, 7]]) {
			expect(output![index].json.sheetRow).toBe(sheetRow);
		}
		for (const n of ['02', '03', '06']) expect(await policyInvoices(keyName, `${p}-${n}`)).toEqual([]);

		// Filed: the plain row, the two changes on the day-first dates, the USD column of the GBP row.
		for (const index of [0, 3, 4, 6]) expect(output![index].json).toMatchObject({ outcome: 'filed' });
		const stored = async (index: number) => storedInvoice(sb, keyName, output![index].json.id);
		const changeDate = (invoice: IDataObject) => invoice.transaction_effective_date ?? invoice.effective_date;
		expect(changeDate(await stored(3))).toBe('2026-04-03');
		expect(changeDate(await stored(4))).toBe('2026-04-10');
		expect((await stored(0)).effective_date).toBe('2026-04-30');
		expect(Number((await stored(6)).net_premium)).toBe(12700);
		expect(output![3].json._columnRules).toEqual(
			expect.arrayContaining([expect.objectContaining({ column: 'Trans Eff Dt', rule: expect.stringContaining('the sheet writes its dates day first (column "Eff Dt", row 2: "30/04/2026")') })]),
		);
		expect(output![6].json._columnRules).toEqual(
			expect.arrayContaining([expect.objectContaining({ column: 'Gross Premium USD', over: [{ column: 'Gross Premium', value: '10,000.00' }] })]),
		);
	});

	it('Check Sheet says the same of each row before any call', async () => {
		const { output } = await runInvoiceOn(sb, 't2', { operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, SHEET('CS'), 4);
		expect(output!.map((o) => o.json.result)).toEqual(['would be sent', 'refused', 'refused', 'would be sent', 'would be sent', 'would be sent', 'would be sent']);
		expect((output![1].json.sheetColumns as IDataObject[]).find((c) => c.column === 'Orig Curr')).toMatchObject({ use: 'refused', field: 'currency' });
		expect((output![0].json.sheetColumns as IDataObject[]).find((c) => c.column === 'Risk Country')).toMatchObject({ use: 'rule', field: 'country' });
	});

	it.each([
		['t2', 'create'],
		['legacy-t2', 'create'],
		['legacy-t3', 'createMany'],
	])('on %s with %s, after following each refusal’s advice: the rows are filed as meant', async (keyName, operation) => {
		const p = `AD${keyName.replace(/\W/g, '')}${operation.length}`;
		// Before: a New row carries a change date (15/04/2026), which the package refuses, asking to
		// leave it empty; the GBP row is refused asking for US dollars; the wrong SL Tax, for the
		// computed figure. After following each: the change-date column holds only days 1-12.
		const before = [
			row(`${p}-01`, { 'Trans Eff Dt': '15/04/2026' }),
			row(`${p}-02`, { 'Trans Type': 'Endorsement', 'Eff Dt': '22/04/2026', 'Exp Dt': '22/04/2027', 'Trans Eff Dt': '03/04/2026', 'Gross Premium': '500.00' }),
			row(`${p}-03`, { 'Orig Curr': 'GBP', 'Gross Premium': '8,000.00' }),
			row(`${p}-04`, { 'SL Tax': '533.50' }),
		];
		const first = (await runInvoiceOn(sb, keyName, { operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, before, 4)).output!;
		expect(first.map((o) => o.json.result)).toEqual(['refused', 'would be sent', 'refused', 'would be sent']);
		expect(String((first[0].json.reasons as string[])[0])).toContain('leave the change date empty on a new or renewal row');
		expect(String((first[2].json.reasons as string[])[0])).toContain('convert the row\'s amounts to US dollars and write USD in "Orig Curr"');

		const after = [
			{ ...before[0], 'Trans Eff Dt': '' },
			before[1],
			{ ...before[2], 'Orig Curr': 'USD', 'Gross Premium': '10,160.00' },
			{ ...before[3], 'SL Tax': '485.00' },
		];
		const { output } = await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO }, after, 4);
		expect(output!.map((o) => o.json.outcome)).toEqual(['filed', 'filed', 'filed', 'filed']);
		const stored = async (index: number) => storedInvoice(sb, keyName, output![index].json.id);
		const changed = await stored(1);
		expect(changed.transaction_effective_date ?? changed.effective_date).toBe('2026-04-03');
		expect(Number((await stored(2)).net_premium)).toBe(10160);
	});

	it.each([
		['t2', 'create'],
		['legacy-t2', 'create'],
		['legacy-t3', 'createMany'],
	])('on %s with %s, an XLSX with percent and date cells: 15.00%% is 15 %%, a date cell its date', async (keyName, operation) => {
		const p = `XL${keyName.replace(/\W/g, '')}${operation.length}`;
		const workbook = new ExcelJS.Workbook();
		const sheet = workbook.addWorksheet('Bordereau');
		sheet.addRow(['Policy #', 'Insured Name', 'State', 'Type', 'Eff Date', 'Exp Date', 'Premium', 'Broker Commission %']);
		sheet.addRow([`${p}-1`, 'Gulf Coast Marina LLC', 'TX', 'New', new Date(Date.UTC(2026, 3, 30)), new Date(Date.UTC(2027, 3, 30)), 48000, 0.15]);
		sheet.getCell('E2').numFmt = 'dd/mm/yyyy';
		sheet.getCell('F2').numFmt = 'dd/mm/yyyy';
		sheet.getCell('H2').numFmt = '0.00%';
		const file = join(mkdtempSync(join(tmpdir(), 'h53-')), 'bordereau.xlsx');
		await workbook.xlsx.writeFile(file);
		const items = await extractXlsx(file);
		expect(items[0]).toMatchObject({ 'Eff Date': 46142, 'Broker Commission %': 0.15 });
		const { output } = await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO }, items, 4);
		expect(output![0].json.outcome).toBe('filed');
		const invoice = await storedInvoice(sb, keyName, output![0].json.id);
		expect(Number(invoice.commission)).toBe(7200);
		expect(invoice.effective_date).toBe('2026-04-30');
		expect(JSON.stringify(output![0].json._columnRules)).not.toContain('"rule":"46142');
	});
});
