import type { IDataObject } from 'n8n-workflow';

export interface RateLimitInfo {
	limit: number;
	remaining: number;
	/** Unix seconds when the window's count restarts. */
	reset: number;
}

function header(headers: IDataObject, name: string): number | undefined {
	const raw = headers[name] ?? headers[name.toLowerCase()];
	const value = Array.isArray(raw) ? raw[0] : raw;
	if (value === undefined || value === null || value === '') return undefined;
	const parsed = Number(value);
	return Number.isFinite(parsed) ? parsed : undefined;
}

export function readRateLimitHeaders(headers: IDataObject): RateLimitInfo | undefined {
	const limit = header(headers, 'x-ratelimit-limit');
	const remaining = header(headers, 'x-ratelimit-remaining');
	const reset = header(headers, 'x-ratelimit-reset');
	if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
	return { limit, remaining, reset };
}

/** Seconds to wait before retrying a 429: `Retry-After`, else until the window resets, else a minute. */
export function retryAfterSeconds(
	headers: IDataObject,
	nowMs: number,
	info?: RateLimitInfo,
): number {
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter !== undefined && retryAfter >= 0) return retryAfter;
	if (info) return Math.max(0, info.reset - Math.floor(nowMs / 1000));
	return 60;
}

/**
 * What a rate-limit failure says about the wait, from the figure that decided it: the window's
 * reset (X-RateLimit-Reset) when the wait runs to it, else the service's Retry-After, which may be
 * shorter than the window. One time only, so the message cannot contradict itself.
 */
export function rateLimitMessage(
	waitSeconds: number,
	why: string,
	info: RateLimitInfo | undefined,
	nowMs: number,
): string {
	const used = `the key has used ${info ? `${info.limit} calls an hour` : 'its hourly limit'}`;
	const wait = Math.ceil(waitSeconds);
	if (info && Math.abs(info.reset * 1000 - nowMs - waitSeconds * 1000) <= 1000) {
		const reset = new Date(info.reset * 1000).toISOString();
		return `${used}; the count restarts at ${reset} (in ${wait} s), ${why}`;
	}
	const asked = info
		? `the service asks to wait ${wait} s before the next call (Retry-After)`
		: `the next call may be made in about ${wait} s`;
	return `${used}; ${asked}, ${why}`;
}

// Last figures seen per key (by fingerprint). Module state lives as long as the n8n process, so
// pacing carries across items and executions that share a key.
const lastSeen = new Map<string, RateLimitInfo>();

export function recordRateLimit(fingerprint: string, info: RateLimitInfo | undefined): void {
	if (info) lastSeen.set(fingerprint, info);
}

export function lastRateLimit(fingerprint: string): RateLimitInfo | undefined {
	return lastSeen.get(fingerprint);
}

/** Counts a call that is about to be made, so parallel items do not all spend the last call. */
export function spendOne(fingerprint: string): void {
	const info = lastSeen.get(fingerprint);
	if (info) lastSeen.set(fingerprint, { ...info, remaining: Math.max(0, info.remaining - 1) });
}

/**
 * Pacing: when the last reply said no calls are left in the window, the next call waits for the
 * reset instead of spending a request on a certain 429. Returns the milliseconds to wait (0: go).
 */
export function waitBeforeCallMs(fingerprint: string, nowMs: number): number {
	const info = lastSeen.get(fingerprint);
	if (!info || info.remaining > 0) return 0;
	const resetMs = info.reset * 1000;
	return resetMs > nowMs ? resetMs - nowMs : 0;
}

export function forgetRateLimits(): void {
	lastSeen.clear();
}
