import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	INVOICE_LIST_MAX_PER_PAGE,
	LIST_KEYS,
	PATHS,
	readList,
	readPagination,
} from '../shared/service';
import { apiRequest } from '../shared/transport';

export interface ListOptions {
	policyNumber?: string;
	/** Stop after this many invoices; undefined = every page. */
	limit?: number;
	itemIndex: number;
	errorHints?: Record<string, string>;
}

/** Reads `GET /invoices` page by page (up to 100 a page) until the list or the limit ends. */
export async function listInvoices(
	ctx: IExecuteFunctions,
	options: ListOptions,
): Promise<IDataObject[]> {
	const invoices: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const wanted =
			options.limit === undefined ? INVOICE_LIST_MAX_PER_PAGE : options.limit - invoices.length;
		const perPage = Math.min(INVOICE_LIST_MAX_PER_PAGE, Math.max(1, wanted));
		const qs: IDataObject = { page, per_page: perPage };
		if (options.policyNumber) qs.policy_number = options.policyNumber;
		const reply = await apiRequest.call(ctx, {
			method: 'GET',
			path: PATHS.invoices,
			qs,
			itemIndex: options.itemIndex,
			errorHints: options.errorHints,
		});
		const rows = readList(reply.data, LIST_KEYS.invoices);
		invoices.push(...rows);
		const pagination = readPagination(reply.data, { page, perPage });
		const seen = (pagination.page - 1) * pagination.perPage + rows.length;
		const noMore =
			rows.length === 0 ||
			rows.length < pagination.perPage ||
			(pagination.total !== undefined && seen >= pagination.total);
		if (noMore || (options.limit !== undefined && invoices.length >= options.limit)) break;
	}
	return options.limit === undefined ? invoices : invoices.slice(0, options.limit);
}
