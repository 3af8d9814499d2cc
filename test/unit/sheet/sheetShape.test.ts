/**
 * The sheet reader without n8n (issue 45): a report's rows read as one sheet, from the rows alone.
 */
import { readSheetShape, type RowShape } from '../../../nodes/sheet/sheetShape';
import { readSheetRow } from '../../../nodes/sheet/sheetRow';
import { REPORT_HEADER_LINE, extractCsv, reportCsv, reportCsvLayoutB } from '../../helpers/reportSheet';

const kinds = (rows: RowShape[]) =>
	rows.map((r) => (r.as === 'left out' ? r.what : r.as === 'charge' ? `charge of ${r.of + 1}` : r.as));

describe('a report read as one sheet', () => {
	it('title lines above the header: every row refused once for the sheet, with the Starting Line the running n8n counts', () => {
		const shape = readSheetShape(extractCsv(reportCsv('T')));
		expect(shape.titled).toMatchObject({ headerLine: REPORT_HEADER_LINE, workbook: false });
		expect(shape.rows.every((r) => r.as === 'refused' && r.first === 0)).toBe(true);
		const why = (shape.rows[0] as { why: string }).why;
		expect(why).toContain(`The header is on line ${REPORT_HEADER_LINE} of the file: set Extract From File's Starting Line to ${REPORT_HEADER_LINE}`);
		// Told where the header is, the same file reads as a report of charges.
		const told = readSheetShape(extractCsv(reportCsv('T'), REPORT_HEADER_LINE));
		expect(told.titled).toBeUndefined();
		expect(told.charges).toEqual({ charge: 'Charge', amount: 'Amount' });
	});

	it.each([
		['Charge + Amount', reportCsv, { charge: 'Charge', amount: 'Amount' }],
		['Charge Type + Charge Amount', reportCsvLayoutB, { charge: 'Charge Type', amount: 'Charge Amount' }],
	])('one row per charge (%s): each transaction gathered once, every other row accounted for', (_name, csv, columns) => {
		const shape = readSheetShape(extractCsv(csv('T'), REPORT_HEADER_LINE));
		expect(shape.charges).toEqual(columns);
		expect(kinds(shape.rows)).toEqual([
			'filing', 'charge of 1', 'charge of 1', 'charge of 1', 'subtotal row',
			'filing', 'charge of 6', 'repeated header row', 'charge of 6', 'charge of 6', 'subtotal row',
			'filing', 'charge of 12', 'charge of 12', 'subtotal row',
			'filing', 'charge of 16', 'charge of 16', 'subtotal row',
			'blank row', 'total row',
		]);
		const first = shape.rows[0] as Extract<RowShape, { as: 'filing' }>;
		expect(first.charges.map((c) => c.field)).toEqual(['net_premium', 'fee_policy_fee_company', 'fee_sl_tax', 'fee_stamping_fee']);
		expect(first.json).not.toHaveProperty(columns.charge);
		expect(first.json).not.toHaveProperty(columns.amount);
	});

	it('a charge the package does not know refuses its transaction naming it; two transactions alike are refused naming their rows', () => {
		const lines = reportCsv('T').split('\n');
		lines[5] = lines[5].replace('Policy Fee', 'Wind Pool Levy Surcharge X');
		const unknown = readSheetShape(extractCsv(lines.join('\n'), REPORT_HEADER_LINE));
		expect(kinds(unknown.rows).slice(0, 4)).toEqual(['refused', 'refused', 'refused', 'refused']);
		expect((unknown.rows[0] as { why: string }).why).toContain('"Wind Pool Levy Surcharge X" (row 2)');
		expect(kinds(unknown.rows)[5]).toBe('filing');

		const twice = reportCsv('T').split('\n');
		twice.splice(6, 0, twice[4]);
		const alike = readSheetShape(extractCsv(twice.join('\n'), REPORT_HEADER_LINE));
		expect(kinds(alike.rows).slice(0, 5)).toEqual(['refused', 'refused', 'refused', 'refused', 'refused']);
		expect((alike.rows[0] as { why: string }).why).toContain('net_premium twice');
	});

	it('a subtotal that repeats the policy number, named where the charge is, is a subtotal row', () => {
		const lines = reportCsv('T').split('\n');
		lines[8] = 'T-1001,,,,,,,Subtotal,2202.69';
		lines[14] = 'T-1002,Pecos River Outfitters Inc,TX,New,02/01/2026,02/01/2027,,Total Taxes,53.79';
		const shape = readSheetShape(extractCsv(lines.join('\n'), REPORT_HEADER_LINE));
		expect(kinds(shape.rows).slice(0, 11)).toEqual([
			'filing', 'charge of 1', 'charge of 1', 'charge of 1', 'subtotal row',
			'filing', 'charge of 6', 'repeated header row', 'charge of 6', 'charge of 6', 'total row',
		]);
	});

	it('a table of transactions is read row by row as before', () => {
		const items = [
			{ 'Policy Number': 'A-1', Premium: '100', 'Policy Fee': '10' },
			{ 'Policy Number': 'A-2', Premium: '200', 'Policy Fee': '0' },
		];
		expect(kinds(readSheetShape(items).rows)).toEqual(['row', 'row']);
		expect(readSheetShape(items).charges).toBeUndefined();
	});

	it('an insured whose name starts with Total is a transaction, not a total row', () => {
		const items = [
			{ 'Policy Number': 'A-1', 'Insured Name': 'Total Logistics LLC', Premium: '100' },
			{ 'Policy Number': '', 'Insured Name': 'Total Freight Inc', Premium: '100' },
			{ 'Policy Number': '', Premium: '200', Note: 'Total' },
		];
		// Without its policy number the second is refused as a row missing it, not left out.
		expect(kinds(readSheetShape(items).rows)).toEqual(['row', 'row', 'total row']);
	});

	it('a subtotal or total labelled in the insured’s column is left out (issue 55); an insured named Total… is not', () => {
		const items = [
			{ 'Policy Number': 'A-1', 'Insured Name': 'Harbor Marine Co', Premium: '100' },
			{ 'Policy Number': '', 'Insured Name': 'Subtotal', Premium: '100' },
			{ 'Insured Name': 'Sub-Total A-1', Premium: '100' },
			{ 'Policy Number': '', 'Insured Name': 'Grand Total:', Premium: '100' },
			{ 'Insured Name': 'TOTALS', Premium: '100' },
			{ 'Policy Number': '', 'Insured Name': 'Total Freight Inc', Premium: '100' },
		];
		expect(kinds(readSheetShape(items).rows)).toEqual(['row', 'subtotal row', 'subtotal row', 'total row', 'total row', 'row']);
	});

	it('a gathered transaction read into its body without n8n: premium, fees and taxes from its charge rows', () => {
		const items = extractCsv(reportCsvLayoutB('T'), REPORT_HEADER_LINE);
		const shape = readSheetShape(items);
		const rows = items.map((json, n) => {
			const row = shape.rows[n];
			return { json: row.as === 'filing' ? row.json : json };
		});
		const read = readSheetRow(rows, 0, { leftOut: new Set(), chargeColumns: new Set() });
		expect(read.problems).toEqual([]);
		expect(read.raw).toMatchObject({
			policy_number: 'T-1001',
			net_premium: '2000.00',
			fees: [
				{ type: 'policy_fee_company', amount: '100.00' },
				{ type: 'sl_tax', amount: '101.85' },
				{ type: 'stamping_fee', amount: '0.84' },
			],
		});
		expect(read.sources).toMatchObject({ net_premium: 'Gross Premium', 'fees[1]': 'Surplus Lines Tax' });
	});
});
