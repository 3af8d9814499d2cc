/**
 * The one choice between the account's listing (GET /invoices without a filter) and one listing
 * per policy, for every reader of a sheet's policies: Create and Create Many (the look for rows
 * already filed) and Reconcile Sheet. It weighs both ways by what they cost the run: the calls
 * (the key's hour) and the round trips, counting that either way reads `inFlight` calls at once
 * (the key's budget, concurrency.ts), so 300 policies at 200 in flight take 2 round trips, and
 * an account of 20,000 invoices 1 + 2 (its first page, then 199 pages). The account is read only
 * when it takes fewer calls than the policies and no more round trips, so what the look reads is
 * bounded by the sheet's size: a run of 300 rows never reads a book of 100,000 invoices.
 */
import { INVOICE_LIST_MAX_PER_PAGE } from './service';

/**
 * Below this many policies the account's size is not asked: the one call (and round trip) it
 * costs is not won back.
 */
export const ACCOUNT_READ_FROM_POLICIES = 10;

export interface ListingCosts {
	/** Distinct policies the run reads. */
	policies: number;
	/** The account's invoices, as its first page gave them. */
	accountTotal: number;
	/** Calls in flight at once (the key's budget). */
	inFlight: number;
	/** Calls the run may still spend (the key's window, the run's share); undefined: not known. */
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
	const choice = { accountCalls, policyCalls, accountTrips, policyTrips };
	const account = `the account’s listing (${costs.accountTotal} invoices: ${pages} pages, ${accountTrips + 1} round trips at ${costs.inFlight} at once)`;
	const perPolicy = `one listing per policy (${policyCalls} calls, ${policyTrips} round trips)`;
	if (costs.needsAccount) return { ...choice, how: 'account', why: `Read ${account}: the period needs the whole account.` };
	if (accountCalls >= policyCalls)
		return { ...choice, how: 'policies', why: `Read ${perPolicy}: ${account} takes more calls.` };
	if (accountTrips > policyTrips)
		return { ...choice, how: 'policies', why: `Read ${perPolicy}: ${account} takes longer.` };
	if (costs.callsLeft !== undefined && accountCalls > costs.callsLeft)
		return { ...choice, how: 'policies', why: `Read ${perPolicy}: ${account} takes more calls than the key has left.` };
	return { ...choice, how: 'account', why: `Read ${account}: fewer calls than ${perPolicy}.` };
}
