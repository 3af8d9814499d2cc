/**
 * The key's budget as the look before filing reads it (policyBook.ts's LookBudget), made from n8n's
 * context by the operation: items in flight (concurrency.ts) and the calls the window has left
 * (rateLimit.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { inFlightLimit } from './concurrency';
import { getServiceCredential } from './credentials';
import { callsLeft } from './rateLimit';
import { clock } from './timing';

export async function lookBudget(
	ctx: IExecuteFunctions,
): Promise<{ inFlight: () => number; callsLeft: () => number | undefined }> {
	const inFlight = await inFlightLimit(ctx);
	const credential = await getServiceCredential(ctx, 0).catch(() => undefined);
	return {
		inFlight,
		callsLeft: () => (credential ? callsLeft(credential.fingerprint, clock.now()) : undefined),
	};
}
