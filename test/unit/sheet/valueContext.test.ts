/**
 * Issue 53: a value read with what gives it meaning. An amount with its currency, a state with its
 * country, a column's dates with the sheet's order. Each is read by the one row reader every
 * operation uses (readSheetRow), so these are proved on it; the operations are compared in
 * oneAnswer.test.ts and filed against the sandbox in valueContext.test.ts there.
 */
import type { IDataObject } from 'n8n-workflow';

import { readSheetRow } from '../../../nodes/sheet/sheetRow';
import type { UnprovenDates } from '../../../nodes/sheet/dateConvention';

const BASE: IDataObject = {
	'Policy #': 'P-1',
	'Insured Name': 'Acme',
	State: 'TX',
	'Eff Date': '2026-03-01',
	'Exp Date': '2027-03-01',
	Premium: '10,000.00',
};

function read(rows: IDataObject[], index = 0, unprovenDates: UnprovenDates = 'refuse') {
	return readSheetRow(
		rows.map((json) => ({ json })),
		index,
		{ leftOut: new Set(), chargeColumns: new Set(), unprovenDates },
	);
}
const one = (columns: IDataObject) => read([{ ...BASE, ...columns }]);
const accountOf = (row: ReturnType<typeof read>, column: string) =>
	row.columns.accounts?.find((a) => a.column === column);

describe('an amount with its currency', () => {
	it.each([
		['Original Currency', 'GBP'],
		['Orig Curr', 'GBP'],
		['Settlement Currency', 'EUR'],
		['Currency', '£'],
		['Ccy', 'Pound Sterling'],
		['Currency', 'CAD'],
	])('%s = %s refuses the row naming the amount column, the currency column and its value', (column, value) => {
		const row = one({ [column]: value });
		expect(row.problems).toEqual([expect.stringContaining(`column "Premium" (10,000.00): the amount is in`)]);
		expect(row.problems[0]).toContain(`"${column}" (${value})`);
		expect(row.problems[0]).toContain('the service files US dollars only');
		expect(accountOf(row, column)).toMatchObject({ use: 'refused', field: 'currency' });
		expect(accountOf(row, 'Premium')).toMatchObject({ use: 'refused' });
		expect(row.columns.ignored.map((c) => c.column)).not.toContain(column);
	});

	it('USD (or $, US Dollar) is filed, and the currency column is said to be read, not ignored', () => {
		for (const value of ['USD', 'usd', '$', 'US Dollars']) {
			const row = one({ 'Settlement Currency': value });
			expect(row.problems).toEqual([]);
			expect(row.raw.net_premium).toBe('10,000.00');
			expect(accountOf(row, 'Settlement Currency')).toMatchObject({ use: 'rule', field: 'currency' });
			expect(row.columns.ignored).toEqual([]);
		}
	});

	it('GBP beside each amount in USD in its own column: the USD columns are filed and the choice said', () => {
		const row = one({ 'Original Currency': 'GBP', 'Premium USD': '12,700.00', 'SL Tax': '600', 'SL Tax USD': '616.00' });
		expect(row.problems).toEqual([]);
		expect(row.raw.net_premium).toBe('12,700.00');
		expect(row.raw.fees).toEqual([{ type: 'sl_tax', amount: '616.00' }]);
		expect(row.columns.rules).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ field: 'net_premium', column: 'Premium USD', over: [{ column: 'Premium', value: '10,000.00' }] }),
				expect.objectContaining({ field: 'fee_sl_tax', column: 'SL Tax USD', over: [{ column: 'SL Tax', value: '600' }] }),
			]),
		);
		expect(accountOf(row, 'Premium')).toMatchObject({ use: 'not used', field: 'net_premium' });
	});

	it('an original and a settlement currency: the settlement columns in USD are filed, the original ones left', () => {
		const row = one({ Premium: undefined, 'Orig Curr': 'GBP', 'Orig Gross Premium': '8,000.00', 'Settlement Currency': 'USD', 'Settlement Gross Premium': '10,160.00' });
		expect(row.problems).toEqual([]);
		expect(row.raw.net_premium).toBe('10,160.00');
	});

	it('an original and a settlement currency both GBP: refused naming both columns', () => {
		const row = one({ 'Orig Curr': 'GBP', 'Settlement Currency': 'GBP' });
		expect(row.problems).toEqual([expect.stringContaining('column "Premium" (10,000.00)')]);
		expect(row.problems[0]).toContain('"Orig Curr" and "Settlement Currency"');
	});

	it('a header with curr whose value is an amount is not a currency column ("Curr Premium")', () => {
		const row = one({ 'Curr Yr Premium': '10,000.00' });
		expect(row.problems).toEqual([]);
		expect(accountOf(row, 'Curr Yr Premium')?.field).not.toBe('currency');
	});
});

