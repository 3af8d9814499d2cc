/**
 * Issue 32, against the sandbox in n8n's engine: a sheet's row is filed as its columns say, or
 * refused naming the columns, never settled by a column's rank or dropped in silence. Each sheet
 * runs through Map Automatically (typeVersion 2) on every account kind (keyed t2 and t3, legacy
 * t2 and t3), with Create and with Create Many; what is stored is read back through the API and
 * must be the same filing everywhere, with no row lost.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isDerivedMark } from '../../nodes/filing/mark';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../harness/engine';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();

const KEYS = ['t2', 't3', 'legacy-t2', 'legacy-t3'];
const OPERATIONS = ['create', 'createMany'] as const;
const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

async function run(keyName: string, operation: string, items: IDataObject[]) {
	const { output } = await runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', operation, inputMode: 'columns', columns: AUTO },
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sb.baseUrl },
		continueOnFail: true,
		settings: { typeVersion: 2 },
	});
	return output!;
}

async function stored(keyName: string, id: unknown): Promise<IDataObject> {
	const res = await fetch(`${sb.baseUrl}/invoices/${String(id)}`, {
		headers: { authorization: `Bearer ${keyByName(keyName).key}` },
	});
	return ((await res.json()) as { data: IDataObject }).data;
}

/** The stored invoice as the state sees it, the same on every account. */
async function filing(keyName: string, id: unknown): Promise<IDataObject> {
	const invoice = await stored(keyName, id);
	const fees = (invoice.fees as IDataObject[]).filter((f) => f.type === 'stamping_fee' || f.type === 'sl_tax');
	return {
		type: (invoice.type as IDataObject).name,
		state: (invoice.state as IDataObject).code,
		net_premium: invoice.net_premium,
		change_date: invoice.transaction_effective_date ?? invoice.effective_date,
		// A derived mark holds the policy number, which each account's run makes its own.
		invoice_number: isDerivedMark(invoice.invoice_number) ? 'mark' : invoice.invoice_number,
		sl_tax_sign: Math.sign(Number(fees.find((f) => f.type === 'sl_tax')?.amount ?? 0)),
		stamping_fee: fees.find((f) => f.type === 'stamping_fee')?.amount,
	};
}

/**
 * The rules other than a date read month first because nothing in the sheet proves an order
 * (said on every such row from issue 53; these sheets write US dates of days 1-12).
 */
const rulesBesideDates = (rules: unknown) => {
	const list = ((rules ?? []) as IDataObject[]).filter((r) => !String(r.rule).includes('reads both ways and no date in the sheet shows'));
	return list.length ? list : undefined;
};

/** Every row's result: its filing, or the error's fields; each row has exactly one item. */
async function results(keyName: string, output: INodeExecutionData[], rows: number) {
	expect(output).toHaveLength(rows);
	expect(output.map((o) => (o.pairedItem as { item: number }).item)).toEqual([...Array(rows).keys()]);
	return await Promise.all(
		output.map(async (o) =>
			o.json.error
				? { refused: o.json.fields ?? [o.json.error] }
				: { outcome: o.json.outcome === 'replayed' || o.json.outcome === 'already_filed' ? 'not filed twice' : o.json.outcome, ...(await filing(keyName, o.json.id)), rules: rulesBesideDates(o.json._columnRules), ignored: o.json._ignoredColumns },
		),
	);
}

/** A TX endorsement row of policy `policy` with the given columns. */
const row = (policy: string, columns: IDataObject): IDataObject => ({
	'Policy #': policy,
	'Insured Name': 'Harbor Freight Storage LLC',
	State: 'TX',
	'Eff Date': '03/01/2026',
	'Exp Date': '03/01/2027',
	Premium: '500',
	...columns,
});

/**
 * Runs `sheet` on every account kind with both operations: the same results on every kind, and
 * the same between Create and Create Many but for the taxes Create bills from a preview (Create
 * Many bills what the sheet gives). Returns Create's.
 */
async function everywhere(name: string, sheet: (policy: string) => IDataObject[], kinds = KEYS) {
	const all: Record<string, IDataObject[]> = {};
	for (const keyName of kinds) {
		for (const operation of OPERATIONS) {
			const policy = `${name}-${keyName}-${operation}`;
			const rows = sheet(policy);
			all[`${keyName} ${operation}`] = await results(keyName, await run(keyName, operation, rows), rows.length);
		}
	}
	const same = (kind: string, like: string, strip = (r: IDataObject) => r) =>
		expect([kind, all[kind].map(strip)]).toEqual([kind, all[like].map(strip)]);
	const billed = (result: IDataObject) => {
		const rest = { ...result };
		delete rest.sl_tax_sign;
		delete rest.stamping_fee;
		return rest;
	};
	for (const keyName of kinds) {
		same(`${keyName} create`, 't2 create');
		same(`${keyName} createMany`, 't2 createMany');
	}
	same('t2 createMany', 't2 create', billed);
	return all['t2 create'];
}

const refusedFor = (text: string) => ({ refused: [expect.stringContaining(text)] });

