import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { pageInvoices } from '../invoiceSource';
import { apiRequest } from '../transport';
import { INVOICE_LIST_MAX_PER_PAGE, LIST_KEYS, PATHS, readList } from '../service';

function invoiceLabel(invoice: IDataObject): string {
	const type = (invoice.type as IDataObject | undefined)?.name ?? '';
	return `#${String(invoice.id)} · ${String(invoice.policy_number ?? '')} · ${String(type)} ${String(invoice.effective_date ?? '')} · ${String(invoice.status ?? '')}`;
}

/**
 * A policy's transactions for the picker, newest first. The list comes oldest first, so when the
 * first page's total says there is more, the last page (and the one before it, when the last is
 * short) is read instead of paging through: at most 3 calls, at least the 100 newest shown.
 */
async function newestInvoices(ctx: ILoadOptionsFunctions, policyNumber: string) {
	const perPage = INVOICE_LIST_MAX_PER_PAGE;
	const first = await pageInvoices(ctx, { policyNumber, maxPages: 1 });
	const total = first.pagination?.total ?? 0;
	let invoices = first.invoices;
	if (total > perPage) {
		const lastPage = Math.ceil(total / perPage);
		const fromPage = Math.max(2, total % perPage === 0 ? lastPage : lastPage - 1);
		const tail = await pageInvoices(ctx, {
			policyNumber,
			firstPage: fromPage,
			maxPages: lastPage - fromPage + 1,
		});
		invoices = fromPage === 2 ? [...invoices, ...tail.invoices] : tail.invoices;
	}
	const byId = new Map(invoices.map((invoice) => [String(invoice.id), invoice]));
	return [...byId.values()].sort((a, b) => Number(b.id) - Number(a.id));
}

/** Searchable resource locators shared by every node. */
export const listSearch = {
	/** Invoices of a policy, newest first: type the policy number. */
	async searchInvoices(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		const policy = (filter ?? '').trim();
		if (!policy) return { results: [] };
		const invoices = await newestInvoices(this, policy);
		return { results: invoices.map((i) => ({ name: invoiceLabel(i), value: String(i.id) })) };
	},

	/** Companies by name or NAIC code, for the service's company id. */
	async searchCompanies(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		const query = (filter ?? '').trim();
		if (!query) return { results: [] };
		const reply = await apiRequest.call(this, {
			method: 'GET',
			path: PATHS.companiesSearch,
			qs: { q: query },
		});
		const companies = readList(reply.data, LIST_KEYS.companies);
		return {
			results: companies.map((c) => ({
				name: `${String(c.name)}${c.naic ? ` (NAIC ${String(c.naic)})` : ''}`,
				value: String(c.id),
			})),
		};
	},
};
