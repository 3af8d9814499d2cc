/**
 * The Calculator node in n8n's engine against the local sandbox. Expected figures are worked by hand
 * from test/sandbox/data/sl-rates.json (the file the sandbox reads), so a wrong rate, base or rounding
 * shows up here.
 */
import { SurplusLinesCalculator } from '../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { loadOptions, runNode } from '../harness/engine';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const node = new SurplusLinesCalculator();
const sb = useSandboxSuite();

function run(parameters: Record<string, unknown>, key = 't2', continueOnFail = false) {
	return runNode({
		node,
		parameters: { resource: 'tax', operation: 'estimate', ...parameters },
		credentials: { apiKey: keyByName(key).key, baseUrl: sb.baseUrl },
		continueOnFail,
	});
}


describe('figures checked by hand against sl-rates.json', () => {
	it('TX 2025-03-01, premium 10,000, policy fees 100 (TX taxes policy fees; standard rounding)', async () => {
		// tax base = 10,000 + 100 = 10,100
		// sl_tax 4.85% × 10,100 = 489.85; stamping_fee 0.04% (from 2024-01-01) × 10,100 = 4.04
		// total 493.89; due = 10,000 + 100 + 493.89 = 10,593.89
		const { output } = await run({ state: 'TX', premium: 10000, policyFees: 100, effectiveDate: '2025-03-01' });
		expect(output![0].json).toEqual({
			state: 'TX', state_name: 'Texas', effective_date: '2025-03-01', premium: 10000, policy_fees: 100,
			tax_base: 10100, sl_tax: 489.85, stamping_fee: 4.04, total_taxes_and_fees: 493.89, total_due: 10593.89,
		});
	});

	it('TX historical 2022-06-01: the stamping fee in force then was 0.075%', async () => {
		// stamping_fee 0.075% × 10,100 = 7.575 → 7.58 (half up); sl_tax 489.85; total 497.43; due 10,597.43
		const { output } = await run({ state: 'TX', premium: 10000, policyFees: 100, effectiveDate: '2022-06-01', output: 'lineItems' });
		expect(output!.map((i) => [i.json.code, i.json.rate, i.json.amount, i.json.unrounded_amount])).toEqual([
			['sl_tax', 4.85, 489.85, 489.85],
			['stamping_fee', 0.075, 7.58, 7.575],
		]);
	});

	it('CA 2024-06-01 itemized: inspection fees are not taxed; whole-dollar rounding', async () => {
		// fees: policy_fee_company 200 (taxed), inspection_fee 100 (CA: not taxed) → tax base 12,345.67 + 200 = 12,545.67
		// sl_tax 3% = 376.3701 → 376; stamping_fee 0.18% (from 2023-01-01) = 22.582206 → 23
		// total 399; due = 12,345.67 + 300 + 399 = 13,044.67
		const { output } = await run({
			state: 'CA', premium: 12345.67, effectiveDate: '2024-06-01', feesMode: 'itemized', output: 'full',
			fees: { fee: [{ type: 'policy_fee_company', amount: 200 }, { type: 'inspection_fee', amount: 100 }] },
		});
		const result = output![0].json;
		expect(result).toMatchObject({ tax_base: 12545.67, rounding_rule: 'whole_dollar', total_taxes_and_fees: 399, total_due: 13044.67 });
		expect((result.line_items as Array<{ code: string; amount: number }>).map((l) => [l.code, l.amount])).toEqual([['sl_tax', 376], ['stamping_fee', 23]]);
		expect(result.fee_breakdown).toEqual({
			policy_fees_taxable: 200, inspection_fees_taxable: 0, broker_fees_taxable: 0,
			non_taxable_fees: 100, total_fees: 300, total_taxable_fees: 200,
		});
	});

	it('FL 2025-05-01 with FIGA, and 2026-11-01 after FIGA ended (rate 0: no line)', async () => {
		// tax base 20,000 + 250 = 20,250. sl_tax 4.94% = 1,000.35; service_fee 0.06% = 12.15; flat_fee 4;
		// figa 1% = 202.50 → total 1,219.00, due 21,469.00. From 2026-10-01 figa is 0: total 1,016.50.
		const before = await run({ state: 'FL', premium: 20000, policyFees: 250, effectiveDate: '2025-05-01' });
		expect(before.output![0].json).toMatchObject({ sl_tax: 1000.35, service_fee: 12.15, flat_fee: 4, figa: 202.5, total_taxes_and_fees: 1219, total_due: 21469 });
		const after = await run({ state: 'FL', premium: 20000, policyFees: 250, effectiveDate: '2026-11-01' });
		expect(after.output![0].json.figa).toBeUndefined();
		expect(after.output![0].json).toMatchObject({ total_taxes_and_fees: 1016.5, total_due: 21266.5 });
	});

	it('PA 2025-01-01: a flat $20 stamping fee beside the 3% tax', async () => {
		// sl_tax 3% × 5,000 = 150; stamping_fee flat 20 → total 170; due 5,170
		const { output } = await run({ state: 'PA', premium: 5000, effectiveDate: '2025-01-01' });
		expect(output![0].json).toMatchObject({ tax_base: 5000, sl_tax: 150, stamping_fee: 20, total_taxes_and_fees: 170, total_due: 5170 });
	});
});

describe('403 from the sandbox', () => {
	it('a key without the calculator scope: says so, and to ask for the scope', async () => {
		const { output } = await run({ state: 'TX', premium: 100 }, 't2-no-calculator', true);
		expect(output![0].json).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403, cause: 'missing_scope' });
		expect(String(output![0].json.requestId)).toMatch(/^req_[0-9a-f]{16}$/);
		expect(String(output![0].json.description)).toContain('Ask the operator to add the calculator scope');
	});

	it('an account with the calculator off: says so, and that another key will not help', async () => {
		const { error } = await run({ state: 'TX', premium: 100 }, 'calculator-off-t2');
		expect(error!.message).toContain('The calculator is not enabled for this account');
		expect(error!.description).toContain('Another key of the same account will not help');
	});
});

it('dropdowns from the sandbox: 51 states, calculator fee codes without tax codes', async () => {
	const base = { node, parameters: { resource: 'tax', operation: 'estimate' }, credentials: { apiKey: keyByName('t1').key, baseUrl: sb.baseUrl } };
	const states = (await loadOptions({ ...base, kind: 'loadOptions', method: 'getStates' })) as Array<{ value: string }>;
	expect(states).toHaveLength(51);
	expect(states.map((s) => s.value)).toContain('DC');
	const fees = (await loadOptions({ ...base, kind: 'loadOptions', method: 'getCalculatorFeeTypes' })) as Array<{ value: string }>;
	expect(fees.map((f) => f.value).sort()).toEqual(
		['acca_dues', 'assessment_fee', 'broker_fee', 'clearinghouse_fee', 'equipment_charge', 'filing_fee', 'fire_marshall_tax', 'fslso_service',
			'inspection_fee', 'other', 'policy_fee_broker', 'policy_fee_company', 'reinstatement_fee', 'technology_fee', 'vehicle_crime_fee'].sort(),
	);
});