describe('two columns that give one field and disagree', () => {
	it('Type "Endorsement" beside Transaction Code "RPE": a return endorsement, filed negative, the rule said', async () => {
		const [result] = await everywhere('COL-RPE', (p) => [
			row(p, { Type: 'Endorsement', 'Transaction Code': 'RPE', 'Transaction Effective Date': '07/01/2026' }),
		]);
		expect(result).toMatchObject({ outcome: 'filed', type: 'Endorsement', net_premium: -500, sl_tax_sign: -1 });
		expect(result.rules).toEqual([
			expect.objectContaining({ field: 'type_code', column: 'Transaction Code', value: 'RPE', over: [{ column: 'Type', value: 'Endorsement' }] }),
		]);
	});

	it('"Cancellation" beside "FC": a flat cancellation returning premium; "New" beside "RPE": refused naming both', async () => {
		const results = await everywhere('COL-FC', (p) => [
			row(p, { 'Transaction Type': 'Cancellation', 'Transaction Code': 'FC', Premium: '1000', 'Transaction Effective Date': '03/01/2026' }),
			row(`${p}-B`, { Type: 'New', 'Transaction Type': 'RPE' }),
		]);
		expect(results[0]).toMatchObject({ outcome: 'filed', type: 'Cancelled', net_premium: -1000 });
		expect(results[1]).toEqual(refusedFor('columns "Type" (New) and "Transaction Type" (RPE) give this field different values'));
	});

	it('Gross Premium 10,000 beside Net Premium 8,500: the gross premium is filed and the item says why', async () => {
		const [result] = await everywhere('COL-GROSS', (p) => [
			row(p, { Premium: undefined, 'Gross Premium': '10,000', 'Net Premium': '8,500', Type: 'New' }),
		]);
		expect(result).toMatchObject({ outcome: 'filed', type: 'New', net_premium: 10000 });
		expect(result.rules).toEqual([expect.objectContaining({ field: 'net_premium', column: 'Gross Premium', over: [{ column: 'Net Premium', value: '8,500' }] })]);
	});

	it('Home State NY beside Risk State NJ: filed in NY, the taxing state, and said', async () => {
		const [result] = await everywhere('COL-HOME', (p) => [row(p, { State: undefined, 'Home State': 'NY', 'Risk State': 'NJ' })]);
		expect(result).toMatchObject({ outcome: 'filed', state: 'NY' });
		expect(result.rules).toEqual([expect.objectContaining({ field: 'state_code', column: 'Home State', value: 'NY' })]);
	});
});

describe('columns whose meaning was dropped', () => {
	it.each(['Cancellation Effective Date', 'Cancel Date', 'Cancellation Date'])('"%s" on a PC row is the date of the cancellation', async (column) => {
		const [result] = await everywhere(`COL-CXL-${column.length}`, (p) => [row(p, { 'Transaction Type': 'PC', [column]: '09/01/2026' })]);
		expect(result).toMatchObject({ outcome: 'filed', type: 'Cancelled', net_premium: -500, change_date: '2026-09-01' });
	});

	it('"TX Stamping Fee" on a TX row is filed; "NY Stamping Fee" with an amount on a TX row is refused', async () => {
		const results = await everywhere('COL-FEE', (p) => [
			row(p, { 'TX Stamping Fee': '0.90', 'NY Stamping Fee': '' }),
			row(`${p}-B`, { 'NY Stamping Fee': '0.75' }),
		]);
		expect(results[0]).toMatchObject({ outcome: 'filed', stamping_fee: 0.9 });
		expect(results[1]).toEqual(refusedFor('column "NY Stamping Fee" (0.75) is a fee for NY, but the row\'s state is TX'));
	});

	it('two endorsements differing only in "Endorsement #" are two filings, each with its number', async () => {
		const results = await everywhere('COL-ENDT', (p) => [
			row(p, { Type: 'Endorsement', 'Endorsement #': '1', 'Transaction Effective Date': '06/01/2026' }),
			row(p, { Type: 'Endorsement', 'Endorsement #': '2', 'Transaction Effective Date': '06/01/2026' }),
		], KEYS);
		expect(results.map((r) => [r.outcome, r.invoice_number])).toEqual([
			['filed', '1'],
			['filed', '2'],
		]);
	});

	it('"Transaction Date" is not taken as the date of the change: listed on a new row, refused on an endorsement with no other date', async () => {
		const results = await everywhere('COL-TDATE', (p) => [
			row(p, { Type: 'New', 'Transaction Date': '02/15/2026' }),
			row(p, { Type: 'Endorsement', 'Transaction Date': '02/20/2026' }),
		]);
		expect(results[0]).toMatchObject({ outcome: 'filed', change_date: '2026-03-01' });
		expect(results[0].ignored).toEqual([expect.objectContaining({ column: 'Transaction Date', value: '02/15/2026' })]);
		expect(results[1]).toEqual(refusedFor('column "Transaction Date" (02/20/2026) is read as the day the transaction was booked'));
	});
});

describe('rows of one run that give one invoice', () => {
	it('differ only in a column the invoice does not carry: the later row is refused naming it, not replayed', async () => {
		const results = await everywhere('COL-SAME', (p) => [
			row(p, { Type: 'New', Producer: 'Coastal Brokerage' }),
			row(p, { Type: 'New', Producer: 'Gulf Brokerage' }),
			row(p, { Type: 'New', Producer: 'Coastal Brokerage' }),
		]);
		expect(results[0]).toMatchObject({ outcome: 'filed' });
		expect(results[1]).toEqual(refusedFor('Row 3 would file the same invoice as row 2 of this run, but its columns differ: "Producer" (Coastal Brokerage in row 2, Gulf Brokerage here)'));
		// The same row written twice is still filed once.
		expect(results[2].outcome).toBe('not filed twice');
	});
});
