import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError } from './errors';
import { readText } from './values';

/**
 * A text parameter, trimmed. An object or a list is refused with the field named instead of being
 * sent as "[object Object]"; a number is taken as its text.
 */
export function readTextParameter(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
	fallback = '',
): string {
	const read = readText(ctx.getNodeParameter(name, itemIndex, fallback));
	if (!read.ok) throw inputError(ctx, [`${label}: ${read.message}`], { itemIndex });
	return (read.value ?? '').trim();
}

/** Reads the invoice resource locator (any mode) as the service's numeric id, checked locally. */
export function readInvoiceId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'invoiceId',
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) as unknown;
	const read = readText(raw);
	const id = read.ok ? (read.value ?? '').trim() : `[${read.message.replace(/^.*not /, '')}]`;
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
