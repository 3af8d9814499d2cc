/**
 * The one pager for `GET /invoices` (Invoice Get Many, the lost-reply reconciliation, the invoice
 * picker, the trigger). Paging is by offset ((page - 1) × per_page), so per_page stays the same
 * on every page: shrinking it on the last page would re-read rows already read and skip others.
 * A limit is met by trimming what was read.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from './context';
import {
	INVOICE_LIST_MAX_PER_PAGE,
	LIST_KEYS,
	PATHS,
	readList,
	readPagination,
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
	/** Stop after this many calls even if more pages exist. */
	maxPages?: number;
	itemIndex?: number;
	errorHints?: Record<string, string>;
	settings?: Partial<TransportSettings>;
	/** Called just before each request is sent (the trigger numbers its requests). */
	beforeRequest?: (page: number) => void;
	/** Each page as soon as it is read, so a failure on a later page keeps what was read. */
	onPage?: (rows: IDataObject[], page: number, last: boolean) => void;
}

interface InvoicePages {
	invoices: IDataObject[];
	/** Calls spent. */
	calls: number;
	/** `pagination` of the last page read. */
	pagination?: Pagination;
	/** The first page's `meta.timestamp` (the service's clock), and n8n's clock when it came. */
	serviceTime?: string;
	receivedMs?: number;
}

/** Whether a page after `page` exists: the total says so, or (without a total) the page was full. */
function hasMore(page: number, rows: IDataObject[], pagination: Pagination, perPage: number) {
	if (pagination.total !== undefined)
		return rows.length > 0 && page * pagination.perPage < pagination.total;
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
	let pagination: Pagination | undefined;
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
		const rows = readList(reply.data, LIST_KEYS.invoices).filter(
			(row) => row && row.id !== undefined,
		);
		invoices.push(...rows);
		pagination = readPagination(reply.data, { page, perPage });
		const last =
			!hasMore(page, rows, pagination, perPage) ||
			(options.limit !== undefined && invoices.length >= options.limit) ||
			(options.maxPages !== undefined && calls >= options.maxPages);
		options.onPage?.(rows, page, last);
		if (last) break;
	}
	return {
		invoices: options.limit === undefined ? invoices : invoices.slice(0, options.limit),
		calls,
		pagination,
		...first,
	};
}

/** Every invoice (or the first `limit`) of a policy or the account, oldest first. */
export async function listInvoices(
	ctx: ApiContext,
	options: Omit<InvoicePagerOptions, 'firstPage' | 'onPage' | 'beforeRequest'> = {},
): Promise<IDataObject[]> {
	return (await pageInvoices(ctx, options)).invoices;
}
