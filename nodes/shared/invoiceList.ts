/**
 * The one pager for `GET /invoices` (Invoice Get Many, the lost-reply reconciliation, the invoice
 * picker, the trigger, the look before filing, Reconcile). Paging is by offset ((page - 1) ×
 * per_page), so per_page stays the same on every page: shrinking it on the last page would re-read
 * rows already read and skip others. A limit is met by trimming what was read. Every listing is
 * bounded (the rule in service.ts): each invoice id is kept once, and the pager stops on a page
 * with nothing new, at the first page's total, at the caller's page budget and at the hard cap; it
 * says why when it stopped before the listing's end. The pager takes a plain function that reads
 * one page (`ListPage`; invoiceSource.ts, at n8n's edge, makes it from n8n's context), so what
 * reads listings needs no node.
 */
import type { IDataObject } from 'n8n-workflow';

import { shortOfTotal } from './listingCheck';
import {
	INVOICE_LIST_MAX_PAGES,
	INVOICE_LIST_MAX_PER_PAGE,
	INVOICE_LIST_PAGING_RULE,
	LIST_KEYS,
	readList,
	readPagination,
	type Pagination,
} from './service';
import type { TransportSettings } from './transport';
import { clock } from './timing';

export interface PageQuery {
	page: number;
	perPage: number;
	/** `policy_number` filter; undefined lists the account (where the service allows it). */
	policyNumber?: string;
	/** The item the call is made for (its errors name it). */
	itemIndex?: number;
}

/** One page's reply: the envelope's `data` and its `meta.timestamp`. */
export interface PageReply {
	data: unknown;
	serviceTime?: string;
}

/** Reads one page of `GET /invoices`. */
export type ListPage = (query: PageQuery) => Promise<PageReply>;

/** What reads listings for a decision: the page reader, and the error for a listing that did not end. */
export interface InvoiceSource {
	page: ListPage;
	notEnded: (message: string, itemIndex?: number) => Error;
}

export interface InvoicePagerOptions {
	/** `policy_number` filter; undefined lists the account (where the service allows it). */
	policyNumber?: string;
	/** Stop once this many invoices were read (the result is trimmed to it); undefined = every page. */
	limit?: number;
	/** First page to read (1 unless told). */
	firstPage?: number;
	/** Stop after this many calls even if more pages exist (a budget: said in `cut`). */
	maxPages?: number;
	itemIndex?: number;
	/** For the context form of the pager only: the transport's hints and settings. */
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

export interface InvoicePages {
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

/** Reads a listing page after page with `list`, within the bounds above. */
export async function pagesOf(
	list: ListPage,
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
		options.beforeRequest?.(page);
		calls++;
		const reply = await list({
			page,
			perPage,
			policyNumber: options.policyNumber || undefined,
			itemIndex: options.itemIndex,
		});
		first ??= { serviceTime: reply.serviceTime, receivedMs: clock.now() };
		// The page reader (invoiceSource.ts) refused a page that is not recognisably the invoice list.
		const rows = readList(reply.data, LIST_KEYS.invoices);
		const fresh = rows.filter((row) => !ids.has(String(row.id)));
		for (const row of fresh) ids.add(String(row.id));
		invoices.push(...fresh);
		pagination = readPagination(reply.data, { page, perPage });
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

export interface PagesAtOnce {
	/** Each page read, its invoices as the page gave them (those `keep` kept). */
	byPage: Map<number, IDataObject[]>;
	/** Every invoice id read, kept or not. */
	ids: Set<string>;
	calls: number;
	/** The first page that failed (the pages after it may have been read). */
	failed?: { page: number; error: unknown };
	/** Why what was read is not the listing the first page described (it changed meanwhile). */
	changed?: string;
}

/**
 * Pages `from`..`to` of a listing whose first page gave `total`, several at once (at most
 * `inFlight()` in flight, asked again as each page ends): offset paging lets page k be read without
 * pages before it. Each page must give the same total and be full but the last; otherwise the
 * listing changed while it was read (an invoice deleted shifts every later page by one, so a
 * page's first invoice can be missed) and `changed` says so. A failed page stops no page already
 * sent, starts no new one, and is said in `failed`.
 */
export async function pagesAtOnce(
	list: ListPage,
	options: {
		from: number;
		to: number;
		total: number;
		inFlight: () => number;
		policyNumber?: string;
		itemIndex?: number;
		beforeRequest?: (page: number) => void;
		/** The invoices worth keeping (an account of 100,000 read for a sheet's policies keeps theirs). */
		keep?: (invoice: IDataObject) => boolean;
	},
): Promise<PagesAtOnce> {
	const perPage = INVOICE_LIST_MAX_PER_PAGE;
	const result: PagesAtOnce = { byPage: new Map(), ids: new Set(), calls: 0 };
	const running = new Set<Promise<void>>();
	const readPage = async (page: number) => {
		options.beforeRequest?.(page);
		result.calls++;
		try {
			const reply = await list({ page, perPage, policyNumber: options.policyNumber, itemIndex: options.itemIndex });
			const rows = readList(reply.data, LIST_KEYS.invoices).filter((row) => row && row.id !== undefined);
			const { total } = readPagination(reply.data, { page, perPage });
			const expected = Math.min(perPage, options.total - (page - 1) * perPage);
			if (total !== undefined && total !== options.total)
				result.changed ??= `page ${page} gave a total of ${total}, page 1 ${options.total}`;
			else if (rows.length !== expected)
				result.changed ??= `page ${page} gave ${rows.length} invoices where ${expected} were expected`;
			for (const row of rows) result.ids.add(String(row.id));
			result.byPage.set(page, options.keep ? rows.filter(options.keep) : rows);
		} catch (error) {
			if (!result.failed || page < result.failed.page) result.failed = { page, error };
		}
	};
	for (let page = options.from; page <= options.to && !result.failed; page++) {
		while (running.size >= Math.max(1, options.inFlight())) await Promise.race(running);
		if (result.failed) break;
		const reading: Promise<void> = readPage(page).finally(() => running.delete(reading));
		running.add(reading);
	}
	await Promise.all(running);
	return result;
}

/** Words for a listing stopped before its end, for a notice or an error. */
export function describeCut(what: string, pages: InvoicePages): string {
	return `${what}: ${pages.invoices.length} distinct invoices were read in ${pages.calls} calls, then the listing was stopped because ${pages.cut}. ${INVOICE_LIST_PAGING_RULE}`;
}

export type WholeListingOptions = Omit<
	InvoicePagerOptions,
	'firstPage' | 'onPage' | 'beforeRequest' | 'maxPages'
>;

/**
 * Every invoice of a policy or the account, oldest first, with the listing's clock, for a
 * decision about a filing: a listing stopped before its end is an error (what was not read may
 * hold the filing).
 */
export async function wholeListing(
	source: InvoiceSource,
	options: WholeListingOptions = {},
): Promise<InvoicePages> {
	const pages = await pagesOf(source.page, options);
	if (pages.cut === undefined) return pages;
	const what = options.policyNumber
		? `The transactions of policy ${options.policyNumber} were not all read`
		: 'The account’s invoices were not all read';
	throw source.notEnded(describeCut(what, pages), options.itemIndex);
}

/** The error for a listing stopped before its end, as readWholeListing throws it. */
