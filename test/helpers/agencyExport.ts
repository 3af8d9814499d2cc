/**
 * Issue 38: an agency-management-style export of the project's own making, for the engine-harness
 * test (test/nodes-against-sandbox/agencyExport.test.ts) and the e2e scenario `agency-export`.
 * Abbreviated headers (Inv Nbr, Insd St, Pol Eff, Brkr Fee, Stamp...), money as report text
 * (`12,500.00`, `2,400.00 CR`, `-` for zero), states as typed (`tx`, `Georgia`, `State of New
 * York`), ACORD transaction codes, a day-first change-date column (`19/05/2026` makes `04/06/2026`
 * June 4), a mailing state beside the taxing state, unknown columns (Retail Agent, CSR: listed;
 * MGA Fee: refuses a row with an amount) and a column left out by the option (Earned Prem).
 */
import type { IDataObject } from 'n8n-workflow';

export const AGENCY_HEADER = [
	'Inv Nbr',
	'Pol Nbr',
	'Insd Name',
	'Insd St',
	'Mailing St',
	'Trans',
	'Pol Eff',
	'Pol Exp',
	'Trans Eff',
	'Carrier NAIC',
	'Prem',
	'Pol Fee',
	'Insp Fee',
	'Brkr Fee',
	'SL Tax',
	'Stamp',
	'MGA Fee',
	'Earned Prem',
	'Retail Agent',
	'CSR',
] as const;
type Cells = Partial<Record<(typeof AGENCY_HEADER)[number], string>>;

/** The option Columns Not to File the workflows set. */
export const AGENCY_LEFT_OUT = 'Earned Prem';

/** What the state sees of a stored filing (the same on every account), or the refusal's text. */
export type AgencyExpect =
	| {
			filing: {
				type: string;
				state: string;
				net_premium: number;
				change_date: string;
				invoice_number: string;
				/** Policy, inspection and broker fee lines as [code, amount], sorted by code. */
				fees: Array<[string, number]>;
			};
			/** Columns `_ignoredColumns` lists. */
			ignored: string[];
	  }
	| { refused: string };

export interface AgencyRow {
	what: string;
	cells: Cells;
	expect: AgencyExpect;
}

const base = (own: Cells): Cells => ({
	'Insd Name': 'Blue Ridge Storage Inc',
	'Insd St': 'tx',
	'Mailing St': 'TX',
	'Pol Eff': '2026-03-01 00:00:00',
	'Pol Exp': '2027-03-01 00:00:00',
	'Carrier NAIC': '90001',
	'Pol Fee': '-',
	'Insp Fee': '-',
	'Brkr Fee': '-',
	'MGA Fee': '-',
	'Earned Prem': '0.00',
	'Retail Agent': 'Lone Oak Agency',
	CSR: 'JD',
	...own,
});

/** Listed on every filed row: the unknown columns, the zero MGA Fee and the column left out. */
const LISTED = ['Mailing St', 'MGA Fee', 'Earned Prem', 'Retail Agent', 'CSR'];

