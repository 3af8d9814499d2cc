import type { IExecuteFunctions } from 'n8n-workflow';

import { readErrorInfo, serviceError } from '../shared/errors';

const accepted = (action: string) =>
	`The state accepted this invoice (status success), so it can no longer be ${action}. File an endorsement or cancellation for the policy instead.`;

/** Advice for a 409 on update/delete of an invoice the state accepted (used as the transport's errorHints). */
export const ACCEPTED_HINTS = {
	update: { CONFLICT: accepted('changed') },
	delete: { CONFLICT: accepted('deleted') },
};

/** A 409 on update/delete says in its message that the state accepted the invoice; other errors pass. */
export function explainConflict(
	ctx: IExecuteFunctions,
	error: unknown,
	action: 'changed' | 'deleted',
	itemIndex: number,
): unknown {
	const info = readErrorInfo(error);
	if (info?.httpStatus !== 409) return error;
	return serviceError(
		ctx,
		{
			...info,
			message: `the state accepted this invoice (status success), so it can no longer be ${action} (${info.message})`,
		},
		{ itemIndex, hint: accepted(action) },
	);
}
