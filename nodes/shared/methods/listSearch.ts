import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../transport';
import { LIST_KEYS, PATHS, readList } from '../service';

function invoiceLabel(invoice: IDataObject): string {
	const type = (invoice.type as IDataObject | undefined)?.name ?? '';
	return `#${String(invoice.id)} · ${String(invoice.policy_number ?? '')} · ${String(type)} ${String(invoice.effective_date ?? '')} · ${String(invoice.status ?? '')}`;
}

/** Searchable resource locators shared by every node. */
export const listSearch = {
	/** Invoices of a policy: type the policy number. */
	async searchInvoices(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		const policy = (filter ?? '').trim();
		if (!policy) return { results: [] };
		const reply = await apiRequest.call(this, {
			method: 'GET',
			path: PATHS.invoices,
			qs: { policy_number: policy, per_page: 100 },
		});
		const invoices = readList(reply.data, LIST_KEYS.invoices);
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
