/**
 * The one rule for "the same transaction" (filing/sameFiling.ts): the values it reads in one form
 * (cents, dates, a type by name or code, fee aliases, insurers in any order), the fields that
 * tell two filings apart, and what it says it could not compare.
 */
import type { IDataObject } from 'n8n-workflow';

import { compareWithStored, sameSentFiling } from '../../../nodes/filing/sameFiling';

const body: IDataObject = {
	policy_number: 'GL-1',
	insured_name: 'Harbor Marine LLC',
	state_code: 'TX',
	type_code: 'ENDORSEMENT',
	net_premium: 500,
	effective_date: '2026-03-01',
	expiration_date: '2027-01-01',
	invoice_number: 'END-001',
	insurers: [{ company_id: 301, percent: 60 }, { naic: '90002', percent: 40 }],
	fees: [{ type: 'slas_fee', amount: 4 }, { type: 'policy_fee_broker', amount: 75 }, { type: 'stamping_fee', amount: 5 }],
};

/** The invoice as the listing shows it after the service stored `body`. */
const stored: IDataObject = {
	id: 7,
	policy_number: 'GL-1',
	invoice_number: 'END-001',
	invoice_date: '2026-03-01',
	insured_name: ' Harbor Marine LLC ',
	state: { id: 44, code: 'TX', name: 'Texas' },
	type: { id: 3, name: 'Endorsement' },
	lob: null,
	net_premium: '500.00',
	commission: null,
	effective_date: '2026-03-01T00:00:00',
	expiration_date: '01/01/2027',
	notes: null,
	// The alias stored under its other code, the flat stamping fee set by the service, another order.
	fees: [{ type: 'policy_fee_broker', amount: 75 }, { type: 'clearinghouse_fee', amount: 4.0 }, { type: 'stamping_fee', amount: 10 }],
	coverages: [],
	insurers: [
		{ company_id: 302, name: 'Prairie Excess and Surplus Insurance Company', naic: '90002', percent: 40, amount: null },
		{ company_id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001', percent: 60, amount: null },
	],
	documents: [],
};

describe('the same transaction', () => {
	it('reads amounts, dates, type, text, fee aliases and insurers in one form', () => {
		const result = compareWithStored(stored, body);
		expect(result.differs).toEqual([]);
		expect(result.same).toBe(true);
		expect(result.notComparable).toEqual(['fees.stamping_fee (the service may set it itself)']);
	});

	it.each([
		['invoice_number', { invoice_number: 'END-002' }],
		['state', { state_code: 'LA' }],
		['insurers', { insurers: [{ company_id: 303 }] }],
		['insured_name', { insured_name: 'Other Marine LLC' }],
		['expiration_date', { expiration_date: '2027-02-01' }],
		['commission', { commission: 50 }],
		['fees', { fees: [{ type: 'policy_fee_broker', amount: 80 }] }],
		['tax_lines', { fees: [{ type: 'slas_fee', amount: 4 }, { type: 'policy_fee_broker', amount: 75 }, { type: 'sl_tax', amount: 24.35 }] }],
		['lob', { lob_id: 2 }],
		['notes', { notes: 'rush' }],
	])('a row whose %s differs is another filing', (field, change) => {
		const result = compareWithStored(stored, { ...body, ...change });
		expect(result.same).toBe(false);
		expect(result.differs).toContain(field);
	});

	it('a type shown by its code, a transaction_effective_date shown as the effective date, a single insurer without a share', () => {
		const single = { ...body, insurers: [{ company_id: 301 }], fees: undefined, transaction_effective_date: undefined };
		const shown = { ...stored, type: 'ENDORSEMENT', fees: [], transaction_effective_date: '2026-03-01', insurers: [{ company_id: 301, percent: 100, amount: 500 }] };
		expect(compareWithStored(shown, single).differs).toEqual([]);
		expect(compareWithStored(shown, { ...single, transaction_effective_date: '2026-03-02' }).differs).toEqual(['transaction_effective_date']);
	});

	it('names what the listing cannot show, and leaves out what the caller already knows', () => {
		const result = compareWithStored(stored, { ...body, policy_limit: 1_000_000, insured_address: { line1: '1 Main St' } });
		expect(result.same).toBe(true);
		expect(result.notComparable).toEqual(
			expect.arrayContaining(['policy_limit (the listing does not show it)', 'insured_address (the listing does not show it)']),
		);
		// The 409 on a derived key: the key covers everything but the tax lines.
		const newerTaxes = { ...body, fees: [...(body.fees as IDataObject[]), { type: 'sl_tax', amount: 24.35 }] };
		expect(compareWithStored(stored, newerTaxes).same).toBe(false);
		expect(compareWithStored(stored, newerTaxes, ['tax_lines']).same).toBe(true);
	});

	it('two rows of one run: the same rule on both sides as sent', () => {
		expect(sameSentFiling(body, { ...body, insured_name: ' Harbor Marine LLC', net_premium: '500.00', state_code: 'tx' })).toBe(true);
		// As their derived keys differ, so do the rows: on every account kind both are filed.
		expect(sameSentFiling(body, { ...body, insured_name: 'HARBOR MARINE LLC' })).toBe(false);
		expect(sameSentFiling(body, { ...body, fees: [{ type: 'clearinghouse_fee', amount: 4 }, { type: 'policy_fee_broker', amount: 75 }, { type: 'stamping_fee', amount: 6 }] })).toBe(false);
		expect(sameSentFiling(body, { ...body, fees: [{ type: 'stamping_fee', amount: 5 }, { type: 'clearinghouse_fee', amount: 4 }, { type: 'policy_fee_broker', amount: 75 }] })).toBe(true);
		expect(sameSentFiling(body, { ...body, invoice_number: 'END-002' })).toBe(false);
		expect(sameSentFiling(body, { ...body, policy_limit: 5 })).toBe(false);
	});
});

describe('three answers against the service’s own forms', () => {
	const row: IDataObject = { ...body, insured_name: 'Harbor  Marine Co.', invoice_number: 'inv-0042', net_premium: 1000.125, insurers: [{ company_id: 301, percent: 100 }], fees: [{ type: 'other', amount: 10 }, { type: 'other', amount: 15.5 }] };
	const asShown: IDataObject = {
		...stored,
		insured_name: 'HARBOR MARINE CO',
		invoice_number: 'INV-42',
		net_premium: 1000.12,
		commission: 0,
		effective_date: '2026-02-28T18:00:00-06:00',
		expiration_date: '01/01/2027',
		invoice_date: '2026-02-28T18:00:00-06:00',
		fees: [{ type: 'other', amount: 25.5 }, { type: 'surcharge', amount: 1 }],
		insurers: [{ company_id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001', percent: 1, amount: null }],
	};

	it('same: differences of form only, each listed', () => {
		const result = compareWithStored(asShown, row);
		expect([result.answer, result.differs]).toEqual(['same', []]);
		expect(result.inForm).toEqual(expect.arrayContaining(['insured_name', 'invoice_number', 'net_premium', 'commission', 'effective_date', 'fees', 'tax_lines', 'insurers']));
	});

	it('amounts from their decimal text: 1.005 is not 1.00 (Math.round(1.005 * 100) is 100)', () => {
		expect(compareWithStored({ ...asShown, net_premium: 1.01 }, { ...row, net_premium: 1.005 }).answer).toBe('same');
		expect(compareWithStored({ ...asShown, net_premium: 1.02 }, { ...row, net_premium: 1.005 }).answer).toBe('different');
		expect(compareWithStored({ ...asShown, net_premium: '500.00' }, { ...row, net_premium: 500 }).inForm).not.toContain('net_premium');
	});

	it('different: substance in what tells transactions apart', () => {
		expect(compareWithStored({ ...asShown, invoice_number: 'INV-43' }, row).answer).toBe('different');
		expect(compareWithStored({ ...asShown, effective_date: '2026-03-02' }, row).answer).toBe('different');
		expect(compareWithStored({ ...asShown, insurers: [{ company_id: 301, percent: 0.5 }, { company_id: 302, percent: 0.5 }] }, row).answer).toBe('different');
	});

	it('cannot tell: a hand-entered look-alike (no invoice number, no fees), or fees of other amounts; both values named', () => {
		const hand = compareWithStored({ ...asShown, invoice_number: null, fees: [] }, row);
		expect(hand.answer).toBe('cannotTell');
		expect(hand.differences).toEqual(expect.arrayContaining([{ field: 'invoice_number', row: 'inv-0042', stored: 'none' }]));
		expect(compareWithStored({ ...asShown, fees: [{ type: 'other', amount: 30 }] }, row).answer).toBe('cannotTell');
		expect(compareWithStored({ ...asShown, insured_name: 'Other Marine' }, row).answer).toBe('cannotTell');
	});

	it('two rows of one run that differ in coverage details or what the listing does not show are two filings', () => {
		const covered = { ...row, coverages: [{ code: 'GL', amount: 100, limits: [1_000_000] }] };
		expect(sameSentFiling(covered, { ...covered, coverages: [{ code: 'GL', amount: 100, limits: [2_000_000] }] })).toBe(false);
		expect(sameSentFiling(covered, { ...covered })).toBe(true);
	});
});
