/**
 * Bordereaux in the conventions of the field: header sets of four conventions read by Map
 * Automatically, transaction codes of stamping offices and the Lloyd's coverholder words, the
 * sign rules of returned premium, and headers that could mean two fields.
 */
import { columnForName, matchItemColumns, readColumnName } from '../../../nodes/sheet/columns';
import { readTransaction, readTypeCode } from '../../../nodes/sheet/transactionTypes';
import { validateInvoice } from '../../../nodes/sheet/validation';

const idsOf = (headers: Record<string, string | undefined>) =>
	Object.fromEntries(Object.keys(headers).map((name) => [name, columnForName(name)?.id]));

describe('header sets of four conventions (Map Automatically)', () => {
	it("this project's sample bordereau", () => {
		const headers = {
			'Policy #': 'policy_number',
			'Insured Name': 'insured_name',
			State: 'state_code',
			Type: 'type_code',
			'Eff Date': 'effective_date',
			'Exp Date': 'expiration_date',
			Premium: 'net_premium',
			'Policy Fee': 'fee_policy_fee_company',
			'Inspection Fee': 'fee_inspection_fee',
			NAIC: 'insurer_1_naic',
			Producer: undefined,
		};
		expect(idsOf(headers)).toEqual(headers);
	});

	it('an MGA export with abbreviations', () => {
		const headers = {
			'Pol No': 'policy_number',
			'Insd Name': 'insured_name',
			St: 'state_code',
			'Trans Cd': 'type_code',
			'Eff Dt': 'effective_date',
			'Exp Dt': 'expiration_date',
			'Tx Eff Dt': 'transaction_effective_date',
			'Gross Prem': 'net_premium',
			'Carr NAIC': 'insurer_1_naic',
			'Carr %': 'insurer_1_percent',
			'Pol Fee': 'fee_policy_fee_company',
			'Insp Fee': 'fee_inspection_fee',
			'SL Tax Amt': 'fee_sl_tax',
			'Stamp Fee': 'fee_stamping_fee',
			'Tot Due': 'sheet_total_due',
			'Agt Cd': undefined,
			'Prod Name': undefined,
		};
		expect(idsOf(headers)).toEqual(headers);
	});

	it("Lloyd's coverholder-style names", () => {
		const headers = {
			'Certificate Reference': 'policy_number',
			'Insured Full Name': 'insured_name',
			'Location of Risk State': 'state_code',
			'Transaction Type': 'type_code',
			'Risk Inception Date': 'effective_date',
			'Risk Expiry Date': 'expiration_date',
			'Transaction Effective Date': 'transaction_effective_date',
			'Gross Premium Paid this time': 'net_premium',
			'Insurer NAIC/AA Code': 'insurer_1_naic',
			'Coverage %': 'insurer_1_percent',
			'Surplus Lines Tax Amount': 'fee_sl_tax',
			'Stamping Fee Amount': 'fee_stamping_fee',
			'Tax Amount': 'sheet_total_taxes',
			'Unique Market Reference': undefined,
			'Commission %': 'commission_percent',
			'Sum Insured': undefined,
			'Insured Country': undefined,
		};
		expect(idsOf(headers)).toEqual(headers);
	});

	it("a filing platform's field names (camelCase)", () => {
		const headers = {
			PolicyNumber: 'policy_number',
			InsuredName: 'insured_name',
			RiskStateCode: 'state_code',
			TransactionTypeCode: 'type_code',
			PolicyEffectiveDate: 'effective_date',
			PolicyExpirationDate: 'expiration_date',
			TransactionEffectiveDate: 'transaction_effective_date',
			PremiumAmount: 'net_premium',
			InsurerNAICCode: 'insurer_1_naic',
			Insurer2NAICCode: 'insurer_2_naic',
			InsurerSharePercent: 'insurer_1_percent',
			SLTaxAmount: 'fee_sl_tax',
			StampingFeeAmount: 'fee_stamping_fee',
			FireMarshalTaxAmount: 'fee_fire_marshal',
			PolicyFeeAmount: 'fee_policy_fee_company',
			TotalTaxesAndFees: 'sheet_total_taxes',
			TotalDue: 'sheet_total_due',
			SubmissionId: undefined,
		};
		expect(idsOf(headers)).toEqual(headers);
	});

	it('columns that give one field and agree are read once; values that differ are refused naming both, never settled by rank', () => {
		const agree = matchItemColumns({ 'Gross Premium Paid this time': '$1,000.00', 'Total Gross Written Premium': '1000', Premium: '1,000' });
		expect(agree.values.net_premium).toBe('1,000');
		expect(agree.problems).toEqual([]);
		const row = {
			'Gross Premium Paid this time': '-250',
			'Total Gross Written Premium': '1000',
			Premium: '-200',
		};
		const matched = matchItemColumns(row);
		expect(matched.problems).toEqual([
			'net_premium: columns "Premium" (-200) and "Gross Premium Paid this time" (-250) and "Total Gross Written Premium" (1000) give this field different values, so the row is not filed; make them agree, leave one empty, or map the columns by hand (Map Each Column Manually)',
		]);
	});

	it('premium columns that are not this transaction’s are not read as the premium', () => {
		for (const name of ['Return Premium', 'Earned Premium', 'Minimum Premium', 'Premium Tax Rate', 'Broker Commission', 'Premium Finance Company']) {
			expect(columnForName(name)?.id).not.toBe('net_premium');
		}
		// Nor is the prior policy's number a date, nor an insurer's or producer's state the risk's.
		for (const name of ['Expiring Policy Number', 'Insurer State', 'Producer State', 'State of Domicile']) expect(columnForName(name)).toBeUndefined();
	});
});

