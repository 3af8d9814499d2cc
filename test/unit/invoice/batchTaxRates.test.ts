/**
 * The computation Create Many bills from (taxes/rates.ts), on calculator replies written here:
 * what a probe estimate teaches (taxed fee categories, codes with a rule of their own, replies
 * that do not follow from their rates), each rounding rule, flat charges on changes, returned
 * premiums, rounding ties, and where a computation and a preview differ.
 */
import type { IDataObject } from 'n8n-workflow';

import { codesBody, computeTaxes, learnCodes, learnModel, probeBody, readRates, sameRates, taxDifference, type TaxModel } from '../../../nodes/taxes/rates';

const line = (code: string, rate: number, amount: number, flat = false) => ({ name: code, code, rate, rate_type: flat ? 'flat' : 'percentage', amount, unrounded_amount: amount });

/** A probe reply: premium 1,000 and every fee code at 1 (9 policy fees, inspection, broker, 4 pass-through). */
function probeReply(overrides: IDataObject = {}): IDataObject {
	return {
		state: { code: 'XX' },
		tax_base: 1010,
		rounding_rule: 'standard',
		line_items: [line('sl_tax', 4.85, 48.99), line('flat_fee', 4, 4, true)],
		fee_breakdown: { policy_fees_taxable: 9, inspection_fees_taxable: 1, broker_fees_taxable: 0, non_taxable_fees: 5, total_fees: 15, total_taxable_fees: 10 },
		...overrides,
	};
}

const model = (reply: IDataObject = probeReply()) => {
	const learned = learnModel('XX', '2026-01-01', reply);
	if ('problem' in learned) throw new Error(learned.problem);
	return learned;
};

const amounts = (m: TaxModel, body: IDataObject) => {
	const computed = computeTaxes(m, body);
	if ('unsure' in computed) return computed.unsure;
	return (computed.taxCalculation.line_items as IDataObject[]).map((l) => [l.code, l.amount]);
};

describe('the probe estimate', () => {
	it('asks every fee code the calculator takes once, at 1', () => {
		const body = probeBody('TX', '2026-01-01');
		expect(body).toMatchObject({ state: 'TX', premium: 1000, effective_date: '2026-01-01' });
		expect((body.fees as IDataObject[]).every((f) => f.amount === 1)).toBe(true);
		expect((body.fees as IDataObject[]).length).toBe(15);
	});

	it('learns which fee categories are taxed from fee_breakdown', () => {
		const m = model();
		expect([...m.taxed].sort()).toEqual(['inspection_fee', 'policy_fee']);
		expect(amounts(m, { net_premium: 1000, type_code: 'NEW', fees: [{ type: 'broker_fee', amount: 500 }, { type: 'inspection_fee', amount: 100 }] })).toEqual([
			['sl_tax', 53.35],
			['flat_fee', 4],
		]);
	});

	it('a category partly taxed leaves its codes unsettled: such a row is not computed until they are learned', () => {
		const m = model(probeReply({ tax_base: 1009, fee_breakdown: { policy_fees_taxable: 8, inspection_fees_taxable: 1, broker_fees_taxable: 0 }, line_items: [line('sl_tax', 4.85, 48.94)] }));
		expect(amounts(m, { net_premium: 1000, fees: [{ type: 'technology_fee', amount: 5 }] })).toBe('Technology Fee (technology_fee) is in a category partly taxed in XX');
		expect(amounts(m, { net_premium: 1000, fees: [{ type: 'inspection_fee', amount: 5 }] })).toEqual([['sl_tax', 48.74]]);
	});

	it('a fee code a warning names, or a fees’ total short of the probe’s, leaves codes unsettled', () => {
		const m = model(probeReply({ warnings: ['vehicle_crime_fee does not apply to Texas surplus lines; its amount was set to 0'] }));
		expect(m.unsettled.get('vehicle_crime_fee')).toBe('is named by a warning of the XX estimate');
		expect(m.unsettled.has('technology_fee')).toBe(false);
		const short = model(probeReply({ fee_breakdown: { policy_fees_taxable: 9, inspection_fees_taxable: 1, broker_fees_taxable: 0, total_fees: 14 } }));
		expect(short.unsettled.get('broker_fee')).toBe("may be left out of the fees' total in XX");
	});

	it('a reply whose figures do not follow from its rates is not used', () => {
		expect(learnModel('XX', '2026-01-01', probeReply({ line_items: [line('sl_tax', 4.85, 50)] }))).toEqual({ problem: expect.stringMatching(/does not follow from its own rates \(sl_tax\)/) });
		expect(learnModel('XX', '2026-01-01', probeReply({ rounding_rule: 'banker' }))).toEqual({ problem: expect.stringMatching(/gives no rate/) });
	});
});

