import { advanceAll } from './clock/advance';
import { ApiError, FieldErrorBag, validationError } from './envelope';
import { setFetch, setFiling } from './invoices/lifecycle';
import { FETCH_STATUSES, FILING_STATUSES, INVOICE_STATUSES, type FetchStatus, type FilingStatus, type InvoiceStatus } from './invoices/types';
import { readFormsConfig } from './invoices/forms';
import { createInvoice } from './invoices/service';
import { invoiceView } from './invoices/view';
import { documentView } from './documents/view';
import { KEYS, accountOf, keyByName } from './keys';
import { Router, type Result } from './router';
import type { World } from './world';

interface ControlCall {
	params: Record<string, string>;
	body: Record<string, unknown>;
	world: World;
}

interface ControlRoute {
	method: string;
	pattern: string;
	handler: (call: ControlCall) => Result;
}

/** Control endpoints answer loopback callers only: they can rewrite any account's data. */
export function isLoopback(address: string | undefined): boolean {
	return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

function oneOf<T extends string>(body: Record<string, unknown>, field: string, allowed: readonly T[], errors: FieldErrorBag): T | undefined {
	const v = body[field];
	if (v === undefined) return undefined;
	if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
	errors.add(field, `Must be one of: ${allowed.join(', ')}`);
	return undefined;
}

function optionalString(body: Record<string, unknown>, field: string, errors: FieldErrorBag): string | null | undefined {
	const v = body[field];
	if (v === undefined || v === null || typeof v === 'string') return v;
	errors.add(field, 'Must be a string or null');
	return undefined;
}

function positiveInteger(v: unknown): boolean {
	return Number.isInteger(v) && (v as number) > 0;
}

function invoiceStatus({ params, body, world }: ControlCall): Result {
	const invoice = world.invoices.getAny(Number(params.id));
	if (!invoice) throw new ApiError('NOT_FOUND', `Invoice ${params.id} not found`);
	const errors = new FieldErrorBag();
	const status = oneOf<InvoiceStatus>(body, 'status', INVOICE_STATUSES, errors);
	const stateStatus = oneOf<FilingStatus>(body, 'state_status', FILING_STATUSES, errors);
	const message = optionalString(body, 'message', errors);
	const confirmation = optionalString(body, 'confirmation_number', errors);
	if (!errors.empty) throw validationError(errors.fields);
	if (status) invoice.status = status;
	if (stateStatus) setFiling(invoice, stateStatus, world.now(), { message, confirmation_number: confirmation });
	const owner = KEYS.find((k) => k.account === invoice.account)!;
	return { status: 200, data: invoiceView(invoice, accountOf(owner), world) };
}

function documentFetch({ params, body, world }: ControlCall): Result {
	const found = world.invoices.findDocument(Number(params.id));
	if (!found) throw new ApiError('NOT_FOUND', `Document ${params.id} not found`);
	const errors = new FieldErrorBag();
	const status = oneOf<FetchStatus>(body, 'fetch_status', FETCH_STATUSES, errors);
	if (!status && !errors.has('fetch_status')) errors.add('fetch_status', 'This field is required');
	if (body.file_size !== undefined && !(Number.isInteger(body.file_size) && (body.file_size as number) >= 0))
		errors.add('file_size', 'Must be a non-negative integer');
	const mime = optionalString(body, 'mime_type', errors);
	if (!errors.empty || !status) throw validationError(errors.fields);
	setFetch(found.doc, status, { file_size: body.file_size as number | undefined, mime_type: mime ?? undefined });
	return { status: 200, data: documentView(found.doc, world.links) };
}

function rateLimit({ body, world }: ControlCall): Result {
	const errors = new FieldErrorBag();
	if (body.window_seconds !== undefined && !positiveInteger(body.window_seconds)) errors.add('window_seconds', 'Must be a positive integer');
	const limits = (body.limits ?? {}) as Record<string, unknown>;
	for (const [tier, value] of Object.entries(limits))
		if (!['t1', 't2', 't3'].includes(tier) || !positiveInteger(value)) errors.add(`limits.${tier}`, 'Must be a positive integer for t1, t2 or t3');
	if (!errors.empty) throw validationError(errors.fields);
	world.rateLimiter.configure(body.window_seconds as number | undefined, limits as Record<string, number>);
	return { status: 200, data: { window_seconds: world.rateLimiter.windowSeconds, limits: world.rateLimiter.limits } };
}

/** `{rate_offset: {TX: 0.5}}`: the calculator's percentage rates in TX half a point up ({} ends it). */
function calculatorSkew({ body, world }: ControlCall): Result {
	const offsets = (body.rate_offset ?? {}) as Record<string, unknown>;
	const errors = new FieldErrorBag();
	for (const [state, offset] of Object.entries(offsets))
		if (!world.state(state) || typeof offset !== 'number' || !Number.isFinite(offset)) errors.add(`rate_offset.${state}`, 'Must be a state code with a number');
	if (!errors.empty) throw validationError(errors.fields);
	world.calculatorSkew = new Map(Object.entries(offsets).map(([state, offset]) => [state.toUpperCase(), offset as number]));
	return { status: 200, data: { rate_offset: Object.fromEntries(world.calculatorSkew) } };
}

/** The most invoices one seed call stores (an account's book of 100,000 in one call). */
const MOST_SEEDED = 200_000;

/**
 * `{count, key?, prefix?}`: an account's book, `count` invoices stored at once (the account of the
 * key named, t3's by default) on policies `<prefix>-0`, `<prefix>-1`, … (prefix BOOK), one New each,
 * as a create would store them; the ids and clock go on as usual.
 */
function seed({ body, world }: ControlCall): Result {
	const errors = new FieldErrorBag();
	if (!positiveInteger(body.count) || (body.count as number) > MOST_SEEDED) errors.add('count', `Must be a positive integer of at most ${MOST_SEEDED}`);
	const keyName = body.key ?? 't3';
	const key = typeof keyName === 'string' ? KEYS.find((k) => k.name === keyName) : undefined;
	if (!key) errors.add('key', 'Must be the name of a key in keys.json');
	const prefix = body.prefix ?? 'BOOK';
	if (typeof prefix !== 'string' || !/^[A-Za-z0-9-]{1,40}$/.test(prefix)) errors.add('prefix', 'Must be 1 to 40 letters, digits or dashes');
	if (!errors.empty) throw validationError(errors.fields);
	const account = accountOf(keyByName(key!.name));
	const count = body.count as number;
	let first: number | undefined;
	for (let i = 0; i < count; i++) {
		const invoice = createInvoice(world, account, {
			policy_number: `${prefix as string}-${i}`,
			insured_name: `Insured ${i}`,
			state_code: 'TX',
			net_premium: 1000 + (i % 5000),
			effective_date: '2025-01-01',
			expiration_date: '2026-01-01',
		});
		first ??= invoice.id;
	}
	return { status: 200, data: { seeded: count, account: account.id, first_id: first } };
}

const routes: ControlRoute[] = [
	{ method: 'POST', pattern: '/seed', handler: seed },
	{ method: 'POST', pattern: '/calculator', handler: calculatorSkew },
	{
		method: 'POST',
		pattern: '/reset',
		handler: ({ world }) => {
			world.reset();
			return { status: 200, data: { reset: true } };
		},
	},
	{ method: 'POST', pattern: '/invoices/:id/status', handler: invoiceStatus },
	{ method: 'POST', pattern: '/documents/:id/fetch', handler: documentFetch },
	{ method: 'POST', pattern: '/rate-limit', handler: rateLimit },
	{ method: 'POST', pattern: '/faults', handler: ({ body, world }) => ({ status: 200, data: world.faults.configure(body) }) },
	{ method: 'GET', pattern: '/faults', handler: ({ world }) => ({ status: 200, data: world.faults.config }) },
	{
		method: 'POST',
		pattern: '/forms',
		handler: ({ body, world }) => {
			world.forms = readFormsConfig(body);
			return { status: 200, data: world.forms };
		},
	},
	{ method: 'GET', pattern: '/forms', handler: ({ world }) => ({ status: 200, data: world.forms }) },
	{
		method: 'POST',
		pattern: '/advance',
		handler: ({ world }) => {
			advanceAll(world);
			return { status: 200, data: { advanced: true } };
		},
	},
];

export const controlRouter = new Router<ControlRoute>(routes, '/_sandbox');
export type { ControlCall };