describe('a header that could mean two fields is never guessed', () => {
	it('is read as neither, and the row names the column to rename or map by hand', () => {
		expect(readColumnName('Effective/Expiry Date')).toEqual({ ambiguous: ['effective_date', 'expiration_date'] });
		expect(readColumnName('Start / End')).toEqual({ ambiguous: ['effective_date', 'expiration_date'] });
		const matched = matchItemColumns({ 'Policy #': 'P-1', 'Effective/Expiry Date': '03/01/2026' });
		expect(matched.values).toEqual({ policy_number: 'P-1' });
		expect(matched.problems).toEqual([
			'column "Effective/Expiry Date" could be effective_date or expiration_date; rename the column (for example "Effective Date" or "Expiration Date") or map the columns by hand (Map Each Column Manually)',
		]);
	});

	it('says nothing when other columns give both fields', () => {
		const matched = matchItemColumns({ 'Eff Date': '03/01/2026', 'Exp Date': '03/01/2027', 'Start/End': '03/01/2026-03/01/2027' });
		expect(matched.problems).toEqual([]);
		expect(matched.values).toEqual({ effective_date: '03/01/2026', expiration_date: '03/01/2027' });
	});
});

describe('transaction codes', () => {
	it('stamping-office codes and Lloyd’s words read to the four types, each with its meaning', () => {
		const read = (word: string) => {
			const r = readTransaction(word);
			return r.ok ? `${r.value!.code} (${r.value!.meaning})` : `refused: ${r.message}`;
		};
		expect(
			['PN', 'PR', 'APE', 'RPE', 'FC', 'PC', 'Original Premium', 'Additional Premium', 'Return Premium', 'New', 'Renewal', 'Endt', 'CXL'].map(read),
		).toEqual([
			'NEW (new policy)',
			'RENEWAL (renewal policy)',
			'ENDORSEMENT (additional premium endorsement)',
			'ENDORSEMENT (return premium endorsement)',
			'CANCELLATION (flat cancellation, premium returned)',
			'CANCELLATION (pro-rata cancellation, premium returned)',
			'NEW (new policy)',
			'ENDORSEMENT (additional premium endorsement)',
			'ENDORSEMENT (return premium endorsement)',
			'NEW (new policy)',
			'RENEWAL (renewal policy)',
			'ENDORSEMENT (endorsement)',
			'CANCELLATION (cancellation)',
		]);
		expect(readTypeCode(' rpe ')).toEqual({ ok: true, value: 'ENDORSEMENT' });
		expect(readTypeCode('')).toEqual({ ok: true, value: undefined });
	});

	it('audits, binders, rewrites and reinstatements are refused with the reason; an unclear code is not guessed', () => {
		const message = (word: string) => {
			const r = readTypeCode(word);
			return r.ok ? `read as ${String(r.value)}` : r.message;
		};
		const rule = 'Must be one of: NEW, RENEWAL, ENDORSEMENT, CANCELLATION';
		expect(message('AE')).toBe(`"AE" is an audit endorsement, which cannot be filed as an invoice (the service takes no audits, reinstatements or rewrites). ${rule}`);
		expect(message('Reinstatement')).toBe(`"Reinstatement" is a reinstatement, which cannot be filed as an invoice (the service takes no audits, reinstatements or rewrites). ${rule}`);
		expect(message('RW')).toMatch(/^"RW" is a rewrite, which cannot be filed as an invoice .*; file a cancellation of the old policy and the new policy\. Must be one of/);
		expect(message('BD')).toMatch(/^"BD" is a binder: a binder is not filed as an invoice; file the policy once it is issued/);
		expect(message('RE')).toMatch(/^"RE" could be a renewal, a return premium or a reinstatement/);
		expect(message('Transfer')).toBe(rule);
	});
});

