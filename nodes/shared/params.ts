import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError } from './errors';

/** Reads the invoice resource locator (any mode) as the service's numeric id, checked locally. */
export function readInvoiceId(ctx: IExecuteFunctions, itemIndex: number, name = 'invoiceId'): string {
	const raw = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) as unknown;
	const id = String(raw ?? '').trim();
	if (!/^\d+$/.test(id)) {
		throw inputError(ctx, [`Invoice: must be the service’s invoice ID, a whole number (got "${id}")`], { itemIndex });
	}
	return id;
}
