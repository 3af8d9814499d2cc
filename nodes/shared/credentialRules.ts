/**
 * The rules a Surplus Lines API credential must meet, in one place: the nodes check them before
 * any call (credentials.ts) and the credential's own `authenticate` checks them before the key is
 * put on any request, the credential test's included. A credential that passes the test therefore
 * works in the nodes, and one the nodes refuse fails the test without the key being sent.
 *
 * Pure functions only: the credential class loads this file, so it imports nothing but the
 * service's assumptions.
 */
import { API_VERSION_SEGMENT } from './service';

export type Tier = 't1' | 't2' | 't3';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

const BASE_URL_FORM = 'enter it as https://host/api/v1';

/** Why an address cannot be read, without repeating any of it. */
function unreadableUrl(text: string): string {
	if (/\s/.test(text)) return 'it contains a space';
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return 'it does not start with https://';
	return 'its host part cannot be read';
}

/**
 * Trailing slashes off, `/api/v1` added when missing; plain http only for a loopback sandbox. A
 * query, fragment or user/password part is refused: the nodes append paths to the base URL, so
 * `?x=1` or `#part` would swallow every path and turn each call into a call to the base address.
 */
export function checkBaseUrl(raw: string): Checked<string> {
	const trimmed = String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!trimmed)
		return { ok: false, problem: 'Base URL is empty: enter the service address ending in /api/v1' };
	// No problem repeats the address: it may hold a user:password or a token.
	let url: URL;
	try {
		url = new URL(trimmed);
	} catch {
		return {
			ok: false,
			problem: `Base URL is not a valid URL: ${unreadableUrl(trimmed)}; ${BASE_URL_FORM}`,
		};
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		// "user:password@host" reads as the scheme "user:": only a scheme followed by // is named.
		const scheme = trimmed.slice(url.protocol.length).startsWith('//')
			? ` (got "${url.protocol}")`
			: '';
		return { ok: false, problem: `Base URL must start with https://${scheme}; ${BASE_URL_FORM}` };
	}
	if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
		return {
			ok: false,
			problem:
				'Base URL must use https: the service redirects plain http, and a redirected POST turns into a GET, so an invoice would silently not be sent. Plain http is allowed only for a local sandbox (127.0.0.1 or localhost).',
		};
	}
	// Described without echoing the URL: a user/password part is a secret.
	if (url.username || url.password) {
		return {
			ok: false,
			problem: `Base URL must not carry a user name or password (user:password@host): the service is reached with the API key only; ${BASE_URL_FORM}`,
		};
	}
	if (trimmed.includes('?')) {
		return {
			ok: false,
			problem: `Base URL must not have a query (?…): the nodes add each call's path after the base URL, so a query would hide it; ${BASE_URL_FORM}`,
		};
	}
	if (trimmed.includes('#')) {
		return {
			ok: false,
			problem: `Base URL must not have a fragment (#…): everything after # is never sent, so every call would reach the base address instead; ${BASE_URL_FORM}`,
		};
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

/** Both fields of the credential, Base URL first (the first problem found is the one reported). */
export function checkCredentialFields(fields: {
	baseUrl?: unknown;
	apiKey?: unknown;
}): Checked<{ baseUrl: string; tier: Tier }> {
	const baseUrl = checkBaseUrl(String(fields.baseUrl ?? ''));
	if (!baseUrl.ok) return baseUrl;
	const tier = checkApiKey(String(fields.apiKey ?? ''));
	if (!tier.ok) return tier;
	return { ok: true, value: { baseUrl: baseUrl.value, tier: tier.value } };
}
