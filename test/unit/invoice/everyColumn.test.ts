/**
 * Issue 38: every column of a row accounted for before any call (Map Automatically). A column the
 * reader does not know is listed as not used; one whose header names money, a tax, a fee, a
 * premium or a date, or whose value is an amount, refuses the row naming it and its value, unless
 * it is named in Columns Not to File. Check Sheet lists every column with what became of it.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { matchItemColumns } from '../../../nodes/sheet/columns';
import { BASE_ROW, run, setupSuite } from './helpers';

setupSuite();

const read = (columns: IDataObject, leftOut: string[] = []) =>
	matchItemColumns({ ...BASE_ROW, ...columns }, new Set(leftOut.map((c) => c.toLowerCase())));
const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

describe('a column the reader does not know', () => {
	it.each([
		['MGA Fee', '25.00', 'a fee'],
		['Annual Premium', '1200', 'a premium'],
		['Earned Premium', '300', 'a premium'],
		['Return Premium', '100', 'a premium'],
		['Bound Date', '02/20/2026', 'a date'],
	])('"%s" (%s) refuses the row, naming the column, its value and that its header names %s', (column, value, what) => {
		const matched = read({ [column]: value });
		expect(matched.problems).toEqual([
			expect.stringContaining(`column "${column}" (${value}): the package does not read this column and its header names ${what}`),
		]);
		expect(matched.accounts.find((a) => a.column === column)).toMatchObject({ use: 'refused' });
	});

	it.each([['Col R', '150.00'], ['Misc', '2,400.00 CR'], ['Adj', '(25.00)'], ['Extra', 75], ['Col Q', '$99']])('"%s" whose value is an amount (%j) refuses the row', (column, value) => {
		expect(read({ [column]: value }).problems).toEqual([expect.stringContaining(`column "${column}" (${typeof value === 'string' ? value : JSON.stringify(value)}): the package does not read this column and its value is an amount`)]);
	});

	it('other unknown columns (Retail Agent, CSR, a code) are listed as not used, never refused', () => {
		const matched = read({ 'Retail Agent': 'Lone Oak Agency', CSR: 'JD', 'Producer Code': 40117, 'Agent Code': '40117' });
		expect(matched.problems).toEqual([]);
		expect(matched.ignored.map((c) => c.column)).toEqual(['Retail Agent', 'CSR', 'Producer Code', 'Agent Code']);
		expect(matched.ignored[0].reason).toContain('a column the package does not read');
	});

	it('a column named in Columns Not to File is not read and is listed as left out, whatever its header', () => {
		const matched = read({ 'MGA Fee': '25.00', 'Policy Fee': '150' }, ['mga fee', 'Policy Fee']);
		expect(matched.problems).toEqual([]);
		expect(matched.values.fee_policy_fee_company).toBeUndefined();
		expect(matched.ignored).toEqual([
			{ column: 'MGA Fee', value: '25.00', reason: 'named in Columns Not to File' },
			{ column: 'Policy Fee', value: '150', reason: 'named in Columns Not to File' },
		]);
	});

	it('an empty unknown column is nothing to lose: neither refused nor listed', () => {
		const matched = read({ 'MGA Fee': '', 'Retail Agent': null });
		expect([matched.problems, matched.ignored]).toEqual([[], []]);
		expect(matched.accounts.filter((a) => a.use === 'empty').map((a) => a.column)).toEqual(['MGA Fee', 'Retail Agent']);
	});
});

describe('every column accounted for', () => {
	it('each header says the field it fills, the column it agrees with, the rule, the tax check, or why it is not used', () => {
		const matched = read({
			'Net Premium': '$500.00',
			'Policy Fee': '0',
			'SL Tax': '24.25',
			'Total Taxes': '24.25',
			'Transaction Date': '02/15/2026',
			'Retail Agent': 'Lone Oak',
		});
		expect(matched.problems).toEqual([]);
		expect(matched.accounts.map((a) => [a.column, a.use, a.field])).toEqual([
			['Policy #', 'field', 'policy_number'],
			['Insured Name', 'field', 'insured_name'],
			['State', 'field', 'state_code'],
			['Eff Date', 'field', 'effective_date'],
			['Exp Date', 'field', 'expiration_date'],
			['Premium', 'agrees', 'net_premium'],
			['Net Premium', 'field', 'net_premium'],
			['Policy Fee', 'not used', 'fee_policy_fee_company'],
			['SL Tax', 'field', 'fee_sl_tax'],
			['Total Taxes', 'tax check', 'sheet_total_taxes'],
			['Transaction Date', 'not used', undefined],
			['Retail Agent', 'not used', undefined],
		]);
		expect(matched.accounts[7].why).toBe('a 0 fee sends no fee line');
		expect(matched.accounts[10].why).toContain('booked');
	});

	it('a rule’s column and the column it was chosen over are both said', () => {
		const matched = read({ Premium: undefined, 'Gross Premium': '10,000', 'Net Premium': '8,500' });
		const of = (column: string) => matched.accounts.find((a) => a.column === column);
		expect(of('Gross Premium')).toMatchObject({ use: 'rule', field: 'net_premium' });
		expect(of('Net Premium')).toMatchObject({ use: 'not used', why: expect.stringContaining('column "Gross Premium" by the rule') });
	});

	it('columns that disagree are marked refused', () => {
		const matched = read({ 'Risk State': 'NJ' });
		expect(matched.accounts.filter((a) => a.use === 'refused').map((a) => a.column)).toEqual(['State', 'Risk State']);
	});
});

describe('Check Sheet and Create', () => {
	it('Check Sheet lists every column of the row with what became of it, and spends no call', async () => {
		const items = [
			{ ...BASE_ROW, 'Retail Agent': 'Lone Oak', 'MGA Fee': '25.00' },
			{ ...BASE_ROW, 'Retail Agent': 'Lone Oak', 'MGA Fee': '25.00' },
		];
		const first = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, { items: items.slice(0, 1) });
		expect(nock.pendingMocks()).toEqual([]);
		expect(first.output![0].json).toMatchObject({ result: 'refused', reasons: [expect.stringContaining('column "MGA Fee" (25.00)')] });
		expect((first.output![0].json.sheetColumns as IDataObject[]).map((c) => c.column)).toEqual(Object.keys(items[0]));
		const leftOut = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO, columnsLeftOut: 'MGA Fee' }, { items: items.slice(1) });
		expect(leftOut.output![0].json).toMatchObject({
			result: 'would be sent',
			_ignoredColumns: [expect.objectContaining({ column: 'Retail Agent' }), expect.objectContaining({ column: 'MGA Fee', reason: 'named in Columns Not to File' })],
		});
		expect((leftOut.output![0].json.sheetColumns as IDataObject[]).find((c) => c.column === 'MGA Fee')).toMatchObject({ use: 'left out' });
	});

	it('Create refuses a row with an unknown money column before any call, as an error item naming it', async () => {
		const { output } = await run(
			{ operation: 'create', inputMode: 'columns', columns: AUTO },
			{ items: [{ ...BASE_ROW, 'Annual Premium': '1,200.00' }], continueOnFail: true },
		);
		expect(nock.pendingMocks()).toEqual([]);
		expect(output![0].json.error).toBeDefined();
		expect(JSON.stringify(output![0].json)).toContain('column \\"Annual Premium\\" (1,200.00)');
	});
});

describe('a date column read in one form for all its rows', () => {
	const endorsement = (policy: string, date: string) => ({ ...BASE_ROW, 'Policy #': policy, Trans: 'END', 'Trans Eff': date });

	it('19/05/2026 in a column makes it day first throughout: 04/05/2026 there is May 4, said on the item', async () => {
		const items = [endorsement('P-1', '04/05/2026'), endorsement('P-2', '19/05/2026')];
		const { output } = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, { items });
		expect(output!.map((o) => [o.json.result, (o.json.body as IDataObject | undefined)?.transaction_effective_date])).toEqual([
			['would be sent', '2026-05-04'],
			['would be sent', '2026-05-19'],
		]);
		// Rows as the sheet numbers them (header = row 1): the proof is item 1, row 3 (issue 53).
		expect(output![0].json._columnRules).toEqual([
			expect.objectContaining({ field: 'transaction_effective_date', column: 'Trans Eff', value: '04/05/2026', rule: expect.stringContaining('the column writes the day first (row 3: "19/05/2026")') }),
			// The sheet's other date columns, all reading both ways, take the order it proves (issue 53).
			expect.objectContaining({ field: 'effective_date', column: 'Eff Date', value: '03/01/2026', rule: expect.stringContaining('the sheet writes its dates day first (column "Trans Eff", row 3') }),
			expect.objectContaining({ field: 'expiration_date', column: 'Exp Date', value: '03/01/2027' }),
		]);
		expect((output![0].json.body as IDataObject).effective_date).toBe('2026-01-03');
	});

	it('a column with 05/19/2026 and 19/05/2026 cannot be decided: each row with a date in it is refused naming the column', async () => {
		const items = [endorsement('P-1', '05/19/2026'), endorsement('P-2', '19/05/2026'), endorsement('P-3', '06/01/2026')];
		const { output } = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, { items });
		expect(output!.map((o) => o.json.result)).toEqual(['refused', 'refused', 'refused']);
		expect(output![2].json.reasons).toEqual([expect.stringContaining('column "Trans Eff" (06/01/2026): its dates are written month first in row 2 ("05/19/2026") and day first in row 3 ("19/05/2026")')]);
	});

	it('versions 1-3: where no date proves an order, a date that reads both ways keeps the US month/day reading, said', async () => {
		const { output } = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, { items: [endorsement('P-1', '04/05/2026')] });
		expect((output![0].json.body as IDataObject).transaction_effective_date).toBe('2026-04-05');
		expect(output![0].json._columnRules).toEqual(expect.arrayContaining([expect.objectContaining({ column: 'Trans Eff', rule: expect.stringContaining('read month first (US), as node versions 1-3 read it') })]));
	});
});

describe('columns that are not where the risk is taxed, and zeros', () => {
	it.each(['Mailing State', 'Address State', 'Mailing St', 'Billing State'])('"%s" other than State is listed as not used, not a taxing-state conflict', (column) => {
		const matched = read({ [column]: 'NY' });
		expect(matched.problems).toEqual([]);
		expect(matched.values.state_code).toBe('TX');
		expect(matched.ignored).toEqual([expect.objectContaining({ column, value: 'NY', reason: expect.stringContaining('not the state where the risk is taxed') })]);
	});

	it.each(['-', '0.00', 0])('an unknown money column holding a zero (%j) loses nothing: listed, not refused', (zero) => {
		const matched = read({ 'MGA Fee': zero });
		expect(matched.problems).toEqual([]);
		expect(matched.ignored).toEqual([expect.objectContaining({ column: 'MGA Fee', reason: expect.stringContaining('its value is 0') })]);
	});
});

describe('columns whose meaning goes beyond one field', () => {
	it('"Total Premium" beside fee or tax amounts is refused naming them; alone, or beside a Premium that fills the field, it is read', () => {
		const total = read({ Premium: undefined, 'Total Premium': '1,123.50', 'Policy Fee': '75.00', 'SL Tax': '48.50' });
		expect(total.problems).toEqual([expect.stringContaining('net_premium: column "Total Premium" (1,123.50) is a total, and the row also gives "Policy Fee" (75.00), "SL Tax" (48.50)')]);
		expect(read({ Premium: undefined, 'Total Premium': '1,000', 'Policy Fee': '-' }).problems).toEqual([]);
		expect(read({ 'Total Premium': '500', 'Policy Fee': '75' }).problems).toEqual([]);
	});

	it('an insurer’s percent and amount that give different shares are refused naming both; agreeing ones are read', () => {
		const row = { Premium: '1,000', 'Insurer 1 NAIC': '90001', 'Insurer 1 %': '60' };
		expect(read({ ...row, 'Insurer 1 Amount': '500' }).problems).toEqual([expect.stringContaining('columns "Insurer 1 %" (60) and "Insurer 1 Amount" (500) give insurer 1 different shares: 60% of the premium 1000 is 600, not 500')]);
		expect(read({ ...row, 'Insurer 1 Amount': '600.00' }).problems).toEqual([]);
	});

	it.each([['Y', 'refused'], ['Yes', 'refused'], ['N', 'listed'], ['No', 'listed'], ['maybe', 'refused']])('"Tax Exempt" %s is %s, never ignored', (value, what) => {
		const matched = read({ 'Tax Exempt': value });
		if (what === 'listed') {
			expect([matched.problems, matched.ignored]).toEqual([[], [expect.objectContaining({ column: 'Tax Exempt', reason: expect.stringContaining('not tax exempt') })]]);
		} else {
			expect(matched.problems).toEqual([expect.stringContaining(`column "Tax Exempt" (${value})`)]);
		}
	});

	it('a sub-cent premium is sent as written and said in _warnings', async () => {
		const { output } = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, { items: [{ ...BASE_ROW, Premium: '1000.125' }] });
		expect(output![0].json._warnings).toEqual([expect.stringContaining('net_premium: 1000.125 has a fraction of a cent and is sent as written')]);
	});
});

describe('Commission %', () => {
	it('gives the commission with the premium, said; beside a Commission column it must agree', () => {
		const alone = read({ 'Comm %': '15' });
		expect([alone.values.commission, alone.problems]).toEqual([75, []]);
		expect(alone.rules).toEqual([expect.objectContaining({ field: 'commission', column: 'Comm %', rule: expect.stringContaining('500 × 15% = 75') })]);
		const agree = read({ 'Commission %': '15%', Commission: '75.00' });
		expect([agree.values.commission, agree.problems]).toEqual(['75.00', []]);
		expect(agree.ignored).toEqual([expect.objectContaining({ column: 'Commission %', reason: expect.stringContaining('agrees with column "Commission"') })]);
		expect(read({ 'Commission %': '15', Commission: '50' }).problems).toEqual([expect.stringContaining('columns "Commission" (50) and "Commission %" (15) disagree')]);
	});
});

describe('a date of a change on a new or renewal row', () => {
	it('other than the effective date is refused naming both columns; the same date, or on an endorsement, is read', () => {
		expect(read({ Type: 'New', 'Endorsement Effective Date': '06/01/2026' }).problems).toEqual([expect.stringContaining('column "Endorsement Effective Date" (06/01/2026) gives a date of a change, and this row is a NEW whose policy takes effect on column "Eff Date" (03/01/2026)')]);
		expect(read({ 'Trans Eff': '06/01/2026' }).problems).toHaveLength(1);
		expect(read({ Type: 'Renewal', 'Transaction Effective Date': '2026-03-01' }).problems).toEqual([]);
		expect(read({ Type: 'Endorsement', 'Endorsement Effective Date': '06/01/2026' }).problems).toEqual([]);
	});
});
