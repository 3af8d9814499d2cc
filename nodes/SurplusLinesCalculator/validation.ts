import { z } from 'zod';

import {
	CALCULATOR_FEE_CODES,
	FEE_CODES,
	LIMITS,
	MESSAGES,
	STATE_CODES,
	isValidDate,
} from '../shared/rules';

const TAX_CODES = new Set(FEE_CODES.tax);

const feeItem = z.object({
	type: z.string().superRefine((code, ctx) => {
		if (CALCULATOR_FEE_CODES.includes(code)) return;
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: TAX_CODES.has(code)
				? `'${code}' is a tax code; tax codes are for invoices only (the calculator computes taxes itself)`
				: code
					? `'${code}' is not a calculator fee code (policy fee, inspection, broker or pass-through codes only)`
					: MESSAGES.required,
		});
	}),
	// Unlike preview, the calculator takes no returned premium: fees are never negative.
	amount: z
		.number({ invalid_type_error: 'Must be a number', required_error: MESSAGES.required })
		.finite('Must be a number')
		.min(0, 'Must be at least 0'),
});

/** The body of POST /calculator/estimate, with the description's rules. */
export const estimateInput = z.object({
	state: z.enum(STATE_CODES, { errorMap: () => ({ message: MESSAGES.stateCode }) }),
	premium: z
		.number({ invalid_type_error: 'Must be a number', required_error: MESSAGES.required })
		.finite('Must be a number')
		.min(LIMITS.calculatorMinPremium, `Must be at least ${LIMITS.calculatorMinPremium}`),
	policy_fees: z
		.number({ invalid_type_error: 'Must be a number' })
		.finite('Must be a number')
		.min(0, 'Must be at least 0')
		.optional(),
	fees: z
		.array(feeItem)
		.max(LIMITS.calculatorFees, `Must not have more than ${LIMITS.calculatorFees} items`)
		.optional(),
	effective_date: z
		.string()
		.refine((value) => isValidDate(value), `${MESSAGES.date} (YYYY-MM-DD)`)
		.optional(),
});