describe('a state with its country', () => {
	it('WA beside AU (a state code that is also a US state’s) refuses the row naming both columns', () => {
		const row = one({ State: 'WA', 'Risk Country': 'AU', 'Insured Country': 'Australia' });
		expect(row.problems).toEqual([
			expect.stringContaining('column "Risk Country" (AU): a country other than the United States'),
			expect.stringContaining('column "Insured Country" (Australia): a country other than the United States'),
		]);
		expect(row.problems[0]).toContain('column "State" (WA) is not read as a US state');
		expect(accountOf(row, 'Risk Country')).toMatchObject({ use: 'refused' });
	});

	it.each(['PR', 'Puerto Rico', 'GUM', 'US Virgin Islands'])('a US territory the service does not list (%s) is refused the same way', (value) => {
		const row = one({ State: 'NY', Country: value });
		expect(row.problems).toEqual([expect.stringContaining('a US territory the service does not list')]);
		expect(row.problems[0]).toContain('column "State" (NY)');
	});

	it.each(['US', 'USA', 'United States', 'U.S.A.'])('%s is the United States: filed, the column said to be read', (value) => {
		const row = one({ 'Risk Country': value });
		expect(row.problems).toEqual([]);
		expect(accountOf(row, 'Risk Country')).toMatchObject({ use: 'rule', field: 'country' });
	});

	it('a mailing country is where mail goes: listed as not used', () => {
		const row = one({ 'Mailing Country': 'GB' });
		expect(row.problems).toEqual([]);
		expect(row.columns.ignored).toEqual([expect.objectContaining({ column: 'Mailing Country' })]);
	});
});

describe('the sheet’s date order', () => {
	const sheet = (changes: string[]) =>
		changes.map((change, n) => ({
			...BASE,
			'Policy #': `P-${n}`,
			'Eff Dt': ['30/04/2026', '22/04/2026', '01/04/2026'][n],
			'Exp Dt': ['30/04/2027', '22/04/2027', '01/04/2027'][n],
			'Eff Date': undefined,
			'Exp Date': undefined,
			Type: 'Endorsement',
			'Trans Eff Date': change,
		}));

	it('a change-date column of days 1-12 takes the day-first order the other columns prove, said on the item', () => {
		const rows = sheet(['03/04/2026', '07/04/2026', '10/04/2026']);
		const row = read(rows, 0);
		expect(row.problems).toEqual([]);
		expect(row.raw.transaction_effective_date).toBe('2026-04-03');
		expect(read(rows, 2).raw.transaction_effective_date).toBe('2026-04-10');
		const said = row.columns.rules.filter((r) => r.column === 'Trans Eff Date');
		expect(said).toEqual([expect.objectContaining({ field: 'transaction_effective_date', value: '03/04/2026' })]);
		expect(said[0].rule).toContain('the sheet writes its dates day first (column "Eff Dt", row 2: "30/04/2026")');
	});

	it('the rows a day-first column proves its order by are named as the sheet numbers them (header = row 1)', () => {
		const rows = sheet(['03/04/2026', '07/04/2026', '10/04/2026']);
		const rule = read(rows, 2).columns.rules.find((r) => r.column === 'Eff Dt');
		expect(rule?.rule).toContain('(row 2: "30/04/2026")');
	});

	it('where no column proves an order, a date that reads both ways refuses the row naming its column (version 4)', () => {
		const rows = [{ ...BASE, 'Eff Date': '03/04/2026', 'Exp Date': '03/04/2027' }];
		const row = read(rows, 0);
		expect(row.problems).toEqual([
			expect.stringContaining('column "Eff Date" (03/04/2026): the date reads both ways (2026-03-04 or 2026-04-03)'),
			expect.stringContaining('column "Exp Date" (03/04/2027)'),
		]);
		expect(row.problems[0]).toContain('write the column\'s dates as YYYY-MM-DD');
	});

	it('versions 1-3 read it month first as they did, and the item says so', () => {
		const rows = [{ ...BASE, 'Eff Date': '03/04/2026', 'Exp Date': '03/04/2027' }];
		const row = read(rows, 0, 'monthFirst');
		expect(row.problems).toEqual([]);
		expect(row.raw.effective_date).toBe('2026-03-04');
		expect(row.columns.rules[0].rule).toContain('no date in the sheet shows whether it writes the month or the day first');
	});

	it('a sheet whose columns prove both orders cannot lend either to a column of days 1-12', () => {
		const rows = [
			{ ...BASE, 'Eff Date': '04/30/2026', 'Exp Date': '30/04/2027', 'Trans Eff Date': '03/04/2026', Type: 'Endorsement' },
		];
		expect(read(rows, 0).problems).toEqual([expect.stringContaining('column "Trans Eff Date" (03/04/2026): the date reads both ways')]);
	});

	it('a date the same both ways (03/03/2026) needs no order', () => {
		expect(read([{ ...BASE, 'Eff Date': '03/03/2026', 'Exp Date': '03/03/2027' }], 0).problems).toEqual([]);
	});

	it('a sheet proving month first lends it to the all-early column, said', () => {
		const rows = [{ ...BASE, 'Eff Date': '04/30/2026', 'Exp Date': '04/30/2027', 'Trans Eff Date': '06/01/2026', Type: 'Endorsement' }];
		const row = read(rows, 0);
		expect(row.problems).toEqual([]);
		expect(row.raw.transaction_effective_date).toBe('2026-06-01');
		expect(row.columns.rules[0].rule).toContain('the sheet writes its dates month first');
	});
});