const body = (overrides: Record<string, unknown>) => ({
	policy_number: 'P-1',
	insured_name: 'Acme',
	state_code: 'TX',
	net_premium: '1000',
	effective_date: '2026-03-01',
	expiration_date: '2027-03-01',
	...overrides,
});

describe('sign rules of premiums', () => {
	it('a return written unsigned is filed negative with its other amounts of the change, and says so', () => {
		const result = validateInvoice(
			body({
				type_code: 'RPE',
				net_premium: '$500.00',
				coverages: [{ code: 'GL', amount: 500 }],
				insurers: [{ naic: '90001', amount: '500' }],
				fees: [{ type: 'SL Tax', amount: '24.25' }, { type: 'policy_fee_company', amount: 25 }],
			}),
		);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.body).toMatchObject({
			type_code: 'ENDORSEMENT',
			net_premium: -500,
			coverages: [{ code: 'GL', amount: -500 }],
			insurers: [{ naic: '90001', amount: -500 }],
			// Billed taxes follow the premium; a policy fee is the sheet's to sign.
			fees: [{ type: 'sl_tax', amount: -24.25 }, { type: 'policy_fee_company', amount: 25 }],
		});
		const why = 'RPE returns premium: an unsigned amount is filed negative';
		expect(result.converted).toEqual([
			{ field: 'net_premium', from: '$500.00', to: -500, why },
			{ field: 'type_code', from: 'RPE', to: 'ENDORSEMENT', why: 'RPE: return premium endorsement' },
			{ field: 'coverages[0].amount', from: 500, to: -500, why },
			{ field: 'insurers[0].amount', from: '500', to: -500, why },
			{ field: 'fees[0].type', from: 'SL Tax', to: 'sl_tax' },
			{ field: 'fees[0].amount', from: '24.25', to: -24.25, why },
		]);
	});

	it('a return written negative (minus or brackets) keeps the sheet’s sign', () => {
		for (const premium of ['-500', '(500.00)', -500]) {
			const result = validateInvoice(body({ type_code: 'Return Premium', net_premium: premium }));
			expect(result.ok && result.body.net_premium).toBe(-500);
		}
		const fc = validateInvoice(body({ type_code: 'FC', net_premium: '1200' }));
		expect(fc.ok && [fc.body.type_code, fc.body.net_premium]).toEqual(['CANCELLATION', -1200]);
	});

	it('a sign that contradicts the code is refused, not guessed', () => {
		expect(validateInvoice(body({ type_code: 'APE', net_premium: '-300' }))).toEqual({
			ok: false,
			problems: ['net_premium: -300 is negative, but type_code "APE" is an additional premium; write the premium positive, or give a return type (RPE)'],
		});
		expect(validateInvoice(body({ type_code: 'RPE', net_premium: '+300' }))).toEqual({
			ok: false,
			problems: ['net_premium: +300 is written positive, but type_code "RPE" returns premium; write it unsigned or negative'],
		});
	});

	it('codes without a direction keep the sheet’s sign as written (as before)', () => {
		for (const type of ['ENDORSEMENT', 'Cancellation', 'CXL']) {
			const positive = validateInvoice(body({ type_code: type, net_premium: '400' }));
			const negative = validateInvoice(body({ type_code: type, net_premium: '-400' }));
			expect([positive.ok && positive.body.net_premium, negative.ok && negative.body.net_premium]).toEqual([400, -400]);
		}
		const additional = validateInvoice(body({ type_code: 'APE', net_premium: '300' }));
		expect(additional.ok && additional.body.net_premium).toBe(300);
	});
});
