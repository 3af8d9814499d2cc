/**
 * A bordereau of a user's own, with other headers than the sample's (issue 46): the bordereau
 * example must file it unchanged. Shared by the e2e scenario and the browser test, which both put
 * it where the example reads its sample, and read the results workbook the example writes.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';

import ExcelJS from 'exceljs';
import type { IDataObject } from 'n8n-workflow';

/**
 * Its lines; lines 5 and 8 (items 3 and 6) are refused: a misspelled state, a date that is not one.
 * Two refusals, so the error branch's count ("2 items") is on no other edge of the canvas.
 */
export const OWN_SHEET = [
	'Policy No,Named Insured,Risk State,Trans Type,Eff Date,Exp Date,Gross Premium,Carrier NAIC',
	'OWN-26-01,Cedar Lane Storage LLC,TX,New Business,03/01/2026,03/01/2027,"$18,400.00",90001',
	'OWN-26-02,Harbor Point Marine Inc,CA,New Business,03/01/2026,03/01/2027,"$9,250.00",90003',
	'OWN-26-03,Blue Mesa Roofing Co,TX,Renewal,03/01/2026,03/01/2027,"$4,100.00",90001',
	'OWN-26-04,Gulf Breeze Rentals LLC,Flordia,New Business,03/01/2026,03/01/2027,"$7,600.00",90001',
	'OWN-26-05,Pine Ridge Builders Inc,NY,Renewal,03/01/2026,03/01/2027,"$12,000.00",90003',
	'OWN-26-06,Red Rock Outfitters LLC,TX,New Business,03/01/2026,03/01/2027,"$2,500.00",90001',
	'OWN-26-07,Silver Creek Farms LLC,TX,Renewal,02/30/2026,02/28/2027,"$3,300.00",90001',
];

/** What the results workbook must say of it: the file's line, the policy, the outcome. */
export const OWN_SHEET_RESULTS = [
	[2, 'OWN-26-01', 'filed'],
	[3, 'OWN-26-02', 'filed'],
	[4, 'OWN-26-03', 'filed'],
	[5, 'OWN-26-04', 'refused'],
	[6, 'OWN-26-05', 'filed'],
	[7, 'OWN-26-06', 'filed'],
	[8, 'OWN-26-07', 'refused'],
];

/** The refusal of line 5, in the sheet's words (the other names its column too). */
export const OWN_SHEET_REFUSAL = /Column "Risk State": "Flordia" is not a US state code or name/;

/** The results workbook the bordereau example writes in `filesDir`, as rows of cell values. */
export async function readResultsWorkbook(filesDir: string): Promise<IDataObject[]> {
	const workbook = new ExcelJS.Workbook();
	await workbook.xlsx.readFile(join(filesDir, 'sample-bordereau-results.xlsx'));
	const sheet = workbook.getWorksheet('Results');
	assert.ok(sheet, 'the workbook has a sheet named Results');
	const rows: unknown[][] = [];
	sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
	const [header, ...body] = rows;
	return body.map((cells) => Object.fromEntries((header as string[]).map((name, i) => [name, cells[i] ?? ''])));
}
