/**
 * A bordereau of a user's own, with other headers than the sample's (issue 46): the bordereau
 * example must file it unchanged. Shared by the e2e scenario and the browser test, which both put
 * it where the example reads its sample, and read the results workbook the example writes.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import ExcelJS from 'exceljs';
import type { IDataObject } from 'n8n-workflow';

/**
 * Its lines; lines 5 and 8 (items 3 and 6) are refused: a misspelled state, a date that is not one.
 * Two refusals, so the error branch's count ("2 items") is on no other edge of the canvas.
 */
export const OWN_SHEET = [
	'Policy No,Named Insured,Risk State,Trans Type,Eff Date,Exp Date,Gross Premium,Carrier NAIC,SL Tax',
	'OWN-26-01,Cedar Lane Storage LLC,TX,New Business,03/01/2026,03/01/2027,"$18,400.00",90001,892.40',
	'OWN-26-02,Harbor Point Marine Inc,CA,New Business,03/01/2026,03/01/2027,"$9,250.00",90003,',
	'OWN-26-03,Blue Mesa Roofing Co,TX,Renewal,03/01/2026,03/01/2027,"$4,100.00",90001,205.00',
	'OWN-26-04,Gulf Breeze Rentals LLC,Flordia,New Business,03/01/2026,03/01/2027,"$7,600.00",90001,',
	'OWN-26-05,Pine Ridge Builders Inc,NY,Renewal,03/01/2026,03/01/2027,"$12,000.00",90003,',
	'OWN-26-06,Red Rock Outfitters LLC,TX,New Business,03/01/2026,03/01/2027,"$2,500.00",90001,121.25',
	'OWN-26-07,Silver Creek Farms LLC,TX,Renewal,02/30/2026,02/28/2027,"$3,300.00",90001,',
];

/**
 * The sheet's own SL Tax, checked against the service's: right on lines 2 and 7 (TX 4.85%), 6.15
 * too much on line 4 (4,100 × 4.85% = 198.85), none given on the others.
 */
export const OWN_SHEET_TAX_DIFFERENCES = ['0', 'no tax figures in the sheet', '6.15', '', 'no tax figures in the sheet', '0', ''];

/** What the results workbook must say of it: the file's line, the policy, the insured, the outcome. */
export const OWN_SHEET_RESULTS = [
	[2, 'OWN-26-01', 'Cedar Lane Storage LLC', 'Filed'],
	[3, 'OWN-26-02', 'Harbor Point Marine Inc', 'Filed'],
	[4, 'OWN-26-03', 'Blue Mesa Roofing Co', 'Filed'],
	[5, 'OWN-26-04', 'Gulf Breeze Rentals LLC', 'Refused: not filed'],
	[6, 'OWN-26-05', 'Pine Ridge Builders Inc', 'Filed'],
	[7, 'OWN-26-06', 'Red Rock Outfitters LLC', 'Filed'],
	[8, 'OWN-26-07', 'Silver Creek Farms LLC', 'Refused: not filed'],
];

/** The outcome words of a second run (every good row found at the service). */
export const ALREADY_FILED = 'Already filed (found on its policy at the service)';

/** The refusal of line 5, in the sheet's words (the other names its column too). */
export const OWN_SHEET_REFUSAL = /Column "Risk State": "Flordia" is not a US state code or name/;

/**
 * The results workbooks the bordereau example wrote in `filesDir` for the sheet `sheetFile`, oldest
 * first: each run writes its own, named after the sheet and the run's time.
 */
export function resultsWorkbooks(filesDir: string, sheetFile = 'sample-bordereau.csv'): string[] {
	const base = sheetFile.replace(/\.(csv|xlsx|xls)$/i, '');
	return readdirSync(filesDir)
		.filter((name) => name.startsWith(`${base} results `) && name.endsWith('.xlsx'))
		.sort()
		.map((name) => join(filesDir, name));
}

/** A results workbook as rows of cell values (the newest of the sheet's when no file is named). */
export async function readResultsWorkbook(filesDirOrFile: string, sheetFile?: string): Promise<IDataObject[]> {
	const file = filesDirOrFile.endsWith('.xlsx') ? filesDirOrFile : resultsWorkbooks(filesDirOrFile, sheetFile).pop();
	assert.ok(file, `a results workbook in ${filesDirOrFile}`);
	const workbook = new ExcelJS.Workbook();
	await workbook.xlsx.readFile(file);
	const sheet = workbook.getWorksheet('Results');
	assert.ok(sheet, 'the workbook has a sheet named Results');
	const rows: unknown[][] = [];
	sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
	const [header, ...body] = rows;
	return body.map((cells) => Object.fromEntries((header as string[]).map((name, i) => [name, cells[i] ?? ''])));
}
