/**
 * Issue 45, against the sandbox in n8n's engine: a broker system's "Premium & Tax Detail" report
 * (test/helpers/reportSheet.ts: title lines, one row per charge, subtotals, a page-break header, a
 * blank row, a grand total) filed with Map Automatically (typeVersion 2) in two column layouts:
 * Create with Sheet Tax Check = fail on new-features t2 and legacy t2, Create Many on legacy t3.
 * Each transaction is filed once with its premium, fees and taxes; no charge, total, header or
 * blank row is filed; and every row's item says what became of it.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { REPORT_HEADER_LINE, REPORT_XLSX, extractCsv, extractXlsx, reportCsv, reportCsvLayoutB } from '../helpers/reportSheet';
import { runInvoiceOn, storedInvoice, useSandboxSuite } from '../helpers/sandboxSuite';

const sb = useSandboxSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

async function run(keyName: string, operation: string, items: IDataObject[], extra: IDataObject = {}) {
	const options = operation === 'create' ? { sheetTaxCheck: 'fail' } : {};
	const result = await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO, options, ...extra }, items, 2);
	return result.output!;
}

/** The transactions of the example report, as filed: type (the service's name, upper case), premium and fee lines by code. */
const FILINGS = (prefix: string) => [
	{ row: 1, policy: `${prefix}-1001`, type: 'NEW', premium: 2000, fees: { policy_fee_company: 100, sl_tax: 101.85, stamping_fee: 0.84 } },
	{ row: 6, policy: `${prefix}-1002`, type: 'NEW', premium: 1000, fees: { inspection_fee: 100, sl_tax: 53.35, stamping_fee: 0.44 } },
	{ row: 12, policy: `${prefix}-1001`, type: 'ENDORSEMENT', premium: 500, fees: { sl_tax: 24.25, stamping_fee: 0.2 } },
	{ row: 16, policy: `${prefix}-1003`, type: 'CANCELLED', premium: -1000, fees: { sl_tax: -48.5, stamping_fee: -0.4 } },
];
const LEFT_OUT: Record<number, string> = { 5: 'subtotal row', 8: 'repeated header row', 11: 'subtotal row', 15: 'subtotal row', 19: 'subtotal row', 20: 'blank row', 21: 'total row' };
const CHARGE_OF: Record<number, number> = { 2: 1, 3: 1, 4: 1, 7: 6, 9: 6, 10: 6, 13: 12, 14: 12, 17: 16, 18: 16 };

function typeName(invoice: IDataObject): string {
	const type = invoice.type as IDataObject | string | undefined;
	const name = typeof type === 'object' ? (type.code ?? type.name) : type;
	return String(name ?? invoice.type_code).toUpperCase();
}

async function filed(keyName: string, json: IDataObject) {
	const invoice = await storedInvoice(sb, keyName, json.id);
	const fees = Object.fromEntries(((invoice.fees ?? []) as IDataObject[]).map((f) => [String(f.type), Number(f.amount)]));
	return { policy: invoice.policy_number, type: typeName(invoice), premium: Number(invoice.net_premium), fees };
}

/** Each row's outcome, as the results workbook would show it. */
async function outcomes(keyName: string, output: INodeExecutionData[]) {
	expect(output.map((o) => (o.pairedItem as { item: number }).item)).toEqual([...output.keys()]);
	const filings = [];
	for (const [index, o] of output.entries()) {
		const row = index + 1;
		if (LEFT_OUT[row]) {
			expect(o.json).toMatchObject({ outcome: 'left_out', sheetRead: LEFT_OUT[row] });
		} else if (CHARGE_OF[row]) {
			// Rows are named as the package numbers them (sheetRows.ts): the filing row's own number.
			const filingRow = output[CHARGE_OF[row] - 1].json.sheetRow ?? (output[CHARGE_OF[row] - 1].json._charges as IDataObject[])[0].sheetRow;
			expect(o.json).toMatchObject({ outcome: 'charge', chargeOf: filingRow });
			expect(String(o.json.outcomeNote)).toContain(`charge of row ${String(filingRow)}'s filing`);
		} else {
			expect(o.json.error).toBeUndefined();
			expect(o.json.outcome).toBe('filed');
			const charges = (o.json._charges as IDataObject[]).map((c) => c.sheetRow);
			const members = Object.keys(CHARGE_OF).map(Number).filter((r) => CHARGE_OF[r] === row);
			expect(charges.slice(1)).toEqual(members.map((r) => output[r - 1].json.sheetRow));
			expect(members.map((r) => output[r - 1].json.chargeOf)).toEqual(members.map(() => charges[0]));
			filings.push({ row, ...(await filed(keyName, o.json)) });
		}
	}
	return filings;
}