describe('fee codes learned one by one', () => {
	// TX as the description gives it: policy fees taxed, the vehicle crime fee zeroed (untaxed, uncounted).
	const tx = () => model(probeReply({ tax_base: 1009, fee_breakdown: { policy_fees_taxable: 8, inspection_fees_taxable: 1, broker_fees_taxable: 0, total_fees: 14 }, line_items: [line('sl_tax', 4.85, 48.94)], warnings: ['vehicle_crime_fee does not apply'] }));
	const codes = ['policy_fee_company', 'vehicle_crime_fee', 'inspection_fee', 'fslso_service'];
	// Amounts 1, 2, 4, 8: company and inspection taxed (1 + 4), all but the vehicle crime fee counted (1 + 4 + 8).
	const reply = (overrides: IDataObject = {}) => ({ tax_base: 1005, rounding_rule: 'standard', line_items: [line('sl_tax', 4.85, 48.74)], fee_breakdown: { policy_fees_taxable: 1, inspection_fees_taxable: 4, broker_fees_taxable: 0, total_fees: 13 }, ...overrides });

	it('asks the codes at their own powers of two', () => {
		expect(codesBody('TX', '2026-03-01', codes)).toEqual({ state: 'TX', premium: 1000, effective_date: '2026-03-01', fees: [{ type: 'policy_fee_company', amount: 1 }, { type: 'vehicle_crime_fee', amount: 2 }, { type: 'inspection_fee', amount: 4 }, { type: 'fslso_service', amount: 8 }] });
	});

	it('reads each code taxed or not, counted or not, and computes rows carrying them', () => {
		const m = learnCodes(tx(), codes, reply());
		expect(m.codeRules.get('vehicle_crime_fee')).toEqual({ taxed: false, counted: false });
		expect(m.codeRules.get('policy_fee_company')).toEqual({ taxed: true, counted: true });
		expect(m.unsettled.has('policy_fee_company')).toBe(false);
		// Codes the sheet does not carry stay unsettled.
		expect(m.unsettled.has('technology_fee')).toBe(true);
		const computed = computeTaxes(m, { net_premium: 2000, fees: [{ type: 'policy_fee_company', amount: 100 }, { type: 'vehicle_crime_fee', amount: 20 }, { type: 'fslso_service', amount: 5 }] });
		expect(computed).toMatchObject({ taxCalculation: { tax_base: 2100, line_items: [{ code: 'sl_tax', amount: 101.85 }], total_due: 2000 + 105 + 101.85 } });
	});

	it('a reply that is no set of the codes sent (a cap, a share of a fee) leaves them unsettled, saying why', () => {
		for (const [overrides, why] of [
			[{ fee_breakdown: { policy_fees_taxable: 0.5, inspection_fees_taxable: 4, broker_fees_taxable: 0, total_fees: 13 } }, 'policy_fees_taxable is not a sum of the fees sent'],
			[{ fee_breakdown: { policy_fees_taxable: 4, inspection_fees_taxable: 0, broker_fees_taxable: 0, total_fees: 13 } }, 'policy_fees_taxable is not a sum of the fees sent'],
			[{ fee_breakdown: { policy_fees_taxable: 1, inspection_fees_taxable: 4, broker_fees_taxable: 0, total_fees: 16 } }, 'total_fees is not a sum of the fees sent'],
			[{ tax_base: 1013 }, 'its tax base is not the premium and the taxed fees'],
			[{ line_items: [line('sl_tax', 5, 50.25)] }, 'the estimate gives other rates'],
		] as const) {
			const m = learnCodes(tx(), codes, reply(overrides));
			expect(amounts(m, { net_premium: 1000, fees: [{ type: 'vehicle_crime_fee', amount: 5 }] })).toBe(`Vehicle Crime Fee (vehicle_crime_fee) has a rule of its own in XX that could not be learned (${why})`);
		}
	});
});

