import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { API_VERSION_SEGMENT } from './service';
import { isExecuteContext, type ApiContext } from './context';
import { localError } from './errors';

export const CREDENTIAL_TYPE = 'surplusLinesApi';

export type Tier = 't1' | 't2' | 't3';

const TIER_NAMES: Record<Tier, string> = { t1: 'Basic', t2: 'Standard', t3: 'Premium' };

export interface ServiceCredential {
	baseUrl: string;
	tier: Tier;
	/** Short hash of the key: names the key in memory and in idempotency keys without revealing it. */
	fingerprint: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Trailing slashes off, `/api/v1` added when missing; plain http only for a loopback sandbox. */
export function checkBaseUrl(raw: string): Checked<string> {
	const trimmed = String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!trimmed)
		return { ok: false, problem: 'Base URL is empty: enter the service address ending in /api/v1' };
	let url: URL;
	try {
		url = new URL(trimmed);
	} catch {
		return {
			ok: false,
			problem: `Base URL "${trimmed}" is not a valid URL: enter it as https://host/api/v1`,
		};
	}
	if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
		return {
			ok: false,
			problem:
				'Base URL must use https: the service redirects plain http, and a redirected POST turns into a GET, so an invoice would silently not be sent. Plain http is allowed only for a local sandbox (127.0.0.1 or localhost).',
		};
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return { ok: false, problem: `Base URL must start with https:// (got "${url.protocol}")` };
	}
	return {
		ok: true,
		value: trimmed.endsWith(API_VERSION_SEGMENT) ? trimmed : `${trimmed}${API_VERSION_SEGMENT}`,
	};
}

/**
 * Checks the key's form `<prefix>_<t1|t2|t3>_<32 lowercase letters and digits>` and reads its
 * tier. Problems describe what is wrong without repeating any part of the key.
 */
export function checkApiKey(apiKey: string): Checked<Tier> {
	const key = String(apiKey ?? '');
	const expected = 'expected <prefix>_<t1|t2|t3>_<32 lowercase letters and digits>';
	const problem = (text: string): Checked<Tier> => ({ ok: false, problem: text });
	if (!key) return problem('API Key is empty: paste the key the operator issued');
	if (/\s/.test(key))
		return problem(`API Key contains a space or line break (often from copying): ${expected}`);
	const parts = key.split('_');
	if (parts.length < 3) return problem(`API Key does not have the expected form: ${expected}`);
	const secret = parts[parts.length - 1];
	const tier = parts[parts.length - 2];
	const prefix = parts.slice(0, -2).join('_');
	// The description does not limit the prefix; only its tier and secret parts have a form.
	if (!prefix) return problem(`API Key has no prefix before the tier: ${expected}`);
	if (tier !== 't1' && tier !== 't2' && tier !== 't3')
		return problem(`API Key tier must be t1, t2 or t3: ${expected}`);
	if (!/^[a-z0-9]{32}$/.test(secret)) {
		const other = /[^a-z0-9]/.test(secret)
			? ' and characters other than lowercase letters and digits'
			: '';
		return problem(
			`API Key: the part after the tier has ${secret.length} characters${other}; ${expected}`,
		);
	}
	return { ok: true, value: tier };
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
	const baseUrl = checkBaseUrl(String(raw.baseUrl ?? ''));
	const tier = checkApiKey(String(raw.apiKey ?? ''));
	const problem = !baseUrl.ok ? baseUrl.problem : !tier.ok ? tier.problem : undefined;
	if (problem || !baseUrl.ok || !tier.ok) {
		throw localError(ctx, 'INVALID_CREDENTIAL', problem ?? 'Invalid credential', {
			itemIndex,
			description: 'Check the Surplus Lines API credential. No call was made.',
		});
	}
	return {
		baseUrl: baseUrl.value,
		tier: tier.value,
		fingerprint: keyFingerprint(String(raw.apiKey)),
	};
}

const TIER_ORDER: Tier[] = ['t1', 't2', 't3'];

export function tierAllows(has: Tier, needs: Tier): boolean {
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
