// Builds examples/files/premium-and-tax-detail-report.xlsx from the CSV of the same name (the one
// source of the report's lines), laid out as the broker system's report is: two title lines, an
// empty row, the header, one row per charge with amounts as numbers shown with two decimals and
// dates as date cells shown mm/dd/yyyy, subtotals, the header again at a page break, an empty row
// and the grand total. Run after editing the CSV: node scripts/build-report-sample.js.
const path = require('path');
const fs = require('fs');
const ExcelJS = require('exceljs');

const dir = path.join(__dirname, '..', 'examples', 'files');
const lines = fs.readFileSync(path.join(dir, 'premium-and-tax-detail-report.csv'), 'utf8').trim().split('\n');
if (lines.some((line) => line.includes('"'))) throw new Error('premium-and-tax-detail-report.csv: quoted fields are not supported here');

/** 03/01/2026 as a date cell (UTC midnight), a signed amount as a number, other text as it is. */
function cell(text) {
	const date = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
	if (date) return new Date(Date.UTC(Number(date[3]), Number(date[1]) - 1, Number(date[2])));
	return /^-?\d+\.\d{2}$/.test(text) ? Number(text) : text;
}

async function main() {
	const workbook = new ExcelJS.Workbook();
	// Fixed metadata, so rebuilding an unchanged CSV gives the same workbook contents.
	workbook.creator = 'n8n-nodes-surplus-lines';
	workbook.created = new Date(Date.UTC(2026, 0, 1));
	workbook.modified = workbook.created;
	const sheet = workbook.addWorksheet('Premium & Tax Detail');
	lines.forEach((line, n) => {
		const row = sheet.getRow(n + 1);
		line.split(',').forEach((text, i) => {
			if (text === '') return;
			const target = row.getCell(i + 1);
			target.value = cell(text);
			if (target.value instanceof Date) target.numFmt = 'mm/dd/yyyy';
			else if (typeof target.value === 'number') target.numFmt = '0.00';
		});
		if (n < 2) row.font = { bold: true };
	});
	sheet.columns.forEach((column) => (column.width = 18));
	const target = path.join(dir, 'premium-and-tax-detail-report.xlsx');
	await workbook.xlsx.writeFile(target);
	console.log(`wrote ${path.relative(process.cwd(), target)}: ${lines.length} lines`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
