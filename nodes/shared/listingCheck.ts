/**
 * Whether a listing page is the service's invoice list, and whether a listing read whole holds
 * every invoice its first page counted: a reply the package cannot read as the list (another
 * shape, `null`, rows without ids) is an error, never an empty policy, and a listing that ended
 * short of its first page's total is stopped before its end (`cut`), which refuses a filing as a
 * cut listing does. A policy read as empty when it is not would file its rows a second time.
 */
import type { INode } from 'n8n-workflow';

import { serviceError } from './errors';

/** The coded error of a listing page that is not recognisably the invoice list. */
export function notTheInvoiceList(
	ctx: { getNode(): INode },
	problem: string,
	options: { policyNumber?: string; itemIndex?: number },
	requestId?: string,
) {
	const what = options.policyNumber
		? `the listing of policy ${options.policyNumber}`
		: 'the listing of the account’s invoices';
	return serviceError(
		ctx,
		{
			code: 'LISTING_UNREADABLE',
			message: `${what} is not recognisably the service's invoice list: ${problem}`,
			requestId,
		},
		{
			itemIndex: options.itemIndex,
			hint: 'Nothing was decided from it: a row it would decide is refused, not filed. Check the Base URL in the credential (a proxy or another service may have answered), then run again.',
		},
	);
}

/**
 * Why a listing that ended holds fewer invoices than its first page's total (undefined when it
 * holds them all, or when the caller read from a later page or up to a limit).
 */
export function shortOfTotal(
	read: number,
	firstTotal: number | undefined,
	options: { firstPage?: number; limit?: number },
): string | undefined {
	if (firstTotal === undefined || options.limit !== undefined) return undefined;
	if ((options.firstPage ?? 1) !== 1 || read >= firstTotal) return undefined;
	return `it ended after ${read} distinct invoices although its first page counted ${firstTotal}`;
}
