/**
 * Report-shaped sheets of the project's own (issue 45): a broker system's "Premium & Tax Detail"
 * with title lines, one row per charge, subtotals, a page-break header, a blank row and a grand
 * total, in two column layouts, and the items Extract From File makes of them.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import ExcelJS from 'exceljs';
import type { IDataObject } from 'n8n-workflow';

export const REPORT_CSV = join(__dirname, '..', '..', 'examples', 'files', 'premium-and-tax-detail-report.csv');
export const REPORT_XLSX = REPORT_CSV.replace(/\.csv$/, '.xlsx');

/** The example report with its policy numbers made unique to a test (RPT-1001 → <prefix>-1001). */
export function reportCsv(prefix: string): string {
	return readFileSync(REPORT_CSV, 'utf8').replace(/RPT-/g, `${prefix}-`);
}

/** The line the example's header is on (line 4: two title lines and a line of commas above it). */
export const REPORT_HEADER_LINE = 4;

/**
 * The second layout: other headers (Pol #, Trans Type, Charge Type, Charge Amount), the same
 * transactions, and the charges named as another system names them.
 */
export function reportCsvLayoutB(prefix: string): string {
	const renames: Record<string, string> = {
		'Policy Number': 'Pol #',
		'Insured Name': 'Insured',
		State: 'Risk State',
		'Transaction Type': 'Trans Type',
		'Effective Date': 'Pol Eff',
		'Expiration Date': 'Pol Exp',
		'Transaction Effective Date': 'Trans Eff',
		Charge: 'Charge Type',
		Amount: 'Charge Amount',
	};
	const charges: Record<string, string> = {
		Premium: 'Gross Premium',
		'Policy Fee': 'Pol Fee',
		'Inspection Fee': 'Insp Fee',
		'SL Tax': 'Surplus Lines Tax',
		'Stamping Fee': 'Stamp Fee',
	};
	return reportCsv(prefix)
		.split('\n')
		.map((line) => {
			const cells = line.split(',');
			if (cells[0] === 'Policy Number') return cells.map((c) => renames[c] ?? c).join(',');
			if (cells.length > 7 && charges[cells[7]]) cells[7] = charges[cells[7]];
			return cells.join(',');
		})
		.join('\n');
}

/**
 * The items n8n's Extract From File (CSV) gives: csv-parse with `columns: true`, lines with no
 * characters skipped, empty cells left out, reading from `fromLine` (counted from 1, as csv-parse
 * counts it). A repeated column name keeps its last cell, as csv-parse does.
 */
export function extractCsv(text: string, fromLine = 1): IDataObject[] {
	const lines = text.split('\n').slice(fromLine - 1).filter((line) => line.length > 0);
	const [header, ...rows] = lines.map((line) => line.split(','));
	return rows.map((cells) => {
		const record: Record<string, string> = {};
		header.forEach((name, n) => (record[name] = cells[n] ?? ''));
		return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ''));
	});
}

/** Days from Excel's day 0 (1899-12-30) to a date cell: the number a workbook's date arrives as. */
const excelDay = (date: Date) => (date.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;

/**
 * The items n8n's Extract From File (XLSX) gives, as its SheetJS reader does: the first row read
 * (Range as a number: rows counted from 0) is the header, an empty header cell is named
 * `__EMPTY`, `__EMPTY_1`…, rows with no cells are skipped, empty cells left out, values raw
 * (amounts as numbers, dates as day numbers).
 */
export async function extractXlsx(file: string, range = 0): Promise<IDataObject[]> {
	const workbook = new ExcelJS.Workbook();
	await workbook.xlsx.readFile(file);
	const sheet = workbook.worksheets[0];
	const rows: unknown[][] = [];
	for (let n = range + 1; n <= sheet.rowCount; n++) {
		const values = sheet.getRow(n).values as unknown[];
		rows.push(Array.from({ length: sheet.columnCount }, (_, i) => values[i + 1]));
	}
	const [header, ...body] = rows;
	let unnamed = 0;
	const names = header.map((cell) => (cell === undefined || cell === null ? (unnamed++ ? `__EMPTY_${unnamed - 1}` : '__EMPTY') : String(cell)));
	return body
		.filter((cells) => cells.some((cell) => cell !== undefined && cell !== null))
		.map((cells) => {
			const item: IDataObject = {};
			cells.forEach((cell, i) => {
				if (cell === undefined || cell === null) return;
				item[names[i]] = cell instanceof Date ? excelDay(cell) : (cell as string | number);
			});
			return item;
		});
}