/** The rows; `policy` makes the policy numbers unique per run. */
export function agencyRows(policy: string): AgencyRow[] {
	const pol = (n: number) => `${policy}-${n}`;
	return [
		{
			what: 'NBS in "tx", 12,500.00, Pol Fee 150.00, Brkr Fee 100.00, Insp Fee "-"',
			cells: base({ 'Inv Nbr': 'AE-1001', 'Pol Nbr': pol(1), Trans: 'NBS', Prem: '12,500.00', 'Pol Fee': '150.00', 'Brkr Fee': '100.00', 'Earned Prem': '12,500.00' }),
			expect: {
				filing: { type: 'New', state: 'TX', net_premium: 12500, change_date: '2026-03-01', invoice_number: 'AE-1001', fees: [['broker_fee', 100], ['policy_fee_company', 150]] },
				ignored: LISTED,
			},
		},
		{
			what: 'RWL in "State of New York", mailed to NJ, fees "-"',
			cells: base({ 'Inv Nbr': 'AE-1002', 'Pol Nbr': pol(2), 'Insd Name': 'Hudson Marine LLC', 'Insd St': 'State of New York', 'Mailing St': 'NJ', Trans: 'RWL', Prem: '8,000.00' }),
			expect: {
				filing: { type: 'Renewal', state: 'NY', net_premium: 8000, change_date: '2026-03-01', invoice_number: 'AE-1002', fees: [] },
				ignored: LISTED,
			},
		},
		{
			what: 'PCH in "Georgia", 2,400.00 CR, Trans Eff 19/05/2026 (the column is day first)',
			cells: base({ 'Inv Nbr': 'AE-1003', 'Pol Nbr': pol(3), 'Insd Name': 'Peach State Hauling', 'Insd St': 'Georgia', 'Mailing St': 'GA', Trans: 'PCH', 'Trans Eff': '19/05/2026', Prem: '2,400.00 CR' }),
			expect: {
				filing: { type: 'Endorsement', state: 'GA', net_premium: -2400, change_date: '2026-05-19', invoice_number: 'AE-1003', fees: [] },
				ignored: LISTED,
			},
		},
		{
			what: 'END, Trans Eff 04/06/2026 read day first (June 4), Brkr Fee 25.00',
			cells: base({ 'Inv Nbr': 'AE-1004', 'Pol Nbr': pol(1), Trans: 'END', 'Trans Eff': '04/06/2026', Prem: '600.00', 'Brkr Fee': '25.00' }),
			expect: {
				filing: { type: 'Endorsement', state: 'TX', net_premium: 600, change_date: '2026-06-04', invoice_number: 'AE-1004', fees: [['broker_fee', 25]] },
				ignored: LISTED,
			},
		},
		{
			what: 'XLN, 1,000.00 CR, Trans Eff 15/07/2026',
			cells: base({ 'Inv Nbr': 'AE-1005', 'Pol Nbr': pol(5), 'Insd Name': 'Gulf Coast Marina LLC', Trans: 'XLN', 'Trans Eff': '15/07/2026', Prem: '1,000.00 CR' }),
			expect: {
				filing: { type: 'Cancelled', state: 'TX', net_premium: -1000, change_date: '2026-07-15', invoice_number: 'AE-1005', fees: [] },
				ignored: LISTED,
			},
		},
		{
			what: 'AUD (an audit: the service takes none)',
			cells: base({ 'Inv Nbr': 'AE-1006', 'Pol Nbr': pol(6), Trans: 'AUD', Prem: '300.00' }),
			expect: { refused: 'is an audit (ACORD AUD)' },
		},
		{
			what: 'NBS with MGA Fee 35.00 (an unknown fee column holding an amount)',
			cells: base({ 'Inv Nbr': 'AE-1007', 'Pol Nbr': pol(7), Trans: 'NBS', Prem: '5,000.00', 'MGA Fee': '35.00' }),
			expect: { refused: 'column "MGA Fee" (35.00): the package does not read this column and its header names a fee' },
		},
		{
			what: 'REI (a reinstatement)',
			cells: base({ 'Inv Nbr': 'AE-1008', 'Pol Nbr': pol(8), Trans: 'REI', Prem: '1,000.00' }),
			expect: { refused: 'is a reinstatement' },
		},
	];
}

/** A row as a sheet read gives it: every header, empty cells as empty text. */
export const agencyItem = (row: AgencyRow): IDataObject =>
	Object.fromEntries(AGENCY_HEADER.map((h) => [h, row.cells[h] ?? '']));

/** What the state sees of a stored invoice, as AgencyExpect's `filing` states it. */
export function storedFiling(invoice: IDataObject) {
	return {
		type: (invoice.type as IDataObject).name,
		state: (invoice.state as IDataObject).code,
		net_premium: invoice.net_premium,
		// Legacy accounts store the date of a change as the effective date.
		change_date: invoice.transaction_effective_date ?? invoice.effective_date,
		invoice_number: invoice.invoice_number,
		fees: sheetFees(invoice),
	};
}

/** The fee lines of a stored invoice a broker's sheet gives (not the taxes), sorted by code. */
function sheetFees(invoice: IDataObject): Array<[string, number]> {
	const own = new Set(['policy_fee_company', 'inspection_fee', 'broker_fee']);
	return ((invoice.fees ?? []) as IDataObject[])
		.filter((f) => own.has(String(f.type)))
		.map((f): [string, number] => [String(f.type), Number(f.amount)])
		.sort((a, b) => a[0].localeCompare(b[0]));
}
