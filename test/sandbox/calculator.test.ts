import { useSandbox, type Row } from './testkit';

// Expected figures are worked by hand from test/sandbox/data/sl-rates.json; each comment shows the arithmetic.
describe('POST /calculator/estimate', () => {
	const kit = useSandbox({ now: () => new Date('2026-03-01T15:00:00Z') });
	const estimate = async (body: Record<string, unknown>, key = 't2') => {
		const res = await kit().api(key).post('/calculator/estimate', body);
		if (res.status === 200) kit().conforms(res, 'POST', '/calculator/estimate');
		return res;
	};
	const lines = (data: Row) => Object.fromEntries((data.line_items as Row[]).map((l) => [l.code, l.amount]));

	it('TX: all fee categories taxed, pass-through not, vehicle_crime_fee zeroed with a warning', async () => {
		const res = await estimate({
			state: 'TX',
			premium: 10000,
			effective_date: '2026-03-01',
			fees: [
				{ type: 'policy_fee_company', amount: 150 },
				{ type: 'inspection_fee', amount: 100 },
				{ type: 'broker_fee', amount: 50 },
				{ type: 'filing_fee', amount: 25 },
				{ type: 'vehicle_crime_fee', amount: 10 },
			],
		});
		expect(res.status).toBe(200);
		const d = res.data.data;
		// base = 10000 + 150 + 100 + 50 = 10300 (filing_fee is pass-through, vehicle_crime_fee zeroed)
		expect(d.tax_base).toBe(10300);
		// sl_tax 4.85% * 10300 = 499.55; stamping (0.04% from 2024-01-01) * 10300 = 4.12
		expect(d.line_items).toEqual([
			{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 4.85, rate_type: 'percentage', amount: 499.55, unrounded_amount: 499.55 },
			{ name: 'Stamping Fee', code: 'stamping_fee', rate: 0.04, rate_type: 'percentage', amount: 4.12, unrounded_amount: 4.12 },
		]);
		expect(d.total_taxes_and_fees).toBe(503.67); // 499.55 + 4.12
		expect(d.total_due).toBe(10828.67); // 10000 + fees 325 + 503.67
		expect(d.fee_breakdown).toEqual({
			policy_fees_taxable: 150,
			inspection_fees_taxable: 100,
			broker_fees_taxable: 50,
			non_taxable_fees: 25,
			total_fees: 325,
			total_taxable_fees: 300,
		});
		expect(d.warnings).toEqual([expect.stringContaining('vehicle_crime_fee does not apply to Texas')]);
		expect(d.rounding_rule).toBe('standard');
		expect(d.disclaimer).toMatch(/Estimate/);
		expect(d.state).toEqual({ id: 44, code: 'TX', name: 'Texas' });
	});

	it('TX dated stamping fee: 0.075% in 2023, none before 2021-01-01', async () => {
		// 2023-06-01: sl 4.85% * 10000 = 485.00; stamping 0.075% * 10000 = 7.50
		expect(lines((await estimate({ state: 'TX', premium: 10000, effective_date: '2023-06-01' })).data.data)).toEqual({ sl_tax: 485, stamping_fee: 7.5 });
		// 2020-12-31: the earliest stamping item starts 2021-01-01, so only the tax applies
		expect(lines((await estimate({ state: 'TX', premium: 10000, effective_date: '2020-12-31' })).data.data)).toEqual({ sl_tax: 485 });
	});

	it('standard rounding takes a true half cent up, whatever the float noise', async () => {
		// TX 2025: sl_tax 4.85% × 10,250 = 497.125 (as a float 497.12499999…) → 497.13;
		// stamping 0.04% × 10,250 = 4.10
		const d = (await estimate({ state: 'TX', premium: 10250, effective_date: '2025-03-01' })).data.data;
		expect(d.line_items[0]).toMatchObject({ code: 'sl_tax', amount: 497.13, unrounded_amount: 497.125 });
		expect(lines(d)).toEqual({ sl_tax: 497.13, stamping_fee: 4.1 });
	});

	it('CA: whole-dollar rounding, inspection fees not taxed', async () => {
		const d = (
			await estimate({
				state: 'CA',
				premium: 12345.67,
				effective_date: '2026-03-01',
				fees: [
					{ type: 'policy_fee_company', amount: 100 },
					{ type: 'inspection_fee', amount: 200 },
				],
			})
		).data.data;
		expect(d.tax_base).toBe(12445.67); // 12345.67 + 100 (inspection excluded)
		expect(d.rounding_rule).toBe('whole_dollar');
		// sl 3% * 12445.67 = 373.3701 -> 373; stamping 0.18% * 12445.67 = 22.402206 -> 22
		expect(d.line_items.map((l: Row) => [l.code, l.amount, l.unrounded_amount])).toEqual([
			['sl_tax', 373, 373.3701],
			['stamping_fee', 22, 22.402206],
		]);
		expect(d.total_taxes_and_fees).toBe(395);
		expect(d.total_due).toBe(13040.67); // 12345.67 + 300 + 395
		expect(d.fee_breakdown.non_taxable_fees).toBe(200);
		// 2022-06-01: stamping 0.25% (from 2020-01-01): 10000 * 0.25% = 25
		expect(lines((await estimate({ state: 'CA', premium: 10000, effective_date: '2022-06-01' })).data.data)).toEqual({ sl_tax: 300, stamping_fee: 25 });
	});

	it('FL: policy_fees in the base, flat EMPA fee, FIGA ends 2026-10-01 (rate 0 = no line)', async () => {
		const d = (await estimate({ state: 'FL', premium: 10000, policy_fees: 100, effective_date: '2026-03-01' })).data.data;
		expect(d.tax_base).toBe(10100);
		// sl 4.94% * 10100 = 498.94; service 0.06% = 6.06; flat $4; figa 1% = 101
		expect(lines(d)).toEqual({ sl_tax: 498.94, service_fee: 6.06, flat_fee: 4, figa: 101 });
		expect(d.total_taxes_and_fees).toBe(610);
		expect(d.total_due).toBe(10710); // 10000 + 100 + 610
		expect(d.fee_breakdown).toBeNull();
		expect(d.input).toEqual({ premium: 10000, policy_fees: 100, effective_date: '2026-03-01' });
		const later = (await estimate({ state: 'FL', premium: 10000, policy_fees: 100, effective_date: '2026-10-01' })).data.data;
		expect(lines(later)).toEqual({ sl_tax: 498.94, service_fee: 6.06, flat_fee: 4 });
		expect(later.total_taxes_and_fees).toBe(509);
	});

	it('NY: cents rounded half-up on the amount', async () => {
		// sl 3.6% * 1234.56 = 44.44416 -> 44.44; stamping 0.15% * 1234.56 = 1.85184 -> 1.85
		const d = (await estimate({ state: 'NY', premium: 1234.56, effective_date: '2026-03-01' })).data.data;
		expect(lines(d)).toEqual({ sl_tax: 44.44, stamping_fee: 1.85 });
		expect(d.total_taxes_and_fees).toBe(46.29);
		// AL before SLIP+ (2025): 6% * 0.75 = 0.045 -> 0.05 (half-up, no float slip to 0.04)
		const al = (await estimate({ state: 'AL', premium: 0.75, effective_date: '2025-06-01' })).data.data;
		expect(al.line_items).toEqual([expect.objectContaining({ code: 'sl_tax', amount: 0.05, unrounded_amount: 0.045 })]);
	});

	it('IL: premium-only base, whole dollars, fire marshal tax, dated stamping', async () => {
		const d = (await estimate({ state: 'IL', premium: 12345, policy_fees: 500, effective_date: '2026-03-01' })).data.data;
		expect(d.tax_base).toBe(12345); // IL taxes no fees
		// sl 3.5% = 432.075 -> 432; stamping 0.04% = 4.938 -> 5; fire marshal 1% = 123.45 -> 123
		expect(lines(d)).toEqual({ sl_tax: 432, stamping_fee: 5, fire_marshal: 123 });
		expect(d.total_taxes_and_fees).toBe(560);
		expect(d.total_due).toBe(13405); // 12345 + 500 + 560
		// 2020-06-01: stamping 0.125% = 15.43125 -> 15
		expect(lines((await estimate({ state: 'IL', premium: 12345, effective_date: '2020-06-01' })).data.data).stamping_fee).toBe(15);
	});

	it('KY: municipal tax left out with a note and a warning', async () => {
		const d = (await estimate({ state: 'KY', premium: 10000, effective_date: '2026-03-01' })).data.data;
		// sl 3% = 300; surcharge 1.8% = 180
		expect(lines(d)).toEqual({ sl_tax: 300, surcharge: 180 });
		expect(d.total_taxes_and_fees).toBe(480);
		expect(d.special_notes).toMatch(/municipal/i);
		expect(d.warnings).toEqual([expect.stringContaining('municipal_tax')]);
	});

	it('PA: flat stamping fee per policy; default date is today (US Central)', async () => {
		const d = (await estimate({ state: 'PA', premium: 1000 })).data.data;
		// sl 3% * 1000 = 30; stamping flat $20 (from 2017-01-01)
		expect(d.line_items.map((l: Row) => [l.code, l.rate_type, l.amount])).toEqual([
			['sl_tax', 'percentage', 30],
			['stamping_fee', 'flat', 20],
		]);
		expect(d.input.effective_date).toBe('2026-03-01');
		expect(d.calculated_at).toBe('2026-03-01T15:00:00.000Z');
	});

	it('422 with details.fields for every rule', async () => {
		const res = await estimate({ state: 'TXX', premium: 0, policy_fees: -1, effective_date: '2026-02-30', fees: [{ type: 'sl_tax', amount: 1 }, { type: 'nope', amount: 1 }] });
		expect(res.status).toBe(422);
		kit().conforms(res, 'POST', '/calculator/estimate');
		expect(res.data.error.code).toBe('VALIDATION_ERROR');
		expect(res.data.error.details.fields).toEqual({
			state: ['Must not exceed 2 characters'],
			premium: ['Must be at least 0.01'],
			policy_fees: ['Must be at least 0'],
			fees: ["fees[0].type 'sl_tax' is a tax code; tax codes are accepted on invoices only", "fees[1].type 'nope' is not a valid fee type"],
			effective_date: ['Must be a valid date'],
		});
		const many = await estimate({ state: 'ZZ', fees: Array.from({ length: 16 }, () => ({ type: 'other', amount: 1 })) });
		expect(many.data.error.details.fields).toEqual({
			state: ['Must be a valid state code'],
			premium: ['This field is required'],
			fees: ['Must not have more than 15 items'],
		});
		const alias = await estimate({ state: 'TX', premium: 1, fees: [{ type: 'fire_marshall_tax', amount: 1 }, { type: 'clearinghouse_fee', amount: 1 }] });
		expect(alias.status).toBe(200); // different pairs; the tax-side twins are refused on the calculator anyway
	});

	it('needs the calculator scope and an account with the calculator on (403 FORBIDDEN)', async () => {
		const noScope = await estimate({ state: 'TX', premium: 1 }, 't2-no-calculator');
		expect([noScope.status, noScope.data.error.code, noScope.data.error.message]).toEqual([403, 'FORBIDDEN', 'This API key does not have the calculator scope']);
		kit().conforms(noScope, 'POST', '/calculator/estimate');
		const off = await estimate({ state: 'TX', premium: 1 }, 'calculator-off-t2');
		expect([off.status, off.data.error.code, off.data.error.message]).toEqual([403, 'FORBIDDEN', 'The calculator is not enabled for this account']);
		expect((await estimate({ state: 'TX', premium: 1 }, 't1')).status).toBe(200);
	});
});
