/** Spreadsheet-like invoice rows for the benchmarks: distinct policies, one New transaction each. */
export function invoiceRows(count: number, policyPrefix: string) {
	return Array.from({ length: count }, (_, i) => ({
		policy_number: `${policyPrefix}-${i}`,
		insured_name: `Insured ${i}`,
		state_code: 'TX',
		net_premium: 1000 + i,
		effective_date: '2026-01-01',
		expiration_date: '2027-01-01',
	}));
}
