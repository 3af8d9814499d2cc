/**
 * The one pager for `GET /invoices` (Invoice Get Many, the lost-reply reconciliation, the invoice
 * picker, the trigger). Paging is by offset ((page - 1) × per_page), so per_page stays the same
 * on every page: shrinking it on the last page would re-read rows already read and skip others.
 * A limit is met by trimming what was read. Every listing is bounded (the rule in service.ts):
 * each invoice id is kept once, and the pager stops on a page with nothing new, at the first
 * page's total, at the caller's page budget and at the hard cap; it says why when it stopped
 * before the listing's end.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from './context';
import { localError } from './errors';
import { notTheInvoiceList, shortOfTotal } from './listingCheck';
import {
	INVOICE_LIST_MAX_PAGES,
	INVOICE_LIST_MAX_PER_PAGE,
	INVOICE_LIST_PAGING_RULE,
	PATHS,
	readInvoicePage,
	type Pagination,
} from './service';
import { apiRequest, type TransportSettings } from './transport';
import { clock } from './timing';

interface InvoicePagerOptions {
	/** `policy_number` filter; undefined lists the account (where the service allows it). */
	policyNumber?: string;
	/** Stop once this many invoices were read (the result is trimmed to it); undefined = every page. */
	limit?: number;
	/** First page to read (1 unless told). */
	firstPage?: number;
	/** Stop after this many calls even if more pages exist (a budget: said in `cut`). */
	maxPages?: number;
	itemIndex?: number;
	errorHints?: Record<string, string>;
	settings?: Partial<TransportSettings>;
	/** Called just before each request is sent (the trigger numbers its requests). */
	beforeRequest?: (page: number) => void;
	/**
	 * Each page's invoices not read before, as soon as the page is read, so a failure on a later
	 * page keeps what was read.
	 */
	onPage?: (rows: IDataObject[], page: number, last: boolean) => void;
}

interface InvoicePages {
	invoices: IDataObject[];
	/** Calls spent. */
	calls: number;
	/** `pagination` of the last page read. */
	pagination?: Pagination;
	/** Why the pager stopped before the listing's end ("it reached …"); undefined when it ended. */
	cut?: string;
	/** The first page's `meta.timestamp` (the service's clock), and n8n's clock when it came. */
	serviceTime?: string;
	receivedMs?: number;
}

/**
 * Whether a page after `page` exists: the first page's total says so (a total that grows on
 * later pages is not followed), or (without a total) the page was full.
 */
function hasMore(
	page: number,
	rows: IDataObject[],
	pagination: Pagination,
	perPage: number,
	firstTotal: number | undefined,
) {
	const total = firstTotal ?? pagination.total;
	if (total !== undefined) return rows.length > 0 && page * pagination.perPage < total;
	return rows.length >= perPage;
}

export async function pageInvoices(
	ctx: ApiContext,
	options: InvoicePagerOptions = {},
): Promise<InvoicePages> {
	const perPage = Math.min(
		INVOICE_LIST_MAX_PER_PAGE,
		Math.max(1, options.limit ?? INVOICE_LIST_MAX_PER_PAGE),
	);
	const invoices: IDataObject[] = [];
	const ids = new Set<string>();
	let pagination: Pagination | undefined;
	let firstTotal: number | undefined;
	let cut: string | undefined;
	let calls = 0;
	let first: Pick<InvoicePages, 'serviceTime' | 'receivedMs'> | undefined;
	for (let page = options.firstPage ?? 1; ; page++) {
		const qs: IDataObject = { page, per_page: perPage };
		if (options.policyNumber) qs.policy_number = options.policyNumber;
		options.beforeRequest?.(page);
		calls++;
		const reply = await apiRequest.call(ctx, {
			method: 'GET',
			path: PATHS.invoices,
			qs,
			itemIndex: options.itemIndex,
			errorHints: options.errorHints,
			settings: options.settings,
		});
		first ??= { serviceTime: reply.serviceTime, receivedMs: clock.now() };
		const read = readInvoicePage(reply.data, { page, perPage });
		if ('problem' in read) throw notTheInvoiceList(ctx, read.problem, options, reply.requestId);
		const rows = read.rows;
		const fresh = rows.filter((row) => !ids.has(String(row.id)));
		for (const row of fresh) ids.add(String(row.id));
		invoices.push(...fresh);
		pagination = read.pagination;
		if (calls === 1) firstTotal = pagination.total;
		const ended =
			!hasMore(page, rows, pagination, perPage, firstTotal) ||
			(options.limit !== undefined && invoices.length >= options.limit);
		if (!ended) cut = cutReason(page, fresh.length, calls, options.maxPages);
		else cut = shortOfTotal(invoices.length, firstTotal, options);
		options.onPage?.(fresh, page, ended || cut !== undefined);
		if (ended || cut !== undefined) break;
	}
	return {
		invoices: options.limit === undefined ? invoices : invoices.slice(0, options.limit),
		calls,
		pagination,
		cut,
		...first,
	};
}

/** Why a listing that has more pages stops here; undefined when it goes on. */
function cutReason(page: number, fresh: number, calls: number, maxPages?: number) {
	if (fresh === 0) return `page ${page} added no invoice not read before`;
	if (maxPages !== undefined && calls >= maxPages)
		return `it reached ${calls} pages, the calls this read may spend`;
	if (calls >= INVOICE_LIST_MAX_PAGES)
		return `it reached ${INVOICE_LIST_MAX_PAGES} pages, the most one listing reads`;
	return undefined;
}

/** Words for a listing stopped before its end, for a notice or an error. */
export function describeCut(what: string, pages: InvoicePages): string {
	return `${what}: ${pages.invoices.length} distinct invoices were read in ${pages.calls} calls, then the listing was stopped because ${pages.cut}. ${INVOICE_LIST_PAGING_RULE}`;
}

type WholeListingOptions = Omit<
	InvoicePagerOptions,
	'firstPage' | 'onPage' | 'beforeRequest' | 'maxPages'
>;

/**
 * Every invoice of a policy or the account, oldest first, with the listing's clock, for a
 * decision about a filing: a listing stopped before its end is an error (what was not read may
 * hold the filing).
 */
export async function readWholeListing(
	ctx: ApiContext,
	options: WholeListingOptions = {},
): Promise<InvoicePages> {
	const pages = await pageInvoices(ctx, options);
	if (pages.cut === undefined) return pages;
	const what = options.policyNumber
		? `The transactions of policy ${options.policyNumber} were not all read`
		: 'The account’s invoices were not all read';
	const message = describeCut(what, pages);
	throw localError(ctx, 'LISTING_NOT_ENDED', message, {
		itemIndex: options.itemIndex,
		description: message,
	});
}

/** The invoices of readWholeListing alone. */
export async function listInvoices(
	ctx: ApiContext,
	options: WholeListingOptions = {},
): Promise<IDataObject[]> {
	return (await readWholeListing(ctx, options)).invoices;
}
