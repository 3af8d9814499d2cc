/**
 * Issue 38, against the sandbox in n8n's engine: an agency-management export (test/helpers/
 * agencyExport.ts) filed with Map Automatically (typeVersion 2) on keyed and legacy t2 and t3
 * accounts, with Create and with Create Many. Each row is stored as the sheet says (read back
 * through the API) or refused naming the column; every column the rows do not use is listed on
 * the item; and Check Sheet lists every column of every row with what became of it.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { AGENCY_HEADER, AGENCY_LEFT_OUT, type AgencyRow, agencyItem, agencyRows, storedFiling } from '../helpers/agencyExport';
import { runInvoiceOn, storedInvoice, useSandboxSuite, EVERY_ACCOUNT_AND_OPERATION } from '../helpers/sandboxSuite';

const sb = useSandboxSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

async function run(keyName: string, operation: string, items: IDataObject[], options: IDataObject = {}) {
	return (await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO, columnsLeftOut: AGENCY_LEFT_OUT, options }, items, 2)).output!;
}

const stored = async (keyName: string, id: unknown) => await storedInvoice(sb, keyName, id);

/** Each row's result as the fixture states its expectation. */
async function results(keyName: string, output: INodeExecutionData[], rows: AgencyRow[]) {
	expect(output.map((o) => (o.pairedItem as { item: number }).item)).toEqual([...rows.keys()]);
	return await Promise.all(
		output.map(async (o, n) => {
			if (o.json.error) {
				const fields = (o.json.fields ?? [o.json.error]) as string[];
				const wanted = (rows[n].expect as { refused?: string }).refused;
				return { refused: wanted && fields.some((f) => f.includes(wanted)) ? wanted : fields };
			}
			const invoice = await stored(keyName, o.json.id);
			return {
				filing: storedFiling(invoice),
				ignored: ((o.json._ignoredColumns ?? []) as IDataObject[]).map((c) => String(c.column)).sort(),
			};
		}),
	);
}

const expected = (rows: AgencyRow[]) =>
	rows.map((row) => ('refused' in row.expect ? row.expect : { ...row.expect, ignored: [...row.expect.ignored].sort() }));

describe('an agency-management export', () => {
	it.each(EVERY_ACCOUNT_AND_OPERATION)('on %s with %s: each row filed as the sheet says or refused naming the column', async (keyName, operation) => {
		const rows = agencyRows(`AMS-${keyName}-${operation}`);
		const output = await run(keyName, operation, rows.map(agencyItem));
		expect(await results(keyName, output, rows)).toEqual(expected(rows));
	});

	it('Check Sheet lists every column of every row with what became of it, and the rows as Create reads them', async () => {
		const rows = agencyRows('AMS-CHECK');
		const output = await run('t2', 'checkSheet', rows.map(agencyItem));
		expect(output.map((o) => o.json.result)).toEqual(rows.map((r) => ('refused' in r.expect ? 'refused' : 'would be sent')));
		for (const o of output) {
			const columns = o.json.sheetColumns as IDataObject[];
			expect(columns.map((c) => c.column)).toEqual([...AGENCY_HEADER]);
			for (const c of columns) expect(['field', 'agrees', 'rule', 'tax check', 'not used', 'left out', 'refused', 'empty']).toContain(c.use);
		}
		const first = Object.fromEntries((output[0].json.sheetColumns as IDataObject[]).map((c) => [c.column, [c.use, c.field ?? c.why]]));
		expect(first).toMatchObject({
			'Inv Nbr': ['field', 'invoice_number'],
			'Insd St': ['field', 'state_code'],
			'Mailing St': ['not used', expect.stringContaining('not the state where the risk is taxed')],
			Trans: ['field', 'type_code'],
			'Pol Eff': ['field', 'effective_date'],
			'Trans Eff': ['empty', 'transaction_effective_date'],
			'Carrier NAIC': ['field', 'insurer_1_naic'],
			Prem: ['field', 'net_premium'],
			'Pol Fee': ['field', 'fee_policy_fee_company'],
			'Insp Fee': ['not used', 'fee_inspection_fee'],
			'Brkr Fee': ['field', 'fee_broker_fee'],
			'SL Tax': ['empty', 'fee_sl_tax'],
			Stamp: ['empty', 'fee_stamping_fee'],
			'MGA Fee': ['not used', expect.stringContaining('its value is 0')],
			'Earned Prem': ['left out', 'named in Columns Not to File'],
			'Retail Agent': ['not used', expect.stringContaining('does not read')],
		});
		const endorsement = output[3].json;
		expect(endorsement._columnRules).toEqual([expect.objectContaining({ field: 'transaction_effective_date', column: 'Trans Eff', rule: expect.stringContaining('day first') })]);
	});

	it.each(['t2', 'legacy-t2'])('on %s a Stamp of an old rate is compared by the tax check and kept as the sheet gives it, never replaced in silence; Fail mode refuses the row', async (keyName) => {
		const [row] = agencyRows(`AMS-STAMP-${keyName}`);
		const item: IDataObject = { ...agencyItem(row), Stamp: '26.10' };
		const [warned] = await run(keyName, 'create', [item]);
		const stamp = ((warned.json._taxCheck as IDataObject).lines as IDataObject[]).find((l) => l.column === 'Stamp');
		expect(stamp).toMatchObject({ code: 'stamping_fee', sheet: 26.1 });
		expect(warned.json._warnings).toEqual(expect.arrayContaining([expect.stringContaining('(column "Stamp"): sheet 26.10')]));
		const fees = ((await stored(keyName, warned.json.id)).fees as IDataObject[]).filter((f) => f.type === 'stamping_fee');
		expect(fees.map((f) => Number(f.amount))).toEqual([26.1]);
		const [failed] = await run(keyName, 'create', [{ ...item, 'Pol Nbr': `${String(item['Pol Nbr'])}-F` }], { sheetTaxCheck: 'fail' });
		expect(JSON.stringify(failed.json)).toContain('TAX_CHECK_FAILED');
	});
});
