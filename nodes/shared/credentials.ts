import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { isExecuteContext, type ApiContext } from './context';
import { checkCredentialFields, type Tier } from './credentialRules';
import { localError } from './errors';
import { rememberKey } from './mask';

export { checkApiKey, checkBaseUrl, type Tier } from './credentialRules';

export const CREDENTIAL_TYPE = 'surplusLinesApi';

const TIER_NAMES: Record<Tier, string> = { t1: 'Basic', t2: 'Standard', t3: 'Premium' };

export interface ServiceCredential {
	baseUrl: string;
	tier: Tier;
	/** Short hash of the key: names the key in memory and in idempotency keys without revealing it. */
	fingerprint: string;
}

export function keyFingerprint(apiKey: string): string {
	return createHash('sha256').update(String(apiKey)).digest('hex').slice(0, 16);
}

/** Reads and checks the credential before any call is spent. */
async function readServiceCredential(
	ctx: ApiContext,
	itemIndex?: number,
): Promise<ServiceCredential> {
	const raw = (await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex)) as IDataObject;
	// Before the check: a key refused for its form is still masked wherever a reply echoes it.
	if (typeof raw.apiKey === 'string') rememberKey(raw.apiKey);
	const checked = checkCredentialFields(raw);
	if (!checked.ok) {
		throw localError(ctx, 'INVALID_CREDENTIAL', checked.problem, {
			itemIndex,
			description: 'Check the Surplus Lines API credential. No call was made.',
		});
	}
	return {
		baseUrl: checked.value.baseUrl,
		tier: checked.value.tier,
		fingerprint: keyFingerprint(String(raw.apiKey)),
	};
}

const TIER_ORDER: Tier[] = ['t1', 't2', 't3'];

function tierAllows(has: Tier, needs: Tier): boolean {
	return TIER_ORDER.indexOf(has) >= TIER_ORDER.indexOf(needs);
}

/** Refuses, before any call, an operation the key's tier cannot do. */
export function requireTier(
	ctx: ApiContext,
	credential: ServiceCredential,
	needs: Tier,
	action: string,
	itemIndex?: number,
): void {
	if (tierAllows(credential.tier, needs)) return;
	throw localError(
		ctx,
		'TIER_REQUIRED',
		`${action} needs a ${needs} (${TIER_NAMES[needs]}) key or higher; this credential's key is ${credential.tier} (${TIER_NAMES[credential.tier]})`,
		{ itemIndex, description: 'Ask the operator for a key of the higher tier. No call was made.' },
	);
}

// One read and check per node run: every item and every call of an execution uses the same
// credential. Only action runs: a poll context lives as long as the activation.
const perExecution = new WeakMap<object, Promise<ServiceCredential>>();

/** The credential, read and checked once per execution (a bad one fails each item on its own). */
export async function getServiceCredential(
	ctx: ApiContext,
	itemIndex?: number,
): Promise<ServiceCredential> {
	if (!isExecuteContext(ctx)) return await readServiceCredential(ctx, itemIndex);
	const cached = perExecution.get(ctx);
	if (cached) return await cached.catch(async () => await readServiceCredential(ctx, itemIndex));
	const reading = readServiceCredential(ctx, itemIndex);
	perExecution.set(ctx, reading);
	reading.catch(() => perExecution.delete(ctx));
	return await reading;
}
