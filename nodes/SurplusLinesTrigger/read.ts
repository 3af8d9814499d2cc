import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readErrorInfo } from '../shared/errors';
import { pageInvoices } from '../shared/invoiceList';
import { PATHS } from '../shared/service';
import { apiRequest } from '../shared/transport';

/**
 * A poll never waits for the rate limit: a 429 (or a spent window) fails the call at once and
 * the poll ends with "no events this time"; the next poll tries again.
 */
const POLL_SETTINGS = { maxRateLimitWaitSeconds: 0 };

/** GET /invoices/{id}: the invoice with its documents (and filing on new-features accounts). */
export async function readInvoice(this: IPollFunctions, id: string): Promise<IDataObject> {
	const reply = await apiRequest.call(this, {
		method: 'GET',
		path: PATHS.invoice(id),
		settings: POLL_SETTINGS,
	});
	const invoice = (reply.data ?? {}) as IDataObject;
	return { ...invoice, id: invoice.id ?? Number(id) };
}

/**
 * GET /invoices?policy_number=, page by page (100 a page, the most the service gives), through the
 * shared pager. `onPage` receives each page as soon as it is read, so a failure on a later page
 * keeps what was read; `nextSeq` numbers each request just before it is sent. Returns the calls spent.
 */
export async function readPolicy(
	this: IPollFunctions,
	policyNumber: string,
	nextSeq: () => number,
	onPage: (rows: IDataObject[], seq: number, last: boolean) => void,
): Promise<number> {
	let seq = 0;
	const { calls } = await pageInvoices(this, {
		policyNumber,
		settings: POLL_SETTINGS,
		beforeRequest: () => {
			seq = nextSeq();
		},
		onPage: (rows, _page, last) => onPage(rows, seq, last),
	});
	return calls;
}

export type Outcome = 'missing' | 'transient' | 'fatal';

// A request that could not be sent (TLS, host name) or a non-service page with a 2xx-4xx status
// points at the Base URL: a setting to fix, reported like a refused key (5xx pages stay transient).
const TRANSIENT_CODES = new Set([
	'RATE_LIMIT_EXCEEDED',
	'NETWORK_ERROR',
	'TIMEOUT',
	'INTERNAL_ERROR',
]);

/**
 * What a failed read means for the poll. Transient (429, network, timeout, 5xx): stop, no
 * events this time, try later. Missing (404): this item only. Anything else (key refused,
 * credential wrong): a setting the user must fix.
 */
export function classifyFailure(error: unknown): Outcome {
	const info = readErrorInfo(error);
	if (!info) return 'fatal';
	if (info.httpStatus === 404 || info.code === 'NOT_FOUND') return 'missing';
	if (TRANSIENT_CODES.has(info.code) || info.httpStatus === 408 || (info.httpStatus ?? 0) >= 500)
		return 'transient';
	return 'fatal';
}
