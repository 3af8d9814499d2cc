import type { Tier } from './keys';

export const DEFAULT_LIMITS: Readonly<Record<Tier, number>> = { t1: 100, t2: 1000, t3: 5000 };
export const DEFAULT_WINDOW_SECONDS = 3600;

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
}

/**
 * Fixed windows aligned to the epoch: with 3600 s that is the clock hour, so the count restarts
 * at the start of each hour as the description says, whatever minute the first call came in.
 */
export class RateLimiter {
	windowSeconds = DEFAULT_WINDOW_SECONDS;
	limits: Record<Tier, number> = { ...DEFAULT_LIMITS };
	private counters = new Map<string, { windowStart: number; count: number }>();

	hit(key: string, tier: Tier, now: Date): RateDecision {
		const nowSec = now.getTime() / 1000;
		const windowStart = Math.floor(nowSec / this.windowSeconds) * this.windowSeconds;
		const reset = windowStart + this.windowSeconds;
		let counter = this.counters.get(key);
		if (!counter || counter.windowStart !== windowStart) {
			counter = { windowStart, count: 0 };
			this.counters.set(key, counter);
		}
		counter.count += 1;
		const limit = this.limits[tier];
		const allowed = counter.count <= limit;
		const headers: Record<string, string> = {
			'X-RateLimit-Limit': String(limit),
			'X-RateLimit-Remaining': String(Math.max(0, limit - counter.count)),
			'X-RateLimit-Reset': String(reset),
		};
		if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(reset - nowSec)));
		return { allowed, headers };
	}

	/** New settings start every key on a fresh window. */
	configure(windowSeconds: number | undefined, limits: Partial<Record<Tier, number>> | undefined): void {
		if (windowSeconds !== undefined) this.windowSeconds = windowSeconds;
		if (limits) this.limits = { ...this.limits, ...limits };
		this.counters.clear();
	}
}
