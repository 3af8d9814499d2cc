// Map Automatically's reading of a sheet's headers over 10,000 rows, for the project's sample
// headers and for Lloyd's coverholder-style ones (read through their words). Prints figures;
// asserts nothing. Run after `npx --no-install n8n-node build`: node scripts/bench/columnNames.js
const path = require('path');

const { matchItemColumns } = require(path.join(__dirname, '..', '..', 'dist', 'nodes', 'shared', 'invoiceColumns.js'));

const SHEETS = {
	'sample (11 columns)': { 'Policy #': 'P', 'Insured Name': 'A', State: 'TX', Type: 'New', 'Eff Date': '03/01/2026', 'Exp Date': '03/01/2027', Premium: '1', 'Policy Fee': '1', 'Inspection Fee': '', NAIC: '90001', Producer: 'x' },
	"Lloyd's-style (15 columns)": { 'Unique Market Reference': 'B0999', 'Certificate Reference': 'LCR-1', 'Insured Full Name': 'Acme', 'Insured Country': 'US', 'Location of Risk State': 'TX', 'Transaction Type': 'Original Premium', 'Risk Inception Date': '03/01/2026', 'Risk Expiry Date': '03/01/2027', 'Transaction Effective Date': '', 'Gross Premium Paid this time': '10000.00', 'Insurer NAIC/AA Code': '90001', 'Coverage %': '100%', 'Surplus Lines Tax Amount': '485.00', 'Stamping Fee Amount': '4.00', 'Total Taxes and Fees': '489.00' },
};
const ROWS = 10_000;

for (const [sheet, row] of Object.entries(SHEETS)) {
	const times = [];
	for (let round = 0; round < 5; round++) {
		const start = process.hrtime.bigint();
		for (let i = 0; i < ROWS; i++) matchItemColumns({ ...row, note: String(i) });
		times.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	times.sort((a, b) => a - b);
	console.log(`${sheet}: ${ROWS} rows in ${times[2].toFixed(1)} ms (median of 5; min ${times[0].toFixed(1)}, max ${times[4].toFixed(1)})`);
}
