import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError } from './errors';
import { readText } from './values';

const rawParameters = new WeakMap<object, Map<string, unknown>>();

/**
 * A parameter as saved, an expression as its text: the same for every item, so it is read once
 * per run (see itemParameter for what a getNodeParameter call costs).
 */
export function rawParameter(ctx: IExecuteFunctions, name: string, fallback: unknown): unknown {
	let known = rawParameters.get(ctx);
	if (!known) rawParameters.set(ctx, (known = new Map()));
	if (!known.has(name))
		known.set(name, ctx.getNodeParameter(name, 0, fallback, { rawExpressions: true }));
	return known.get(name);
}

type Fixed = { value: unknown };
const fixedParameters = new WeakMap<object, Map<string, Fixed | null>>();

const isPlain = (value: unknown) =>
	value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value);

/**
 * A setting read for item `itemIndex`. One that holds no expression reads the same for every
 * item, so it is read once per run: n8n's getNodeParameter allocates a few KB a call (it copies
 * and checks the node's parameters), which at 10,000 rows was a third of Create Many's memory.
 * Only plain values are shared between items; anything else is read per item as before.
 */
export function itemParameter<T>(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: T,
): T {
	let known = fixedParameters.get(ctx);
	if (!known) fixedParameters.set(ctx, (known = new Map()));
	let fixed = known.get(name);
	if (fixed === undefined) {
		const raw = rawParameter(ctx, name, fallback);
		const expression = typeof raw === 'string' && raw.startsWith('=');
		fixed =
			expression || !isPlain(raw)
				? null
				: { value: ctx.getNodeParameter(name, itemIndex, fallback) };
		known.set(name, fixed);
	}
	return (fixed ? fixed.value : ctx.getNodeParameter(name, itemIndex, fallback)) as T;
}

const versions = new WeakMap<object, number>();

/** The node's typeVersion (getNode() copies the whole node, parameters included, on every call). */
export function nodeVersion(ctx: IExecuteFunctions): number {
	let version = versions.get(ctx);
	if (version === undefined) versions.set(ctx, (version = ctx.getNode().typeVersion));
	return version;
}

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

// `={{ $json.id }}`, `={{ $json.row.invoice_id }}`: names only, nothing else in the expression.
const ITEM_FIELD = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*)+)\s*\}\}$/;

/**
 * The value an expression that only names a field of the item (`={{ $json.id }}`) gives, read from
 * the item itself: n8n's evaluation of it costs about 0.9 ms an item (n8n 2.41), most of a Get's own
 * time. Only a text or a finite number is taken (what the evaluation gives for it unchanged);
 * anything else, or any other expression, is left to n8n (undefined).
 */
function itemValueAt(ctx: IExecuteFunctions, expression: unknown, itemIndex: number): unknown {
	const path = typeof expression === 'string' ? ITEM_FIELD.exec(expression)?.[1] : undefined;
	if (path === undefined) return undefined;
	let value: unknown = ctx.getInputData()[itemIndex]?.json;
	for (const key of path.slice(1).split('.')) {
		if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key))
			return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
		? value
		: undefined;
}

/** Reads the invoice resource locator (any mode) as the service's numeric id, checked locally. */
export function readInvoiceId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'invoiceId',
): string {
	// Per item only the value is read. The whole locator with extractValue cost a search of the
	// node's properties for its description and a schema check on every item, a quarter of a
	// Get's own time, for nothing: its modes (From Policy, By ID) have no extraction rule, so
	// the value is the id as typed, and the id is checked below.
	const saved = rawParameter(ctx, name, '');
	const isLocator = typeof saved === 'object' && saved !== null && '__rl' in saved;
	const raw =
		itemValueAt(ctx, isLocator ? (saved as { value?: unknown }).value : saved, itemIndex) ??
		(ctx.getNodeParameter(isLocator ? `${name}.value` : name, itemIndex, '', {
			skipValidation: true,
		}) as unknown);
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
