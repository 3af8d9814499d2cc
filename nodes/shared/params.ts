import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError } from './errors';

/** Reads the invoice resource locator (any mode) as the service's numeric id, checked locally. */
export function readInvoiceId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'invoiceId',
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) as unknown;
	const id = String(raw ?? '').trim();
	if (!/^\d+$/.test(id)) {
		throw inputError(
			ctx,
			[`Invoice: must be the service’s invoice ID, a whole number (got "${id}")`],
			{ itemIndex },
		);
	}
	return id;
}

/** The rows the user asked for with `returnAllProperties`: all, or the first "Limit". */
export function applyLimit<T>(ctx: IExecuteFunctions, itemIndex: number, rows: T[]): T[] {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return rows;
	return rows.slice(0, ctx.getNodeParameter('limit', itemIndex, 50) as number);
}
