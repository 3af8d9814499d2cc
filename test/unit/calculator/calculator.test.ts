import nock from 'nock';

import { SurplusLinesCalculator } from '../../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { loadOptions, runNode } from '../../harness/engine';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, TEST_BASE, TEST_KEYS, envelope, failure } from '../../helpers/serviceReplies';

const node = new SurplusLinesCalculator();
const credentials = { apiKey: TEST_KEYS.t2, baseUrl: TEST_BASE };

// A TX reply shaped like the description's calculator result (figures: 4.85% and 0.04% of 10,100).
const TX_RESULT = {
	state: { id: 44, code: 'TX', name: 'Texas' },
	input: { premium: 10000, policy_fees: 100, effective_date: '2025-03-01' },
	tax_base: 10100,
	line_items: [
		{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 4.85, rate_type: 'percentage', amount: 489.85, unrounded_amount: 489.85 },
		{ name: 'Stamping Fee', code: 'stamping_fee', rate: 0.04, rate_type: 'percentage', amount: 4.04, unrounded_amount: 4.04 },
	],
	rounding_rule: 'standard',
	total_taxes_and_fees: 493.89,
	total_due: 10593.89,
	fee_breakdown: null,
	special_notes: null,
	calculated_at: '2026-11-22T12:00:00Z',
	disclaimer: 'Estimate only.',
};

function run(parameters: Record<string, unknown>, extra: { continueOnFail?: boolean; items?: object[] } = {}) {
	return runNode({
		node,
		parameters: { resource: 'tax', operation: 'estimate', state: 'TX', premium: 10000, ...parameters },
		credentials,
		continueOnFail: extra.continueOnFail,
		items: extra.items as never,
	});
}

const fakeClock = useNockSuite();

describe('Estimate: request', () => {
	it('sends state, premium, policy fees and the picked date (date part only); simplified output by default', async () => {
		const scope = nock(TEST_API)
			.post('/calculator/estimate', { state: 'TX', premium: 10000, policy_fees: 100, effective_date: '2025-03-01' })
			.reply(200, envelope(TX_RESULT));
		const { output, error } = await run({ policyFees: 100, effectiveDate: '2025-03-01T00:00:00' });
		expect(error).toBeUndefined();
		expect(output![0].json).toEqual({
			state: 'TX',
			state_name: 'Texas',
			effective_date: '2025-03-01',
			premium: 10000,
			policy_fees: 100,
			tax_base: 10100,
			sl_tax: 489.85,
			stamping_fee: 4.04,
			total_taxes_and_fees: 493.89,
			total_due: 10593.89,
		});
		expect(output![0].pairedItem).toEqual({ item: 0 });
		scope.done();
	});

	it('leaves the date out when empty (the service uses today) and sends itemized fees instead of policy fees', async () => {
		const fees = [
			{ type: 'policy_fee_company', amount: 150 },
			{ type: 'inspection_fee', amount: 75 },
			{ type: 'filing_fee', amount: 25 },
		];
		const scope = nock(TEST_API)
			.post('/calculator/estimate', (body) => JSON.stringify(body) === JSON.stringify({ state: 'CA', premium: 2500.5, fees }))
			.reply(200, envelope({ ...TX_RESULT, state: { id: 5, code: 'CA', name: 'California' } }));
		const { output } = await run({ state: 'ca', premium: 2500.5, feesMode: 'itemized', fees: { fee: fees }, output: 'full' });
		expect(output![0].json.state).toEqual({ id: 5, code: 'CA', name: 'California' });
		expect(output![0].json.disclaimer).toBe('Estimate only.');
		scope.done();
	});

	it('gives one item per line item for spreadsheets, each paired to its input item', async () => {
		nock(TEST_API).post('/calculator/estimate').twice().reply(200, envelope(TX_RESULT));
		const { output } = await run({ output: 'lineItems' }, { items: [{}, {}] });
		expect(output!.map((i) => [i.json.code, i.json.amount, i.pairedItem])).toEqual([
			['sl_tax', 489.85, { item: 0 }],
			['stamping_fee', 4.04, { item: 0 }],
			['sl_tax', 489.85, { item: 1 }],
			['stamping_fee', 4.04, { item: 1 }],
		]);
		expect(output![0].json).toMatchObject({ state: 'TX', tax_base: 10100, rate: 4.85, rate_type: 'percentage', name: 'Surplus Lines Tax' });
	});

	it('is resent after a 500 (it changes nothing): 2 calls', async () => {
		nock(TEST_API)
			.post('/calculator/estimate')
			.reply(500, failure('INTERNAL_ERROR', 'boom'))
			.post('/calculator/estimate')
			.reply(200, envelope(TX_RESULT));
		const { output } = await run({});
		expect(output![0].json.total_due).toBe(10593.89);
		expect(fakeClock().sleeps).toEqual([500]);
	});
});

