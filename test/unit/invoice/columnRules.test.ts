/**
 * Issue 32: the readers of a row's columns (Map Automatically). Two columns that give one field
 * never settle a disagreement by rank: the row is refused naming both, or a domain rule decides
 * and says so; a column whose words name something known is used or listed as not used. And
 * Check Sheet reads a sheet as Create would, with no call.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { matchItemColumns, readColumnName } from '../../../nodes/sheet/columns';
import { differingColumns } from '../../../nodes/filing/sameRun';
import { BASE_ROW, run, setupSuite } from './helpers';

setupSuite();

const read = (columns: IDataObject) => matchItemColumns({ ...BASE_ROW, ...columns });

describe('columns that give one field', () => {
	it('agreeing values are read once, whatever their form', () => {
		const matched = read({ 'Net Premium': '$500.00', State: 'Texas', 'Risk State': 'TX' });
		expect(matched.problems).toEqual([]);
		expect(matched.rules).toEqual([]);
	});

	it('a code’s direction over a plain word of the same type: RPE beside Endorsement, FC beside Cancellation', () => {
		const rpe = read({ Type: 'Endorsement', 'Transaction Code': 'RPE' });
		expect(rpe.values.type_code).toBe('RPE');
		expect(rpe.rules).toEqual([expect.objectContaining({ field: 'type_code', column: 'Transaction Code', over: [{ column: 'Type', value: 'Endorsement' }] })]);
		expect(read({ 'Transaction Type': 'Cancellation', 'Transaction Code': 'FC' }).values.type_code).toBe('FC');
	});

	it('types that differ, or directions that differ, are refused naming both columns and values', () => {
		expect(read({ Type: 'New', 'Transaction Type': 'RPE' }).problems).toEqual([expect.stringContaining('type_code: columns "Type" (New) and "Transaction Type" (RPE) give this field different values')]);
		expect(read({ Type: 'APE', 'Transaction Code': 'RPE' }).problems).toHaveLength(1);
	});

	it('Gross over Net premium, Home State over Risk State, each said; any other disagreement refused', () => {
		const gross = read({ Premium: undefined, 'Gross Premium': '10,000', 'Net Premium': '8,500' });
		expect([gross.values.net_premium, gross.rules[0].column, gross.problems]).toEqual(['10,000', 'Gross Premium', []]);
		const home = read({ State: undefined, 'Home State': 'NY', 'Risk State': 'NJ' });
		expect([home.values.state_code, home.rules[0].column, home.problems]).toEqual(['NY', 'Home State', []]);
		expect(read({ 'Risk State': 'NJ' }).problems).toEqual([expect.stringContaining('columns "State" (TX) and "Risk State" (NJ)')]);
		expect(read({ 'Total Premium': '600' }).problems).toEqual([expect.stringContaining('columns "Premium" (500) and "Total Premium" (600)')]);
	});
});

describe('columns whose words name something known', () => {
	it.each(['Cancellation Effective Date', 'Cancel Date', 'Cancellation Date', 'Cxl Eff Date'])('"%s" is a cancellation date: the change date of a cancellation row, listed on another', (column) => {
		expect(readColumnName(column).match?.id).toBe('cancellation_date');
		const cancel = read({ Type: 'PC', [column]: '09/01/2026' });
		expect(cancel.values.transaction_effective_date).toBe('09/01/2026');
		expect(cancel.values.effective_date).toBe('03/01/2026');
		const renewal = read({ Type: 'Renewal', [column]: '09/01/2026' });
		expect(renewal.values.transaction_effective_date).toBeUndefined();
		expect(renewal.ignored).toEqual([expect.objectContaining({ column, reason: expect.stringContaining('only a cancellation row') })]);
	});

	it('a cancellation date beside another change date: the same date is fine, another is refused', () => {
		expect(read({ Type: 'PC', 'Cancel Date': '09/01/2026', 'Transaction Effective Date': '2026-09-01' }).problems).toEqual([]);
		expect(read({ Type: 'PC', 'Cancel Date': '09/01/2026', 'Transaction Effective Date': '2026-08-01' }).problems).toHaveLength(1);
	});

	it('state-prefixed fees: the row’s state is filed, another state’s amount refused, empty or 0 nothing', () => {
		for (const [column, code] of [['TX Stamping Fee', 'stamping_fee'], ['NY Stamping Fee', 'stamping_fee'], ['CA SLA Fee', 'slas_fee']]) {
			expect(readColumnName(column).match).toMatchObject({ id: `fee_${code}`, state: column.slice(0, 2) });
		}
		const tx = read({ 'TX Stamping Fee': '0.90', 'NY Stamping Fee': '0' });
		expect([tx.values.fee_stamping_fee, tx.problems]).toEqual(['0.90', []]);
		expect(read({ 'NY Stamping Fee': '0.75' }).problems).toEqual([expect.stringContaining('is a fee for NY, but the row\'s state is TX')]);
		// "Tx Eff Date" is still the effective date, and a company's fee is not Colorado's.
		expect(readColumnName('Tx Eff Date').match?.id).not.toMatch(/^fee_/);
		expect(readColumnName('Co Policy Fee').match?.state).toBeUndefined();
	});

	it('an endorsement or transaction number is the invoice number when no column gives one, listed otherwise', () => {
		expect(read({ 'Endorsement #': '2' }).values.invoice_number).toBe('2');
		expect(read({ 'Transaction ID': 'T-9' }).values.invoice_number).toBe('T-9');
		const both = read({ 'Endorsement #': '2', 'Invoice #': 'INV-7' });
		expect(both.values.invoice_number).toBe('INV-7');
		expect(both.ignored).toEqual([expect.objectContaining({ column: 'Endorsement #' })]);
	});

	it.each(['', '  ', null])('an empty cell (%j) in these columns, as a sheet read with its empty cells kept gives it: nothing used, listed or refused', (empty) => {
		const blank = { 'Endorsement #': empty, 'Cancellation Effective Date': empty, 'Transaction Date': empty };
		for (const type of ['New', 'PC', 'Endorsement']) {
			const matched = read({ Type: type, 'Transaction Effective Date': type === 'New' ? '' : '09/01/2026', ...blank });
			expect([type, matched.rules, matched.ignored, matched.problems]).toEqual([type, [], [], []]);
			expect(matched.values.invoice_number).toBeUndefined();
		}
		// Beside an invoice number column: not listed either.
		expect(read({ ...blank, 'Invoice #': 'INV-7' }).ignored).toEqual([]);
		// An endorsement with no change date is left to the other checks, not refused as if booked.
		expect(read({ Type: 'Endorsement', 'Transaction Date': empty }).problems).toEqual([]);
	});

	it('"Transaction Date" is a booking date: listed on a new row, refused on an endorsement without another change date', () => {
		expect(readColumnName('Transaction Date').match?.id).toBe('booking_date');
		expect(readColumnName('Transaction Effective Date').match?.id).toBe('transaction_effective_date');
		expect(read({ 'Transaction Date': '02/15/2026' }).ignored).toEqual([expect.objectContaining({ column: 'Transaction Date' })]);
		expect(read({ Type: 'Endorsement', 'Transaction Date': '02/15/2026' }).problems).toEqual([expect.stringContaining('read as the day the transaction was booked')]);
		const dated = read({ Type: 'Endorsement', 'Transaction Date': '02/15/2026', 'Endorsement Effective Date': '06/01/2026' });
		expect([dated.problems, dated.values.transaction_effective_date]).toEqual([[], '06/01/2026']);
	});
});

describe('rows of one run', () => {
	it('differ in a column when its values differ; blanks are alike, and the sheet’s row number is not a column', () => {
		expect(differingColumns({ A: ' x ', B: null, row_number: 2 }, { A: 'x', B: '', row_number: 3 })).toEqual([]);
		expect(differingColumns({ A: 'x' }, { A: 'y', C: 1 })).toEqual(['A', 'C']);
	});
});

describe('Check Sheet', () => {
	const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

	it('reads every row as Create would, with no call: one item per row, paired, sent or refused with the reasons', async () => {
		const items = [
			{ ...BASE_ROW, Type: 'Endorsement', 'Transaction Code': 'RPE', 'Transaction Effective Date': '07/01/2026', 'Transaction Date': '06/20/2026' },
			{ ...BASE_ROW, Type: 'New', 'Transaction Type': 'RPE' },
			{ ...BASE_ROW, 'Policy #': 'P-2', Producer: 'A' },
			{ ...BASE_ROW, 'Policy #': 'P-2', Producer: 'B' },
		];
		const { output, error } = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, { items });
		expect(error).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
		expect(output!.map((o) => [o.pairedItem, o.json.row, o.json.result])).toEqual([
			[{ item: 0 }, 2, 'would be sent'],
			[{ item: 1 }, 3, 'refused'],
			[{ item: 2 }, 4, 'would be sent'],
			[{ item: 3 }, 5, 'refused'],
		]);
		expect(output![0].json).toMatchObject({
			body: { type_code: 'ENDORSEMENT', net_premium: -500, transaction_effective_date: '2026-07-01' },
			columns: { policy_number: 'Policy #', type_code: 'Transaction Code' },
			// Beside the type code's rule, the dates that read both ways take the month-first order
			// "Transaction Date" (06/20/2026) proves for the sheet (issue 53).
			_columnRules: [
				expect.objectContaining({ field: 'type_code' }),
				expect.objectContaining({ column: 'Eff Date', rule: expect.stringContaining('the sheet writes its dates month first (column "Transaction Date"') }),
				expect.objectContaining({ column: 'Exp Date' }),
				expect.objectContaining({ column: 'Transaction Effective Date' }),
			],
			_ignoredColumns: [expect.objectContaining({ column: 'Transaction Date' })],
		});
		expect(output![1].json.reasons).toEqual([expect.stringContaining('"Type" (New) and "Transaction Type" (RPE)')]);
		expect(output![3].json.reasons).toEqual([expect.stringContaining('Row 5 would file the same invoice as row 4 of this run, but its columns differ: "Producer" (A in row 4, B here)')]);
	});
});
