import type { IDataObject } from 'n8n-workflow';

import { RATE_LIMIT_WINDOW_SECONDS, readResetSeconds } from './service';

const WINDOW_MS = RATE_LIMIT_WINDOW_SECONDS * 1000;

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

/** The figures of a reply, the reset in Unix seconds whatever form it came in (service.ts). */
export function readRateLimitHeaders(
	headers: IDataObject,
	nowMs: number,
): RateLimitInfo | undefined {
	const limit = header(headers, 'x-ratelimit-limit');
	const remaining = header(headers, 'x-ratelimit-remaining');
	const reset = header(headers, 'x-ratelimit-reset');
	if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
	return { limit, remaining, reset: readResetSeconds(reset, nowMs) };
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date; undefined when neither. */
function retryAfterHeader(headers: IDataObject, nowMs: number): number | undefined {
	const seconds = header(headers, 'retry-after');
	if (seconds !== undefined) return seconds >= 0 ? seconds : undefined;
	const raw = headers['retry-after'] ?? headers['Retry-After'];
	const date = typeof raw === 'string' ? Date.parse(raw) : NaN;
	return Number.isFinite(date) ? Math.max(0, (date - nowMs) / 1000) : undefined;
}

/**
 * Seconds to wait before retrying a 429: `Retry-After`, else until the window resets, else a
 * minute; never more than the window (an hour), nor past a reset the figures give.
 */
export function retryAfterSeconds(
	headers: IDataObject,
	nowMs: number,
	info?: RateLimitInfo,
): number {
	const untilReset =
		info && info.reset * 1000 > nowMs ? (info.reset * 1000 - nowMs) / 1000 : undefined;
	const asked = retryAfterHeader(headers, nowMs) ?? untilReset ?? 60;
	return Math.min(asked, untilReset ?? Infinity, RATE_LIMIT_WINDOW_SECONDS);
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
	// A reset further ahead than the window is read as the window's end (service.ts).
	const resetMs = info && Math.min(info.reset * 1000, nowMs + WINDOW_MS);
	if (resetMs && Math.abs(resetMs - nowMs - waitSeconds * 1000) <= 1000) {
		const reset = new Date(resetMs).toISOString();
		return `${used}; the count restarts at ${reset} (in ${wait} s), ${why}`;
	}
	const asked = info
		? `the service asks to wait ${wait} s before the next call (Retry-After)`
		: `the next call may be made in about ${wait} s`;
	return `${used}; ${asked}, ${why}`;
}

/**
 * One budget per key (by fingerprint), shared by every request of every execution in this n8n
 * process: items run in parallel, and a second workflow may use the same key at the same time.
 * Module state lives as long as the process, so pacing carries across items and executions.
 */
interface KeyBudget {
	/** The freshest figures: the newest window's lowest Remaining (replies arrive out of order). */
	info?: RateLimitInfo;
	/** Calls sent and not answered yet: not counted in `info` as far as we know. */
	inFlight: number;
	/** No call starts before this (ms): a 429's Retry-After holds back every request of the key. */
	gateUntilMs: number;
	/**
	 * One call at a time until a reply that is not a 429 arrives after a 429 (the window may still
	 * be closed), so parallel items do not spend a burst of calls on certain 429s. Not at the
	 * start: a key not heard from yet is far more often fresh than spent, and waiting for one
	 * reply first costs every run a round trip; until the figures are known the router keeps 25
	 * in flight, or a read's first wave (concurrency.ts).
	 */
	probing: boolean;
	/** Requests waiting for an in-flight call to be answered. */
	waiters: Array<() => void>;
}

const budgets = new Map<string, KeyBudget>();

function budgetOf(fingerprint: string): KeyBudget {
	let budget = budgets.get(fingerprint);
	if (!budget) {
		budget = { inFlight: 0, gateUntilMs: 0, probing: false, waiters: [] };
		budgets.set(fingerprint, budget);
	}
	return budget;
}

/** Keeps a reply's figures; a reset more than the window ahead counts as the window's end. */
function recordRateLimit(
	fingerprint: string,
	read: RateLimitInfo | undefined,
	nowMs: number,
): void {
	if (!read) return;
	const info = { ...read, reset: Math.min(read.reset, Math.ceil((nowMs + WINDOW_MS) / 1000)) };
	const budget = budgetOf(fingerprint);
	const known = budget.info;
	if (!known || info.reset > known.reset || info.limit !== known.limit) budget.info = info;
	else if (info.reset === known.reset && info.remaining < known.remaining) budget.info = info;
}

export function lastRateLimit(fingerprint: string): RateLimitInfo | undefined {
	return budgets.get(fingerprint)?.info;
}

/** Calls left in the window the figures describe: after its reset the new window holds the full limit. */
function windowRemaining(info: RateLimitInfo, nowMs: number): number {
	return info.reset * 1000 > nowMs ? info.remaining : info.limit;
}

/**
 * Calls the key's window has left, as the freshest reply said; undefined while not known: no
 * reply with figures yet, or a 429 whose wait has not been followed by a reply.
 */
export function callsLeft(fingerprint: string, nowMs: number): number | undefined {
	const budget = budgets.get(fingerprint);
	if (!budget?.info || budget.probing || budget.gateUntilMs > nowMs) return undefined;
	return windowRemaining(budget.info, nowMs);
}

/** What a request must do before it is sent. */
export type Turn =
	| { go: true }
	/** Wait this long (the window's reset or a 429's Retry-After), then ask again. */
	| { go: false; waitMs: number }
	/** Wait for a call in flight to be answered, then ask again. */
	| { go: false; answered: Promise<void> };

/**
 * Reserves one call of the key's budget, or says what to wait for. A call goes only when the
 * window has calls left that no request in flight may already be spending, so parallel requests
 * never send more calls than Remaining allows (no 429 for a certain refusal, no burst past the
 * window). A `go` must be followed by exactly one `callAnswered`.
 */
export function takeTurn(fingerprint: string, nowMs: number): Turn {
	const budget = budgetOf(fingerprint);
	if (budget.gateUntilMs > nowMs) return { go: false, waitMs: budget.gateUntilMs - nowMs };
	const waitForReply = (): Turn => ({
		go: false,
		answered: new Promise<void>((resolve) => budget.waiters.push(resolve)),
	});
	if (budget.probing && budget.inFlight > 0) return waitForReply();
	const info = budget.info;
	if (info && windowRemaining(info, nowMs) - budget.inFlight <= 0) {
		if (budget.inFlight > 0) return waitForReply();
		if (info.reset * 1000 > nowMs) return { go: false, waitMs: info.reset * 1000 - nowMs };
	}
	budget.inFlight++;
	return { go: true };
}

/**
 * Ends a call reserved by `takeTurn`: records the reply's figures; a 429 closes the gate for
 * every request of the key for `retryAfterMs`. Requests waiting for a reply ask again.
 */
export function callAnswered(
	fingerprint: string,
	nowMs: number,
	outcome: { replied: boolean; info?: RateLimitInfo; retryAfterMs?: number },
): void {
	const budget = budgetOf(fingerprint);
	budget.inFlight = Math.max(0, budget.inFlight - 1);
	recordRateLimit(fingerprint, outcome.info, nowMs);
	if (outcome.retryAfterMs !== undefined) {
		const gate = nowMs + Math.min(outcome.retryAfterMs, WINDOW_MS);
		// A gate closed further ahead than one window from now (an earlier clamp) is brought in.
		budget.gateUntilMs = Math.min(Math.max(budget.gateUntilMs, gate), nowMs + WINDOW_MS);
		budget.probing = true;
	} else if (outcome.replied) {
		budget.probing = false;
	}
	const waiters = budget.waiters.splice(0);
	for (const wake of waiters) wake();
}

export function forgetRateLimits(): void {
	for (const budget of budgets.values()) budget.waiters.splice(0).forEach((wake) => wake());
	budgets.clear();
}