describe('a Premium & Tax Detail report', () => {
	it.each([
		['t2', 'create', 'Charge + Amount', reportCsv],
		['legacy-t2', 'create', 'Charge + Amount', reportCsv],
		['legacy-t3', 'createMany', 'Charge + Amount', reportCsv],
		['t2', 'create', 'Charge Type + Charge Amount', reportCsvLayoutB],
		['legacy-t2', 'create', 'Charge Type + Charge Amount', reportCsvLayoutB],
		['legacy-t3', 'createMany', 'Charge Type + Charge Amount', reportCsvLayoutB],
	])('on %s with %s (%s): each transaction filed once with its premium, fees and taxes', async (keyName, operation, _layout, csv) => {
		const prefix = `RPT${keyName.replace(/\W/g, '')}${operation.length}${csv === reportCsv ? 'A' : 'B'}`;
		const output = await run(keyName, operation, extractCsv(csv(prefix), REPORT_HEADER_LINE));
		expect(await outcomes(keyName, output)).toEqual(
			FILINGS(prefix).map(({ row, policy, type, premium, fees }) => ({ row, policy, type, premium, fees })),
		);
	});

	it.each([
		['t2', 'create'],
		['legacy-t2', 'create'],
		['legacy-t3', 'createMany'],
	])('on %s with %s, the XLSX copy read from its header (Range 3): each transaction filed once with its premium, fees and taxes', async (keyName, operation) => {
		// The workbook's policy numbers are the example's own (RPT-…): each account is its own book.
		const output = await run(keyName, operation, await extractXlsx(REPORT_XLSX, REPORT_HEADER_LINE - 1));
		// The workbook's empty row is no item (SheetJS skips it): the grand total is row 20.
		const withoutBlank = output.slice(0, 19);
		expect(withoutBlank.filter((o) => o.json.outcome === 'filed')).toHaveLength(4);
		expect(output[19].json).toMatchObject({ outcome: 'left_out', sheetRead: 'total row' });
		const first = await filed(keyName, output[0].json);
		expect(first).toEqual({ policy: 'RPT-1001', type: 'NEW', premium: 2000, fees: { policy_fee_company: 100, sl_tax: 101.85, stamping_fee: 0.84 } });
	});

	it('the XLSX copy read with Extract From File\'s defaults: refused once, with the Range option to set', async () => {
		const output = await run('t2', 'create', await extractXlsx(REPORT_XLSX));
		expect(JSON.stringify(output[0].json)).toContain("set Extract From File's Range option to that row's number minus 1");
		for (const o of output.slice(1)) expect(JSON.stringify(o.json)).toMatch(/said once, on row \d+ \(item 0\)/);
		for (const o of output) expect(o.json.id).toBeUndefined();
	});

	it.each([
		['t2', 'create'],
		['legacy-t3', 'createMany'],
		['t2', 'preview'],
		['t2', 'checkSheet'],
	])('on %s with %s, title lines above the header: refused once for the sheet with the Starting Line to set, nothing filed', async (keyName, operation) => {
		const output = await run(keyName, operation, extractCsv(reportCsv('TTL')));
		expect(output).toHaveLength(24);
		const reasons = output.map((o) => JSON.stringify(o.json));
		expect(reasons[0]).toContain(`The header is on line ${REPORT_HEADER_LINE} of the file: set Extract From File's Starting Line to ${REPORT_HEADER_LINE}`);
		for (const reason of reasons.slice(1)) {
			expect(reason).toMatch(/said once, on row \d+ \(item 0\)/);
			expect(reason).not.toContain('missing');
		}
		for (const o of output) expect(o.json.id).toBeUndefined();
	});

	it.each(['t2', 'legacy-t2'])('on %s the sheet\'s SL Tax row is checked as any SL Tax column is: over the tolerance with Sheet Tax Check = fail, its transaction is refused and the others filed', async (keyName) => {
		const csv = reportCsv(`TAX${keyName.length}`).replace('SL Tax,101.85', 'SL Tax,110.00');
		const output = await run(keyName, 'create', extractCsv(csv, REPORT_HEADER_LINE));
		expect(JSON.stringify(output[0].json)).toContain('TAX_CHECK_FAILED');
		expect(output[0].json.id).toBeUndefined();
		for (const index of [1, 2, 3]) expect(output[index].json.outcome).toBe('charge');
		expect([5, 11, 15].map((index) => output[index].json.outcome)).toEqual(['filed', 'filed', 'filed']);
	});

	it('a charge the package does not know refuses its transaction naming it; the others are filed', async () => {
		const lines = reportCsv('UNK').split('\n');
		lines[5] = lines[5].replace('Policy Fee', 'Wind Pool Levy X');
		const output = await run('t2', 'create', extractCsv(lines.join('\n'), REPORT_HEADER_LINE));
		for (const index of [0, 1, 2, 3]) expect(JSON.stringify(output[index].json)).toContain('the package does not know the charge \\"Wind Pool Levy X\\" (row');
		expect(output[5].json.outcome).toBe('filed');
	});

	it('a user who follows the advice (Amount renamed Premium, Charge in Columns Not to File) still files each transaction once', async () => {
		const csv = reportCsv('ADV').replace('Charge,Amount', 'Charge,Premium').replace(/Charge,Amount/g, 'Charge,Premium');
		const output = await run('t2', 'create', extractCsv(csv, REPORT_HEADER_LINE), { columnsLeftOut: 'Charge' });
		expect((await outcomes('t2', output)).map((f) => [f.row, f.premium])).toEqual([[1, 2000], [6, 1000], [12, 500], [16, -1000]]);
	});

	it('two amount columns beside the charges: each row refused, the charge column never advised out; following the other column\'s advice files each transaction once', async () => {
		const csv = reportCsv('TWO')
			.split('\n')
			.map((line) => {
				const cells = line.split(',');
				if (cells.length < 9) return line;
				return [...cells, cells[0] === 'Policy Number' ? 'Amount Paid' : cells[8]].join(',');
			})
			.join('\n');
		const items = extractCsv(csv, REPORT_HEADER_LINE);
		const refused = await run('t2', 'create', items);
		const premiumRow = refused[0].json.fields as string[];
		expect(refused.every((o) => o.json.id === undefined)).toBe(true);
		const chargeReason = premiumRow.find((f) => f.startsWith('column "Charge"'));
		expect(chargeReason).toContain('its values name charges');
		expect(chargeReason).not.toContain('Columns Not to File');
		const paidReason = premiumRow.find((f) => f.startsWith('column "Amount Paid"'));
		expect(paidReason).toContain('Columns Not to File');
		const followed = await run('t2', 'create', items, { columnsLeftOut: 'Amount Paid' });
		expect((await outcomes('t2', followed)).map((f) => [f.row, f.premium])).toEqual([[1, 2000], [6, 1000], [12, 500], [16, -1000]]);
	});

	it('charges mostly unknown: the rows are not gathered, and every charge row is refused, also after the advice a user might take (Amount renamed Premium, Charge left out)', async () => {
		const csv = reportCsv('MST')
			.replace(/,Policy Fee,/g, ',Wind Pool Levy,')
			.replace(/,SL Tax,/g, ',Cat Fund Levy,')
			.replace(/,Stamping Fee,/g, ',Fire District Levy,');
		const asGiven = await run('t2', 'create', extractCsv(csv, REPORT_HEADER_LINE));
		const renamed = await run('t2', 'create', extractCsv(csv.replace(/Charge,Amount/g, 'Charge,Premium'), REPORT_HEADER_LINE), { columnsLeftOut: 'Charge' });
		for (const output of [asGiven, renamed]) {
			expect(output.filter((o) => o.json.id !== undefined)).toEqual([]);
			for (const [index, o] of output.entries()) {
				if (LEFT_OUT[index + 1]) continue;
				const charge = (o.json.fields as string[]).find((f) => f.startsWith('column "Charge"'));
				expect(charge).toContain('its values name charges');
				expect(charge).not.toContain('Columns Not to File');
			}
		}
	});

	it.each([
		// Found on its policy by the look first, on every account (a key replays for 24 hours only).
		['t2', 'create', 'already_filed'],
		['legacy-t2', 'create', 'already_filed'],
		['legacy-t3', 'createMany', 'already_filed'],
	])('on %s with %s, the report run again files nothing twice: each transaction comes back %s', async (keyName, operation, again) => {
		const items = extractCsv(reportCsv(`AGAIN${keyName.length}`), REPORT_HEADER_LINE);
		const first = await run(keyName, operation, items);
		const second = await run(keyName, operation, items);
		expect(second.map((o) => o.json.outcome)).toEqual(first.map((o) => (o.json.outcome === 'filed' ? again : o.json.outcome)));
		expect(second.map((o) => o.json.id)).toEqual(first.map((o) => o.json.id));
	});

	it('Preview and Check Sheet read the report as Create does: four transactions, every other row saying what it is', async () => {
		const items = extractCsv(reportCsv('PRV'), REPORT_HEADER_LINE);
		const previews = await run('t2', 'preview', items);
		expect(previews.map((o) => o.json.outcome ?? 'previewed')).toEqual(rowsFromHeader('previewed'));
		const checked = await run('t2', 'checkSheet', items);
		expect(checked.map((o) => String(o.json.result))).toEqual(
			rowsFromHeader('would be sent').map((r, n) => (r === 'charge' ? `charge of row ${String(checked[CHARGE_OF[n + 1] - 1].json.row)}'s filing` : r === 'left_out' ? 'left out' : r)),
		);
		expect((checked[0].json._charges as IDataObject[]).map((c) => [c.charge, c.as])).toEqual([
			['Premium', 'net_premium'],
			['Policy Fee', 'fee_policy_fee_company'],
			['SL Tax', 'fee_sl_tax'],
			['Stamping Fee', 'fee_stamping_fee'],
		]);
	});
});

/** Every row of the example from its header on: `first` for a transaction's row, else what it is. */
function rowsFromHeader(first: string): string[] {
	return Array.from({ length: 21 }, (_, n) => (LEFT_OUT[n + 1] ? 'left_out' : CHARGE_OF[n + 1] ? 'charge' : first));
}
