import { ApiError, validationError } from './envelope';
import { KEYS, KEY_PATTERN, tierAtLeast, type SandboxKey } from './keys';
import type { Access, AuthedCall, Result } from './router';

export type Identity = { ok: true; key: SandboxKey } | { ok: false; error: ApiError };

const unauthorized = (message: string): Identity => ({ ok: false, error: new ApiError('UNAUTHORIZED', message) });

export function lookupKey(value: string): Identity {
	if (!KEY_PATTERN.test(value)) return unauthorized('Invalid API key');
	const key = KEYS.find((k) => k.key === value);
	if (!key) return unauthorized('Invalid API key');
	if (key.revoked) return unauthorized('API key has been revoked');
	return { ok: true, key };
}

/** Who is calling; never throws, because 404/405 and rate-limit headers are decided before auth fails. */
export function identify(authorization: string | undefined): Identity {
	if (!authorization) return unauthorized("Missing Authorization header; send 'Authorization: Bearer <API_KEY>'");
	const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
	if (!m) return unauthorized("Authorization header must be 'Bearer <API_KEY>'");
	return lookupKey(m[1]);
}

export function checkAccess(key: SandboxKey, access: Access): void {
	if (tierAtLeast(key.tier, access.tier)) return;
	const message =
		access.below === 'TIER_REQUIRED'
			? `This operation (${access.action}) requires tier ${access.tier} or higher; this key is ${key.tier}`
			: `This key (tier ${key.tier}) cannot ${access.action}; tier ${access.tier} or higher is required`;
	throw new ApiError(access.below, message, { required_tier: access.tier, key_tier: key.tier });
}

export function me(call: AuthedCall): Result {
	const { key, account } = call;
	const limit = call.world.rateLimiter.limits[key.tier];
	const headers = call.rateHeaders;
	return {
		status: 200,
		data: {
			key_name: key.name,
			tier: key.tier,
			rate_limit: {
				limit,
				remaining: Number(headers['X-RateLimit-Remaining'] ?? limit),
				reset: Number(headers['X-RateLimit-Reset'] ?? 0),
			},
			account: { mode: account.mode, features: [...account.features], calculator_enabled: account.calculatorEnabled },
			scopes: key.calculator ? ['invoices', 'documents', 'calculator'] : ['invoices', 'documents'],
		},
	};
}

export function token(call: AuthedCall): Result {
	const body = call.body as Record<string, unknown>;
	if (typeof body.api_key !== 'string' || body.api_key === '')
		throw validationError({ api_key: ['This field is required'] });
	const checked = lookupKey(body.api_key);
	if (!checked.ok) throw checked.error;
	return { status: 200, data: { valid: true, key_name: checked.key.name, tier: checked.key.tier } };
}
