import { ApiError, validationError } from '../envelope';
import { hasFeature } from '../keys';
import { idempotencyKeyProblem } from '../idempotency';
import { READ, WRITE, type AuthedCall, type Result, type Route } from '../router';
import { preview } from './preview';
import { createInvoice, deleteInvoice, findInvoice, updateInvoice } from './service';
import { inForms } from './forms';
import { invoiceView } from './view';

type Body = Record<string, unknown>;

const MAX_BATCH = 500;
const MAX_PER_PAGE = 100;
const DEFAULT_PER_PAGE = 25;

function idempotencyKey(call: AuthedCall): string | null {
	if (!hasFeature(call.account, 'idempotency')) return null;
	const raw = call.headers['idempotency-key'];
	if (raw === undefined) return null;
	const key = Array.isArray(raw) ? raw.join(',') : raw;
	const problem = idempotencyKeyProblem(key);
	if (problem) throw validationError({ 'Idempotency-Key': [problem] });
	return key;
}

function create(call: AuthedCall): Result {
	const { world, account } = call;
	const body = call.body as Body;
	const key = idempotencyKey(call);
	if (key !== null) {
		const seen = world.idempotency.lookup(account.id, key, body, world.now());
		if (seen.kind === 'conflict')
			throw new ApiError('CONFLICT', 'Idempotency-Key was already used with a different request body', { idempotency_key: key });
		if (seen.kind === 'replay') return { status: seen.status, data: seen.data, headers: { 'Idempotent-Replayed': 'true' } };
	}
	const data = invoiceView(createInvoice(world, account, body), account, world);
	if (key !== null) world.idempotency.remember(account.id, key, body, 201, data, world.now());
	return { status: 201, data };
}

function pageParam(query: URLSearchParams, name: string, fallback: number, max: number): number {
	const raw = query.get(name);
	if (raw === null || raw === '') return fallback;
	const n = Number(raw);
	if (!Number.isInteger(n) || n < 1 || n > max)
		throw validationError({ [name]: [max === Infinity ? 'Must be an integer of at least 1' : `Must be an integer from 1 to ${max}`] });
	return n;
}

function list(call: AuthedCall): Result {
	const page = pageParam(call.query, 'page', 1, Infinity);
	const perPage = pageParam(call.query, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
	const all = call.world.invoices.list(call.account.id, call.query.get('policy_number'));
	const slice = all.slice((page - 1) * perPage, page * perPage);
	return {
		status: 200,
		data: {
			invoices: slice.map((i) => inForms(invoiceView(i, call.account, call.world), call.world.forms)),
			pagination: { page, per_page: perPage, total: all.length },
		},
	};
}

/**
 * One batch item's `idempotency_key` (an assumption: the batch row of docs/assumptions.md): the header's rules and key space, on
 * accounts with the feature; other accounts ignore the field. The key is not part of the invoice,
 * so "the same invoice" compares the item without it, as the header's body does.
 */
function batchItem(call: AuthedCall, raw: Body, index: number): Record<string, unknown> {
	const { world, account } = call;
	const { idempotency_key: rawKey, ...body } = raw;
	let key: string | null = null;
	if (rawKey !== undefined && hasFeature(account, 'idempotency')) {
		const problem = typeof rawKey === 'string' ? idempotencyKeyProblem(rawKey) : 'Must be a string';
		if (problem) throw validationError({ [`invoices[${index}].idempotency_key`]: [problem] });
		key = rawKey as string;
		const seen = world.idempotency.lookup(account.id, key, body, world.now());
		if (seen.kind === 'conflict')
			throw new ApiError('CONFLICT', 'idempotency_key was already used with a different invoice', { idempotency_key: key });
		if (seen.kind === 'replay') return { invoice: seen.data, replayed: true };
	}
	const invoice = invoiceView(createInvoice(world, account, body), account, world);
	// Only a stored item uses up its key: a failed one throws above and leaves it free.
	if (key !== null) world.idempotency.remember(account.id, key, body, 201, invoice, world.now());
	return { invoice };
}

function batch(call: AuthedCall): Result {
	const invoices = (call.body as Body).invoices;
	if (!Array.isArray(invoices) || invoices.length === 0 || invoices.length > MAX_BATCH)
		throw validationError({ invoices: [`Must be an array of 1 to ${MAX_BATCH} invoices`] });
	// Each item stands alone: one bad item does not stop the others.
	const results = invoices.map((item: unknown, index) => {
		try {
			if (typeof item !== 'object' || item === null || Array.isArray(item))
				throw validationError({ [`invoices[${index}]`]: ['Must be an object'] });
			return { index, success: true, ...batchItem(call, item as Body, index) };
		} catch (e) {
			if (!(e instanceof ApiError)) throw e;
			return { index, success: false, error: e.toBody() };
		}
	});
	// `created` counts invoices stored by this call: a replayed item stored nothing.
	const created = results.filter((r) => r.success && !('replayed' in r)).length;
	const failed = results.filter((r) => !r.success).length;
	return { status: 200, data: { results, created, failed } };
}

export const invoiceRoutes: Route[] = [
	{ method: 'GET', pattern: '/invoices', handler: list, access: READ, body: false },
	{ method: 'POST', pattern: '/invoices', handler: create, access: WRITE('create invoices'), body: true },
	{
		method: 'POST',
		pattern: '/invoices/preview',
		handler: (call) => ({ status: 200, data: preview(call.world, call.account, call.body as Body) }),
		access: { tier: 't1', below: 'FORBIDDEN', action: 'preview invoices' },
		body: true,
	},
	{
		method: 'POST',
		pattern: '/invoices/batch',
		handler: batch,
		access: { tier: 't3', below: 'TIER_REQUIRED', action: 'POST /invoices/batch' },
		body: true,
	},
	{
		method: 'GET',
		pattern: '/invoices/:id',
		handler: (call) => ({ status: 200, data: inForms(invoiceView(findInvoice(call.world, call.account, call.params.id), call.account, call.world), call.world.forms) }),
		access: READ,
		body: false,
	},
	{
		method: 'PUT',
		pattern: '/invoices/:id',
		handler: (call) => {
			const invoice = findInvoice(call.world, call.account, call.params.id);
			const updated = updateInvoice(call.world, call.account, invoice, call.body as Body);
			return { status: 200, data: invoiceView(updated, call.account, call.world) };
		},
		access: WRITE('update invoices'),
		body: true,
	},
	{
		method: 'DELETE',
		pattern: '/invoices/:id',
		handler: (call) => {
			deleteInvoice(call.world, findInvoice(call.world, call.account, call.params.id));
			return { status: 204 };
		},
		access: WRITE('delete invoices'),
		body: false,
	},
];
