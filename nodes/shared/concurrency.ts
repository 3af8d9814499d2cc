import type { ServiceCredential, Tier } from './credentials';
import { callsLeft } from './rateLimit';
import { HOURLY_CALL_LIMITS } from './rules';
import { clock } from './timing';

/**
 * Items in flight while the key's budget is not known (before the first reply, after a 429) or
 * is tight. n8n spends about 3 ms per item of its own, so 25 in flight hide 50-75 ms of service
 * latency, while at most 25 calls go out on figures another workflow may have made stale.
 */
export const DEFAULT_CONCURRENCY = 25;

/**
 * The most items in flight the budget alone can bring: enough to hide 200 ms and more of service
 * latency behind n8n's own time per item, few enough that one node run holds a bounded number
 * of sockets and pending replies.
 */
export const MAX_CONCURRENCY = 200;

/**
 * At most this share of the window's remaining calls is in flight (a quarter): the figures come
 * from replies, and other workflows or n8n processes using the key spend from the same window
 * meanwhile, so three quarters of what is left stay as margin.
 */
const BUDGET_SHARE = 4;

/**
 * The items a read starts with while the key's budget is not known: the share above of its
 * tier's whole hour (t1 25; t2 and t3 reach the 200 cap). A read that meets a 429 waits at the
 * key's gate and is sent again, nothing stored or lost, so it need not spend a round trip
 * learning the budget before the rest of its items go; an operation that stores keeps 25.
 */
export function readsWhileUnknown(tier: Tier): number {
	return Math.floor(HOURLY_CALL_LIMITS[tier] / BUDGET_SHARE);
}

/**
 * How many items may be in flight: the user's Concurrency when set (the bound it always was);
 * else a quarter of the calls the window has left, at least 25 and at most 200 (or the
 * operation's own most); while the budget is not known, `whileUnknown` (25, or a read's
 * readsWhileUnknown) within the same bounds. The transport still sends no more calls than the
 * window has left, and after a 429 one call goes alone before the rest.
 */
export function itemsInFlight(
	left: number | undefined,
	concurrency: number | undefined,
	most = MAX_CONCURRENCY,
	whileUnknown = DEFAULT_CONCURRENCY,
): number {
	if (concurrency !== undefined) return concurrency;
	const least = Math.min(DEFAULT_CONCURRENCY, most);
	const wanted = left === undefined ? whileUnknown : Math.floor(left / BUDGET_SHARE);
	return Math.min(most, Math.max(least, wanted));
}

/** Request Options → Concurrency when the user set it (a whole number from 1), else undefined. */
export function concurrencyOf(
	requestOptions: { concurrency?: unknown } | undefined,
): number | undefined {
	if (requestOptions?.concurrency === undefined) return undefined;
	const value = Math.floor(Number(requestOptions.concurrency));
	return Number.isFinite(value) && value >= 1 ? value : undefined;
}

/**
 * What the router asks before each item starts: how many items may be in flight now. The answer
 * follows the key's budget as replies arrive, so a run that starts with the budget unknown grows
 * once the first reply tells it, and shrinks as the window drains. `concurrency`: the user's
 * (concurrencyOf); `credential`: the run's, or undefined where it does not read.
 */
export function inFlightLimit(
	concurrency: number | undefined,
	credential: ServiceCredential | undefined,
	most = MAX_CONCURRENCY,
	onlyReads = false,
): () => number {
	if (concurrency !== undefined) return () => concurrency;
	// A credential that does not read fails each item on its own, as before; the run starts at 25.
	if (!credential) return () => itemsInFlight(undefined, undefined, most);
	const whileUnknown = onlyReads ? readsWhileUnknown(credential.tier) : DEFAULT_CONCURRENCY;
	return () =>
		itemsInFlight(callsLeft(credential.fingerprint, clock.now()), undefined, most, whileUnknown);
}