describe('a row computed from the model', () => {
	it('rounds each line as its rounding rule says, half up on the magnitude', () => {
		const whole = model(probeReply({ rounding_rule: 'whole_dollar', line_items: [line('sl_tax', 3, 30)], tax_base: 1010 }));
		expect(amounts(whole, { net_premium: 12345 })).toEqual([['sl_tax', 370]]);
		const none = model(probeReply({ rounding_rule: 'no_rounding', line_items: [line('sl_tax', 3.003, 30.3303)] }));
		expect(amounts(none, { net_premium: 1234.56 })).toEqual([['sl_tax', 37.073837]]);
	});

	it('skips a flat charge on an endorsement or cancellation, and signs a returned premium', () => {
		const m = model();
		expect(amounts(m, { net_premium: -1000, type_code: 'CANCELLATION' })).toEqual([['sl_tax', -48.5]]);
		expect(amounts(m, { net_premium: 500, type_code: 'ENDORSEMENT' })).toEqual([['sl_tax', 24.25]]);
	});

	it('says when a line falls on a rounding tie, and whether half to even would differ', () => {
		const m = model();
		// 1,010 × 4.85% = 48.985: half up 48.99 (odd), half to even 48.98.
		expect(computeTaxes(m, { net_premium: 1010 })).toMatchObject({ tie: { code: 'sl_tax', odd: true } });
		// 1,030 × 4.85% = 49.955: half up 49.96 (even), half to even the same.
		expect(computeTaxes(m, { net_premium: 1030 })).toMatchObject({ tie: { code: 'sl_tax', odd: false } });
		expect(computeTaxes(m, { net_premium: 1234.56 })).not.toHaveProperty('tie');
	});

	it('totals as the preview does: taxes, and the due with every fee', () => {
		const computed = computeTaxes(model(), { net_premium: 1000, type_code: 'NEW', fees: [{ type: 'filing_fee', amount: 25 }, { type: 'sl_tax', amount: 1 }] });
		expect(computed).toMatchObject({ taxCalculation: { total_taxes_and_fees: 52.5, total_due: 1077.5, tax_base: 1000 } });
	});
});

describe('comparing rates and figures', () => {
	it('two dates have the same rates when every line, rate, kind and the rounding agree', () => {
		const a = readRates(probeReply())!;
		expect(sameRates(a, readRates(probeReply())!)).toBe(true);
		expect(sameRates(a, readRates(probeReply({ line_items: [line('sl_tax', 4.85, 1), line('flat_fee', 5, 5, true)] }))!)).toBe(false);
		expect(sameRates(a, readRates(probeReply({ rounding_rule: 'whole_dollar' }))!)).toBe(false);
	});

	it('names the first line or total where a computation and a preview differ', () => {
		const computed = { line_items: [{ code: 'sl_tax', amount: 48.5 }], total_taxes_and_fees: 48.5, total_due: 1048.5 };
		expect(taxDifference(computed, computed)).toBeUndefined();
		expect(taxDifference(computed, { ...computed, line_items: [{ code: 'sl_tax', amount: 48.51 }] })).toBe('sl_tax: computed 48.5, the preview 48.51');
		expect(taxDifference(computed, { ...computed, line_items: [...computed.line_items, { code: 'figa', amount: 10 }] })).toBe('figa: computed none, the preview 10');
		expect(taxDifference(computed, { ...computed, total_due: 1050 })).toBe('total_due: computed 1048.5, the preview 1050');
	});
});
