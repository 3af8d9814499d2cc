/**
 * The listing's page reader and error over n8n's context (the transport's side of the pager):
 * what reads listings (invoiceList.ts, the look before filing, Reconcile) takes this value and
 * never the node.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from './context';
import { localError } from './errors';
import type { InvoiceSource } from './invoiceList';
import { PATHS } from './service';
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
			return { data: reply.data, serviceTime: reply.serviceTime };
		},
		notEnded: (message, itemIndex) =>
			localError(ctx, 'LISTING_NOT_ENDED', message, { itemIndex, description: message }),
	};
}
