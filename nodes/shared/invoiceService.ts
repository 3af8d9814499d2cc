/**
 * The service as the filing core's stages see it: a few calls that take and give values. The
 * transport (transport.ts) is what makes each one (pacing, retries, masking, the error mapper);
 * `invoiceService` is the one place that turns this interface into it, and `startRun` the one
 * place a run's values are taken from n8n's context. Tests give the stages an in-memory service.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { accountInfoOnce } from './account';
import { concurrencyOf, inFlightLimit } from './concurrency';
import { getServiceCredential, type Tier } from './credentials';
import { lastRateLimit } from './rateLimit';
import { newRun, type Run } from './run';
import { PATHS, type AccountInfo } from './service';
import { isToolUse } from './toolUse';
import {
	apiRequest,
	readSettings,
	type ApiReply,
	type ApiRequest,
	type TransportSettings,
} from './transport';

export interface CreateRequest {
	body: IDataObject;
	idempotencyKey?: string;
	/** false: never resent after an unknown outcome; the caller settles it instead. */
	retry?: boolean;
	itemIndex: number;
	errorHints?: Record<string, string>;
}

export interface InvoiceService {
	/** `GET /invoices` with the query given. */
	list(
		qs: IDataObject,
		itemIndex?: number,
		settings?: Partial<TransportSettings>,
	): Promise<ApiReply>;
	/** `POST /invoices`. */
	create(request: CreateRequest): Promise<ApiReply>;
	/** `POST /invoices/batch`, never resent blindly (an account without keys would file twice). */
	createBatch(invoices: IDataObject[], itemIndex: number): Promise<ApiReply>;
	/** `POST /invoices/preview` (changes nothing). */
	preview(body: IDataObject, itemIndex: number): Promise<ApiReply>;
	/** `GET /invoices/{id}`. */
	get(
		id: string | number,
		itemIndex?: number,
		settings?: Partial<TransportSettings>,
	): Promise<ApiReply>;
	/** `PUT /invoices/{id}`. */
	update(id: string | number, body: IDataObject, itemIndex: number): Promise<ApiReply>;
	/** `GET /invoices/{id}/documents`. */
	documents(invoiceId: string | number, itemIndex: number): Promise<ApiReply>;
	/** `POST /calculator/estimate` (changes nothing). */
	estimate(body: IDataObject, itemIndex: number): Promise<ApiReply>;
	/** `GET /companies/search?q=`. */
	searchCompanies(query: string, itemIndex: number): Promise<ApiReply>;
	/** `GET /lobs`. */
	lobs(itemIndex: number): Promise<ApiReply>;
	/** The key's account (`GET /auth/me`), asked at most once per execution and key. */
	me(itemIndex: number): Promise<AccountInfo>;
	/** The Request Options the transport applies to item `itemIndex` (its timeout, its wait). */
	settings(itemIndex: number | undefined): TransportSettings;
	/** The key's tier, and its hourly limit as the service's last reply gave it (rateLimit.ts). */
	keyBudget(itemIndex: number): Promise<{ tier: Tier; limit?: number }>;
	/** How many items may be in flight now (concurrency.ts), asked again as replies arrive. */
	inFlight(most?: number, onlyReads?: boolean): Promise<() => number>;
}

/** The items in flight the key's budget and Request Options → Concurrency allow (concurrency.ts). */
export async function inFlightLimitOf(
	ctx: IExecuteFunctions,
	most?: number,
	onlyReads?: boolean,
): Promise<() => number> {
	const options = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const concurrency = concurrencyOf(options);
	if (concurrency !== undefined) return inFlightLimit(concurrency, undefined);
	const credential = await getServiceCredential(ctx, 0).catch(() => undefined);
	return inFlightLimit(undefined, credential, most, onlyReads);
}

const count = (calls: Map<string, number>, purpose: string) =>
	calls.set(purpose, (calls.get(purpose) ?? 0) + 1);

/** The interface over the transport, for one execution; each call is counted by its purpose. */
export function invoiceService(
	ctx: IExecuteFunctions,
	calls: Map<string, number> = new Map(),
): InvoiceService {
	// The key's account, once per run and key (account.ts).
	const accounts = new Map<string, Promise<AccountInfo>>();
	const request = (purpose: string, req: ApiRequest): Promise<ApiReply> => {
		count(calls, purpose);
		return apiRequest.call(ctx, req) as Promise<ApiReply>;
	};
	return {
		list: (qs, itemIndex, settings) =>
			request('list', { method: 'GET', path: PATHS.invoices, qs, itemIndex, settings }),
		create: ({ body, idempotencyKey, retry, itemIndex, errorHints }) =>
			request('create', {
				method: 'POST',
				path: PATHS.invoices,
				body,
				idempotencyKey,
				retry,
				itemIndex,
				errorHints,
			}),
		createBatch: (invoices, itemIndex) =>
			request('createBatch', {
				method: 'POST',
				path: PATHS.invoiceBatch,
				body: { invoices },
				retry: false,
				itemIndex,
			}),
		preview: (body, itemIndex) =>
			request('preview', {
				method: 'POST',
				path: PATHS.invoicePreview,
				body,
				readOnly: true,
				itemIndex,
			}),
		// A reply about another invoice than the one asked for is refused (transport.ts).
		get: (id, itemIndex, settings) =>
			request('get', {
				method: 'GET',
				path: PATHS.invoice(id),
				invoiceId: id,
				itemIndex,
				settings,
			}),
		update: (id, body, itemIndex) =>
			request('update', {
				method: 'PUT',
				path: PATHS.invoice(id),
				invoiceId: id,
				body,
				itemIndex,
			}),
		documents: (invoiceId, itemIndex) =>
			request('documents', { method: 'GET', path: PATHS.documents(invoiceId), itemIndex }),
		estimate: (body, itemIndex) =>
			request('estimate', {
				method: 'POST',
				path: PATHS.calculatorEstimate,
				body,
				readOnly: true,
				itemIndex,
			}),
		searchCompanies: (query, itemIndex) =>
			request('lookup', {
				method: 'GET',
				path: PATHS.companiesSearch,
				qs: { q: query },
				itemIndex,
			}),
		lobs: (itemIndex) => request('lookup', { method: 'GET', path: PATHS.lobs, itemIndex }),
		me: async (itemIndex) => {
			const { fingerprint } = await getServiceCredential(ctx, itemIndex);
			return await accountInfoOnce(accounts, fingerprint, () =>
				request('me', { method: 'GET', path: PATHS.authMe, itemIndex }),
			);
		},
		settings: (itemIndex) => readSettings(ctx, itemIndex),
		keyBudget: async (itemIndex) => {
			const credential = await getServiceCredential(ctx, itemIndex);
			return { tier: credential.tier, limit: lastRateLimit(credential.fingerprint)?.limit };
		},
		inFlight: async (most, onlyReads) => await inFlightLimitOf(ctx, most, onlyReads),
	};
}

/** The run of an execution: its values read once from n8n's context, its service over the transport. */
export function startRun(ctx: IExecuteFunctions): Run {
	const calls = new Map<string, number>();
	const node = ctx.getNode();
	return newRun({
		node,
		items: ctx.getInputData(),
		service: invoiceService(ctx, calls),
		calls,
		tool: isToolUse(ctx),
		parents: () => {
			try {
				return ctx.getParentNodes?.(node.name, { includeNodeParameters: true }) ?? [];
			} catch {
				return []; // No workflow to look at (a bare call): rows are counted as a sheet's.
			}
		},
		say: (hint) => ctx.addExecutionHints?.(hint),
	});
}
