// Builds examples/files/sample-bordereau.xlsx from examples/files/sample-bordereau.csv (the one
// source of the sample rows), the way a broker's spreadsheet holds them: dates as date cells shown
// mm/dd/yyyy, amounts as numbers shown with two decimals, NAIC codes as text. A cell that is not a
// real date in the CSV (a deliberately bad row) stays text, as it would in a sheet.
// Run after editing the CSV: node scripts/build-sample-bordereau.js (the XLSX is committed).
const path = require('path');
const fs = require('fs');
const ExcelJS = require('exceljs');

const dir = path.join(__dirname, '..', 'examples', 'files');
const csv = fs.readFileSync(path.join(dir, 'sample-bordereau.csv'), 'utf8').trim().split('\n');
// The sample has no quoted fields; refuse one rather than split it wrong.
if (csv.some((line) => line.includes('"'))) throw new Error('sample-bordereau.csv: quoted fields are not supported here');
const [header, ...rows] = csv.map((line) => line.split(','));

const DATE_COLUMNS = new Set(['Eff Date', 'Exp Date']);
const AMOUNT_COLUMNS = new Set(['Premium', 'Policy Fee', 'Inspection Fee']);

/** 03/01/2026 as a date cell (UTC midnight, which Excel stores as the day's serial), or the text. */
function dateCell(text) {
	const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
	if (!m) return text;
	const date = new Date(Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])));
	return date.getUTCMonth() === Number(m[1]) - 1 ? date : text;
}

async function main() {
	const workbook = new ExcelJS.Workbook();
	// Fixed metadata, so rebuilding an unchanged CSV gives the same workbook contents.
	workbook.creator = 'n8n-nodes-surplus-lines';
	workbook.created = new Date(Date.UTC(2026, 0, 1));
	workbook.modified = workbook.created;
	const sheet = workbook.addWorksheet('Bordereau');
	sheet.columns = header.map((name) => ({
		header: name,
		key: name,
		width: Math.max(name.length, ...rows.map((r) => r[header.indexOf(name)].length)) + 2,
		style: DATE_COLUMNS.has(name) ? { numFmt: 'mm/dd/yyyy' } : AMOUNT_COLUMNS.has(name) ? { numFmt: '0.00' } : {},
	}));
	sheet.getRow(1).font = { bold: true };
	for (const row of rows) {
		const values = {};
		header.forEach((name, i) => {
			const text = row[i];
			if (text === '') return;
			if (DATE_COLUMNS.has(name)) values[name] = dateCell(text);
			else if (AMOUNT_COLUMNS.has(name)) values[name] = Number(text);
			else values[name] = text;
		});
		sheet.addRow(values);
	}
	const target = path.join(dir, 'sample-bordereau.xlsx');
	await workbook.xlsx.writeFile(target);
	console.log(`wrote ${path.relative(process.cwd(), target)}: ${rows.length} rows`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