describe('the user’s own headers in every message', () => {
	it('a missing date is named by the sheet’s own header, even when Extract From File dropped the empty cell', () => {
		const rows = [
			{ 'Policy #': 'P-1', 'Insured Name': 'A', State: 'TX', 'Eff Dt': '2026-03-01', 'Exp Date': '2027-03-01', Premium: '500' },
			{ 'Policy #': 'P-2', 'Insured Name': 'B', State: 'TX', 'Exp Date': '2027-03-01', Premium: '500' },
		];
		expect(read(rows, 1).names.effective_date[0]).toBe('Eff Dt');
	});

	it('a date column the reader does not know is never called an amount', () => {
		const row = one({ 'Bound Date': '02/20/2026' });
		expect(row.problems[0]).toContain('(the date would be lost from the filing)');
	});
});

describe('XLSX cells by their format', () => {
	it('a percent cell (15.00%, held as 0.15) is 15 %: commission 7,200 on 48,000, as from the CSV', () => {
		const xlsx = one({ Premium: 48000, 'Broker Commission %': 0.15 });
		const csv = one({ Premium: '48,000.00', 'Broker Commission %': '15%' });
		expect(xlsx.problems).toEqual([]);
		expect(xlsx.raw.commission).toBe(7200);
		expect(csv.raw.commission).toBe(7200);
		expect(xlsx.columns.rules).toEqual(expect.arrayContaining([expect.objectContaining({ column: 'Broker Commission %', value: 0.15, rule: expect.stringContaining('read as 15%') })]));
	});

	it('insurer shares from percent cells (0.6, 0.4) are 60 and 40', () => {
		const row = one({ 'Insurer 1 NAIC': '90001', 'Insurer 1 %': 0.6, 'Insurer 2 NAIC': '90002', 'Insurer 2 %': 0.4 });
		expect((row.raw.insurers as IDataObject[]).map((i) => i.percent)).toEqual(['60%', '40%']);
	});

	it('a date cell (its day number) is its date, and messages quote the date, never the number', () => {
		const row = one({ 'Eff Date': 46142, 'Exp Date': 46507, Type: 'New', 'Trans Eff Date': 46150 });
		expect(row.raw.effective_date).toBe('2026-04-30');
		expect(row.problems.join('\n')).not.toContain('46150');
		expect(row.problems.join('\n')).toContain('2026-05-08');
	});
});

describe('a currency column beside amounts given only in US dollars', () => {
	it('GBP with only a Premium USD column: filed, the currency column read, not refused', () => {
		const row = one({ Premium: undefined, 'Premium USD': '12,700.00', Currency: 'GBP' });
		expect(row.problems).toEqual([]);
		expect(row.raw.net_premium).toBe('12,700.00');
		expect(accountOf(row, 'Currency')).toMatchObject({ use: 'rule', field: 'currency' });
	});
});

describe('Dates in the Sheet: the order the user states', () => {
	const readAs = (rows: IDataObject[], dateOrder: 'dayFirst' | 'monthFirst', index = 0) =>
		readSheetRow(rows.map((json) => ({ json })), index, { leftOut: new Set(), chargeColumns: new Set(), unprovenDates: 'refuse', dateOrder });

	it('a sheet whose dates all read both ways is read in the order stated, said on the item', () => {
		const row = readAs([{ ...BASE, 'Eff Date': '03/04/2026', 'Exp Date': '03/04/2027' }], 'dayFirst');
		expect(row.problems).toEqual([]);
		expect(row.raw.effective_date).toBe('2026-04-03');
		expect(row.columns.rules[0].rule).toBe('Dates in the Sheet: day first, so 03/04/2026 is 2026-04-03');
	});

	it('a date that cannot be read in the order stated refuses its row, naming its column', () => {
		const row = readAs([{ ...BASE, 'Eff Date': '30/04/2026', 'Exp Date': '2027-04-30' }], 'monthFirst');
		expect(row.problems).toEqual([expect.stringContaining('column "Eff Date" (30/04/2026): Dates in the Sheet says the sheet writes its dates month first')]);
	});
});

describe('Check Sheet’s columns as the sheet wrote them', () => {
	it('a day-first date is listed as written, beside the field it filled', () => {
		const rows = [{ ...BASE, 'Eff Date': '30/04/2026', 'Exp Date': '30/04/2027' }];
		expect(accountOf(read(rows), 'Eff Date')).toMatchObject({ value: '30/04/2026', use: 'field', field: 'effective_date' });
	});
});

describe('a refusal quotes a date as the sheet wrote it', () => {
	it('a change date on a New row of a day-first sheet is quoted 15/04/2026, not 2026-04-15', () => {
		const rows = [{ ...BASE, 'Eff Date': '30/04/2026', 'Exp Date': '30/04/2027', Type: 'New', 'Trans Eff Date': '15/04/2026' }];
		const row = read(rows);
		expect(row.problems).toEqual([expect.stringContaining('column "Trans Eff Date" (15/04/2026) gives a date of a change')]);
		expect(row.problems[0]).toContain('column "Eff Date" (30/04/2026)');
	});
});
