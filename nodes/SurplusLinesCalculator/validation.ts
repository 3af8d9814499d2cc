import { z } from 'zod';

import { CALCULATOR_FEE_CODES, FEE_CODES, LIMITS, MESSAGES, isValidDate } from '../shared/rules';
import { readAmount, readStateCode, readText, readWith } from '../shared/values';

const TAX_CODES = new Set(FEE_CODES.tax);

// Amounts go through the shared reader, as in the Invoice node: "1200.5" and "$1,234.50" are read,
// "0x10" is refused.
const amount = (required: boolean) => readWith(z, readAmount, required);

const feeItem = z.object({
	type: readWith(z, readText, true).pipe(
		z.string().superRefine((code, ctx) => {
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
	),
	// Unlike preview, the calculator takes no returned premium: fees are never negative.
	amount: amount(true).pipe(z.number().min(0, 'Must be at least 0')),
});

/** The body of POST /calculator/estimate, with the description's rules. */
export const estimateInput = z.object({
	state: readWith(z, readStateCode, true),
	premium: amount(true).pipe(
		z.number().min(LIMITS.calculatorMinPremium, `Must be at least ${LIMITS.calculatorMinPremium}`),
	),
	policy_fees: amount(false).pipe(z.number().min(0, 'Must be at least 0').optional()),
	fees: z
		.array(feeItem)
		.max(LIMITS.calculatorFees, `Must not have more than ${LIMITS.calculatorFees} items`)
		.optional(),
	effective_date: z
		.string()
		.refine((value) => isValidDate(value), `${MESSAGES.date} (YYYY-MM-DD)`)
		.optional(),
});
