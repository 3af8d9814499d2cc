import type { IDataObject } from 'n8n-workflow';

import { isServiceNotFound } from './readFailure';

const ALREADY_GONE_NOTE =
	'The service answered 404 NOT_FOUND in its own reply: it was already gone (deleted earlier, e.g. by this same delete resent after a lost reply, or not on this key’s account). Nothing was deleted by this call.';

/** Operation description text for a delete that treats 404 as done. */
export const ALREADY_GONE_DESCRIPTION =
	'If the service answers that it is already gone (its own 404 NOT_FOUND), the item comes out with already_gone: true instead of failing, so deleting twice is safe. A mistyped ID also comes out as already gone. A 404 from anything else (a proxy, a wrong Base URL) fails the item: nothing is reported deleted on its strength.';

/**
 * DELETE, where the service's own 404 (its envelope, code NOT_FOUND) means "already gone" and is
 * success: the transport may resend a DELETE after a lost reply, and the resend gets 404 although
 * the first attempt deleted the thing. The transport does not say whether it resent, so every
 * such 404 is read this way; a 404 that is not the service's fails as it came. `send`: the
 * DELETE, as the operation makes it through the transport.
 */
export async function deleteAllowingGone(send: () => Promise<unknown>): Promise<IDataObject> {
	const gone = await send().then(
		() => false,
		(error: unknown) => {
			// Every failure of apiRequest is already a NodeApiError/NodeOperationError: passed on as is.
			if (!isServiceNotFound(error)) return Promise.reject(error);
			return true;
		},
	);
	return gone ? { already_gone: true, note: ALREADY_GONE_NOTE } : {};
}
