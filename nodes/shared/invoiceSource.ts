/**
 * n8n's edge of the listings: the page reader (which refuses a page that is not recognisably the
 * invoice list, so nothing is decided from it), the error for a listing that did not end, and the
 * key's budget as the look before filing reads it, over n8n's context. What reads listings
 * (invoiceList.ts, the policy book, Reconcile) takes these values and never the node; the
 * operations, the trigger and the editor's look-ups page through `pageInvoices` here.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from './concurrency';
import type { ApiContext } from './context';
import { getServiceCredential } from './credentials';
import { localError } from './errors';
import { inFlightLimitOf } from './invoiceService';
import {
	pagesOf,
	wholeListing,
	type InvoicePagerOptions,
	type InvoicePages,
	type InvoiceSource,
	type WholeListingOptions,
} from './invoiceList';
import { callsLeft } from './rateLimit';
import { notTheInvoiceList } from './listingCheck';
import { PATHS, readInvoicePage } from './service';
import { clock } from './timing';
import { apiRequest, type TransportSettings } from './transport';

export function invoiceSource(
	ctx: ApiContext,
	options: { errorHints?: Record<string, string>; settings?: Partial<TransportSettings> } = {},
): InvoiceSource {
	return {
		page: async ({ page, perPage, policyNumber, itemIndex }) => {
			const qs: IDataObject = { page, per_page: perPage };
			if (policyNumber) qs.policy_number = policyNumber;
			const reply = await apiRequest.call(ctx, {
				method: 'GET',
				path: PATHS.invoices,
				qs,
				itemIndex,
				errorHints: options.errorHints,
				settings: options.settings,
			});
			const read = readInvoicePage(reply.data, { page, perPage });
			if ('problem' in read)
				throw notTheInvoiceList(ctx, read.problem, { policyNumber, itemIndex }, reply.requestId);
			return { data: reply.data, serviceTime: reply.serviceTime };
		},
		notEnded: (message, itemIndex) =>
			localError(ctx, 'LISTING_NOT_ENDED', message, { itemIndex, description: message }),
	};
}

/** The pager (invoiceList.ts) over n8n's context. */
export async function pageInvoices(
	ctx: ApiContext,
	options: InvoicePagerOptions = {},
): Promise<InvoicePages> {
	return await pagesOf(invoiceSource(ctx, options).page, options);
}

/** Every invoice of a policy or the account, as a decision about a filing reads it (wholeListing). */
export async function readWholeListing(
	ctx: ApiContext,
	options: WholeListingOptions = {},
): Promise<InvoicePages> {
	return await wholeListing(invoiceSource(ctx, options), options);
}

/**
 * The key's budget as the look before filing reads it (policyBook.ts's LookBudget): items in flight
 * (concurrency.ts) and the calls the window has left (rateLimit.ts). Ready at once: until the
 * credential has been read, 25 in flight and the calls left unknown.
 */
export function lookBudget(ctx: IExecuteFunctions): {
	inFlight: () => number;
	callsLeft: () => number | undefined;
} {
	let limit: (() => number) | undefined;
	let fingerprint: string | undefined;
	void inFlightLimitOf(ctx)
		.then((read) => (limit = read))
		.catch(() => undefined);
	void getServiceCredential(ctx, 0)
		.then((credential) => (fingerprint = credential.fingerprint))
		.catch(() => undefined);
	return {
		inFlight: () => limit?.() ?? DEFAULT_CONCURRENCY,
		callsLeft: () => (fingerprint ? callsLeft(fingerprint, clock.now()) : undefined),
	};
}
