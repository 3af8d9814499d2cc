/**
 * The one choice between the account's listing (GET /invoices without a filter) and one listing
 * per policy, for every reader of a sheet's policies: Create and Create Many (the look for rows
 * already filed) and Reconcile Sheet. It weighs both ways by the key's budget and by time. Either
 * way reads `inFlight` calls at once (the key's budget, concurrency.ts): 300 policies at 200 in
 * flight take 2 round trips, an account of 20,000 invoices its first page and then 1 (199 pages).
 * The account must take fewer calls (so what it reads is bounded by the sheet: its pages are
 * fewer than the sheet's policies) and no more time, where time counts the round trips (the first
 * page's own, measured) and n8n's work per call and per invoice read: reading 20,000 invoices
 * costs n8n about as much as 400 calls. The account is read anyway when one listing per policy
 * would spend more than a quarter of the calls the key has left (the margin concurrency.ts keeps).
 */
import { INVOICE_LIST_MAX_PER_PAGE } from './service';

/**
 * Below this many policies the account's size is not asked: the one call (and round trip) it
 * costs is not won back.
 */
export const ACCOUNT_READ_FROM_POLICIES = 10;

/**
 * n8n's own time per call (its request helper, the reply read and checked) and per invoice a
 * listing gives (parsed, checked, grouped): measured in n8n 2.41.1 on two busy cores (Create Many
 * reading an account of 100,000 invoices: 2.8-3.5 s of CPU for 1,000 pages; per-item reads about
 * 1.5 ms a call). docs/benchmarks.md gives the figures.
 */
export const MS_PER_CALL = 1.5;
export const MS_PER_INVOICE_READ = 0.03;

/** The share of the key's calls left that one listing per policy may take before the account is read instead. */
const POLICY_CALLS_SHARE = 0.25;

export interface ListingCosts {
	/** Distinct policies the run reads. */
	policies: number;
	/** The account's invoices, as its first page gave them. */
	accountTotal: number;
	/** Calls in flight at once (the key's budget). */
	inFlight: number;
	/** One round trip, as the account's first page took it (0 or undefined: calls alone decide). */
	roundTripMs?: number;
	/** Calls the key's window has left; undefined: not known. */
	callsLeft?: number;
	/** The run needs the whole account (Reconcile with a period: invoices the sheet lacks). */
	needsAccount?: boolean;
}

export interface ListingChoice {
	how: 'account' | 'policies';
	/** Calls each way, the account's first page (already read) not counted. */
	accountCalls: number;
	policyCalls: number;
	/** Round trips each way. */
	accountTrips: number;
	policyTrips: number;
	/** Time each way as estimated (ms). */
	accountMs: number;
	policyMs: number;
	/** Why, in a sentence a summary can carry. */
	why: string;
}

const trips = (calls: number, inFlight: number) => Math.ceil(calls / Math.max(1, inFlight));

/** Whether to ask the account's size (its first page) at all. */
export const asksAccountSize = (policies: number, needsAccount = false): boolean =>
	needsAccount || policies >= ACCOUNT_READ_FROM_POLICIES;

export function chooseListing(costs: ListingCosts): ListingChoice {
	const pages = Math.max(1, Math.ceil(costs.accountTotal / INVOICE_LIST_MAX_PER_PAGE));
	const accountCalls = pages - 1;
	const policyCalls = costs.policies;
	const accountTrips = trips(accountCalls, costs.inFlight);
	const policyTrips = trips(policyCalls, costs.inFlight);
	const rtt = costs.roundTripMs ?? 0;
	const accountMs = Math.round(
		accountTrips * rtt + accountCalls * MS_PER_CALL + costs.accountTotal * MS_PER_INVOICE_READ,
	);
	const policyMs = Math.round(policyTrips * rtt + policyCalls * MS_PER_CALL);
	const choice = { accountCalls, policyCalls, accountTrips, policyTrips, accountMs, policyMs };
	const account = `the account’s listing (${costs.accountTotal} invoices: ${pages} ${pages === 1 ? 'page' : 'pages'}, about ${seconds(accountMs)} after its first page)`;
	const perPolicy = `one listing per policy (${policyCalls} calls, about ${seconds(policyMs)})`;
	const says = (how: ListingChoice['how'], why: string): ListingChoice => ({ ...choice, how, why });
	if (costs.needsAccount) return says('account', `Read ${account}: the period needs the whole account.`);
	if (accountCalls >= policyCalls) return says('policies', `Read ${perPolicy}: ${account} takes more calls.`);
	const left = costs.callsLeft;
	if (left !== undefined && policyCalls > left * POLICY_CALLS_SHARE && accountCalls <= left)
		return says('account', `Read ${account}: ${perPolicy} would take more than a quarter of the ${left} calls the key has left.`);
	if (accountMs > policyMs) return says('policies', `Read ${perPolicy}: ${account} takes longer.`);
	return says('account', `Read ${account}: fewer calls than ${perPolicy}, and no longer.`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
