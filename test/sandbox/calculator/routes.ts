import { centralDate, isValidDate } from '../clock/time';
import { ApiError, FieldErrorBag, validationError } from '../envelope';
import { checkFees } from '../reference/feeTypes';
import { READ, type AuthedCall, type Result, type Route } from '../router';
import { estimate } from './estimate';

const MAX_FEES = 15;
const MIN_PREMIUM = 0.01;

function checkScope(call: AuthedCall): void {
	if (!call.key.calculator) throw new ApiError('FORBIDDEN', 'This API key does not have the calculator scope', { required_scope: 'calculator' });
	if (!call.account.calculatorEnabled)
		throw new ApiError('FORBIDDEN', 'The calculator is not enabled for this account', { account_calculator_enabled: false });
}

function estimateHandler(call: AuthedCall): Result {
	checkScope(call);
	const body = call.body as Record<string, unknown>;
	const errors = new FieldErrorBag();

	const stateCode = body.state;
	if (stateCode === undefined || stateCode === null || stateCode === '') errors.add('state', 'This field is required');
	else if (typeof stateCode !== 'string') errors.add('state', 'Must be a string');
	else if (stateCode.length > 2) errors.add('state', 'Must not exceed 2 characters');
	else if (stateCode.length < 2) errors.add('state', 'Must be at least 2 characters');
	const state = typeof stateCode === 'string' && stateCode.length === 2 ? call.world.state(stateCode) : undefined;
	if (typeof stateCode === 'string' && stateCode.length === 2 && !state) errors.add('state', 'Must be a valid state code');

	const premium = body.premium;
	if (premium === undefined || premium === null) errors.add('premium', 'This field is required');
	else if (typeof premium !== 'number' || !Number.isFinite(premium)) errors.add('premium', 'Must be a number');
	else if (premium < MIN_PREMIUM) errors.add('premium', 'Must be at least 0.01');

	const policyFees = body.policy_fees ?? 0;
	if (typeof policyFees !== 'number' || !Number.isFinite(policyFees)) errors.add('policy_fees', 'Must be a number');
	else if (policyFees < 0) errors.add('policy_fees', 'Must be at least 0');

	const sentFees = body.fees !== undefined && body.fees !== null;
	const fees = checkFees(body.fees, { max: MAX_FEES, allowTaxCodes: false }, (m) => errors.add('fees', m));

	const date = body.effective_date ?? centralDate(call.world.now());
	if (!isValidDate(date)) errors.add('effective_date', 'Must be a valid date');

	if (!errors.empty || !state) throw validationError(errors.fields);
	const skew = call.world.calculatorSkew.get(state.row.code) ?? 0;
	const rates = skew
		? { ...state.rates, items: state.rates.items.map((i) => (i.rate_type === 'percentage' && i.rate ? { ...i, rate: i.rate + skew } : i)) }
		: state.rates;
	return {
		status: 200,
		data: estimate({
			rates,
			state: state.row,
			premium: premium as number,
			policyFees: policyFees as number,
			fees: sentFees ? fees : null,
			effectiveDate: date as string,
			flatCharges: true,
			now: call.world.now(),
		}),
	};
}

export const calculatorRoutes: Route[] = [
	{ method: 'POST', pattern: '/calculator/estimate', handler: estimateHandler, access: { ...READ, action: 'use the calculator' }, body: true },
];
