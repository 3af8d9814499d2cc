import { readErrorInfo, serviceError } from '../shared/errors';
import type { Run } from '../shared/run';

const accepted = (action: string) =>
	`The state accepted this invoice (status success), so it can no longer be ${action}. File an endorsement or cancellation for the policy instead.`;

/**
 * The one place a 409 on update/delete is explained: the message says the state accepted the
 * invoice and the advice says what to do instead; other errors pass unchanged.
 */
export function explainConflict(
	run: Pick<Run, 'getNode'>,
	error: unknown,
	action: 'changed' | 'deleted',
	itemIndex: number,
): unknown {
	const info = readErrorInfo(error);
	if (info?.httpStatus !== 409) return error;
	return serviceError(
		run,
		{
			...info,
			message: `the state accepted this invoice (status success), so it can no longer be ${action} (${info.message})`,
		},
		{ itemIndex, hint: accepted(action) },
	);
}