describe('Estimate: local rules (no call made)', () => {
	it('refuses a tax code with the reason, an unknown code, and more than 15 fees, all at once', async () => {
		const fees = [{ type: 'sl_tax', amount: 10 }, { type: 'bogus', amount: 1 }, ...Array.from({ length: 14 }, () => ({ type: 'broker_fee', amount: 1 }))];
		const { error } = await run({ feesMode: 'itemized', fees: { fee: fees } });
		expect(error!.description!.split('\n')).toEqual([
			'fees: Must not have more than 15 items',
			"fees[0].type: 'sl_tax' is a tax code; tax codes are for invoices only (the calculator computes taxes itself)",
			"fees[1].type: 'bogus' is not a calculator fee code (policy fee, inspection, broker or pass-through codes only)",
			'Fix the item and run again. No call to the service was made.',
		]);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('refuses a negative itemized fee (the calculator takes no returned premium)', async () => {
		const { output } = await run(
			{ feesMode: 'itemized', fees: { fee: [{ type: 'broker_fee', amount: -25 }] } },
			{ continueOnFail: true },
		);
		expect(output![0].json).toMatchObject({ code: 'INVALID_INPUT', fields: ['fees[0].amount: Must be at least 0'] });
	});

	it('refuses a premium below 0.01, an unknown state, negative policy fees and an impossible date', async () => {
		const { output } = await run(
			{ state: 'XX', premium: 0, policyFees: -5, effectiveDate: '2025-02-30' },
			{ continueOnFail: true },
		);
		expect(output![0].json).toMatchObject({
			code: 'INVALID_INPUT',
			fields: [
				'State: "XX" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)',
				'Premium: Must be at least 0.01',
				'Policy Fees: Must be at least 0',
				'Effective Date: Must be a valid date (YYYY-MM-DD)',
			],
		});
	});

	it('accepts DC and the minimum premium', async () => {
		const scope = nock(TEST_API).post('/calculator/estimate', { state: 'DC', premium: 0.01, policy_fees: 0 }).reply(200, envelope(TX_RESULT));
		const { error } = await run({ state: 'DC', premium: 0.01 });
		expect(error).toBeUndefined();
		scope.done();
	});
});

describe('Estimate: 403', () => {
	it('names a missing calculator scope from the service message, and what to ask for (1 call)', async () => {
		nock(TEST_API)
			.post('/calculator/estimate')
			.reply(403, failure('FORBIDDEN', 'This API key does not have the calculator scope', undefined, 'req_403s'));
		const { output } = await run({}, { continueOnFail: true });
		expect(output![0].json).toMatchObject({
			code: 'FORBIDDEN',
			httpStatus: 403,
			requestId: 'req_403s',
			cause: 'missing_scope',
			error: 'This API key may not do this (HTTP 403 FORBIDDEN): This API key does not have the calculator scope',
		});
		expect(String(output![0].json.description)).toContain('Ask the operator to add the calculator scope to this key');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('names an account with the calculator disabled', async () => {
		nock(TEST_API).post('/calculator/estimate').reply(403, failure('FORBIDDEN', 'The calculator is not enabled for this account'));
		const { error } = await run({});
		expect(error!.description).toContain('Ask the operator to enable the calculator for your account');
		expect(error!.context!.surplusLines).toMatchObject({ extra: { cause: 'calculator_disabled' } });
	});

	it('asks GET /auth/me when the message is unclear (2 calls) and tells which', async () => {
		const scope = nock(TEST_API)
			.post('/calculator/estimate')
			.reply(403, failure('FORBIDDEN', 'Forbidden'))
			.get('/auth/me')
			.reply(200, envelope({ key_name: 'k', tier: 't2', account: { mode: 'test', features: [], calculator_enabled: false }, scopes: ['invoices', 'documents', 'calculator'] }));
		const { error } = await run({});
		expect(error!.message).toBe(
			'This API key may not do this (HTTP 403 FORBIDDEN): Forbidden: the calculator is switched off for this key’s account',
		);
		scope.done();
	});

	it('says both causes when even the follow-up cannot tell', async () => {
		nock(TEST_API).post('/calculator/estimate').reply(403, failure('FORBIDDEN', 'Forbidden')).get('/auth/me').reply(500, failure('INTERNAL_ERROR', 'x')).persist();
		const { error } = await run({});
		expect(error!.description).toContain('Ask the operator to check both');
	});
});

describe('dropdowns', () => {
	it('states list 50 states and DC as offered by the service; calculator fee types leave tax codes out', async () => {
		nock(TEST_API)
			.get('/reference/states')
			.reply(200, envelope({ states: [{ id: 44, code: 'TX', name: 'Texas', efile: true }, { id: 1, code: 'AL', name: 'Alabama', efile: false }] }))
			.get('/reference/fee-types')
			.reply(200, envelope({ fee_types: [
				{ code: 'broker_fee', category: 'Broker Fee', accepted_by: ['calculator', 'invoices'], alias_of: null },
				{ code: 'sl_tax', category: 'Tax', accepted_by: ['invoices'], alias_of: null },
				{ code: 'filing_fee', category: 'Pass-through', accepted_by: ['calculator', 'invoices'], alias_of: 'flat_fee' },
			] }));
		const base = { node, parameters: { resource: 'tax', operation: 'estimate' }, credentials };
		expect(await loadOptions({ ...base, kind: 'loadOptions', method: 'getStates' })).toEqual([
			{ name: 'Alabama (AL)', value: 'AL', description: 'No direct electronic filing: prepared for the state’s own process' },
			{ name: 'Texas (TX)', value: 'TX', description: 'Direct electronic filing' },
		]);
		expect(await loadOptions({ ...base, kind: 'loadOptions', method: 'getCalculatorFeeTypes' })).toEqual([
			{ name: 'Broker Fee (broker_fee)', value: 'broker_fee', description: 'Broker Fee' },
			{ name: 'Filing Fee (filing_fee)', value: 'filing_fee', description: 'Pass-through; same as flat_fee (send only one of the two)' },
		]);
	});
});
