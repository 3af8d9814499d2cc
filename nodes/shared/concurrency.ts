import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getServiceCredential } from './credentials';
import { callsLeft } from './rateLimit';
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
 * How many items may be in flight: the user's Concurrency when set (the bound it always was);
 * else a quarter of the calls the window has left, at least 25 and at most 200 (or the
 * operation's own most); 25 while the budget is not known. The transport still sends no more
 * calls than the window has left.
 */
export function itemsInFlight(
	left: number | undefined,
	concurrency: number | undefined,
	most = MAX_CONCURRENCY,
): number {
	if (concurrency !== undefined) return concurrency;
	const least = Math.min(DEFAULT_CONCURRENCY, most);
	if (left === undefined) return least;
	return Math.min(most, Math.max(least, Math.floor(left / BUDGET_SHARE)));
}

/** Request Options → Concurrency when the user set it (a whole number from 1), else undefined. */
function readConcurrency(ctx: IExecuteFunctions): number | undefined {
	const options = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	if (options?.concurrency === undefined) return undefined;
	const value = Math.floor(Number(options.concurrency));
	return Number.isFinite(value) && value >= 1 ? value : undefined;
}

/**
 * What the router asks before each item starts: how many items may be in flight now. The answer
 * follows the key's budget as replies arrive, so a run that starts with the budget unknown grows
 * once the first reply tells it, and shrinks as the window drains.
 */
export async function inFlightLimit(
	ctx: IExecuteFunctions,
	most = MAX_CONCURRENCY,
): Promise<() => number> {
	const concurrency = readConcurrency(ctx);
	if (concurrency !== undefined) return () => concurrency;
	// A credential that does not read fails each item on its own, as before; the run starts at 25.
	const fingerprint = await getServiceCredential(ctx, 0).then(
		(credential) => credential.fingerprint,
		() => undefined,
	);
	const left = () => (fingerprint === undefined ? undefined : callsLeft(fingerprint, clock.now()));
	return () => itemsInFlight(left(), undefined, most);
}
