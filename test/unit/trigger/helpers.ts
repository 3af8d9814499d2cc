import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';

import { SurplusLinesTrigger } from '../../../nodes/SurplusLinesTrigger/SurplusLinesTrigger.node';
import { activePoller, pollNode } from '../../harness/engine';

/**
 * The trigger as n8n loads it: n8n's node loader puts its "Poll Times" parameter in front of the
 * properties of every polling node (without it the engine drops `pollTimes` from the parameters).
 */
export class LoadedTrigger extends SurplusLinesTrigger {
	constructor() {
		super();
		this.description = { ...this.description, properties: [...commonPollingParameters, ...this.description.properties] };
	}
}

export const KEY = 'sltax_t2_0123456789abcdefghijklmnopqrstuv';
export const BASE = 'https://sl.example.com';
export const API = `${BASE}/api/v1`;
export const credentials = { apiKey: KEY, baseUrl: BASE };

export const EVERY_5_MINUTES = { item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] };

export function envelope(data: unknown) {
	return { success: true, data, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: 'req_0001', response_time_ms: 3 } };
}

export function failure(code: string, message: string) {
	return { success: false, error: { code, message }, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: 'req_fail', response_time_ms: 2 } };
}

export function rateHeaders(limit = 1000, remaining = 900) {
	return { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': '1795399200' };
}

export function document(id: number, fetchStatus: string, uuid = `doc-${id}`): IDataObject {
	return { id, doc_type: 'declaration_page', file_name: uuid, external_doc_uuid: uuid, fetch_status: fetchStatus, url: null };
}

export function invoice(id: number, over: IDataObject = {}): IDataObject {
	return {
		id,
		policy_number: 'POL-1',
		type: { id: 1, name: 'New' },
		status: 'new',
		filed: false,
		documents: [],
		filing: { state_status: 'not_sent', updated_at: null, confirmation_number: null, submission_number: null, message: null, api_error: null },
		...over,
	};
}

export function filing(stateStatus: string, extra: IDataObject = {}): IDataObject {
	return { state_status: stateStatus, updated_at: null, confirmation_number: null, submission_number: null, message: null, api_error: null, ...extra };
}

/** Replies to GET /invoices/{id} once with the invoice. */
export function serveInvoice(inv: IDataObject, headers = rateHeaders()) {
	return nock(API).get(`/invoices/${String(inv.id)}`).reply(200, envelope(inv), headers);
}

/** Serves GET /invoices/{id} for any id and records which ids each poll read. */
export function serveAny(statusOf: (id: number) => string = () => 'sent', limit = 1000, inv = invoice) {
	const reads: number[] = [];
	nock(API)
		.persist()
		.get(/^\/api\/v1\/invoices\/\d+$/)
		.reply(200, (uri) => {
			const id = Number(uri.split('/').pop());
			reads.push(id);
			return envelope(inv(id, { status: statusOf(id) }));
		}, rateHeaders(limit));
	return {
		reads,
		take() {
			return reads.splice(0, reads.length);
		},
	};
}

export function servePolicy(policy: string, rows: IDataObject[], page = 1, total = rows.length) {
	return nock(API)
		.get('/invoices')
		.query({ policy_number: policy, page: String(page), per_page: '100' })
		.reply(200, envelope({ invoices: rows, pagination: { page, per_page: 100, total } }), rateHeaders());
}

export interface TriggerParams {
	invoiceIds?: string;
	policyNumbers?: string;
	events?: string[];
	statusValues?: string[];
	filingValues?: string[];
	documentValues?: string[];
	options?: IDataObject;
	pollTimes?: IDataObject;
}

/**
 * An active workflow's trigger across polls, as n8n 2.8.4 runs it (see `activePoller`): one
 * Workflow between polls, its static data written to the "database" only when n8n would write it.
 * `staticData` is what the database holds; `restart()` keeps only that.
 */
export function activeTrigger(params: TriggerParams, staticData?: IDataObject) {
	const parameters = {
		events: ['invoiceStatus', 'filingState', 'documentFetchStatus', 'newTransaction'],
		pollTimes: EVERY_5_MINUTES,
		options: {},
		...params,
	};
	const poller = activePoller({ node: new LoadedTrigger(), parameters, credentials, saved: staticData });
	const json = (emitted: INodeExecutionData[][] | null) => (emitted?.[0] ?? []).map((item) => item.json);
	return {
		async poll(mode: 'trigger' | 'manual' = 'trigger') {
			return json(mode === 'manual' ? (await poller.manual()).emitted : await poller.poll());
		},
		/** A poll with other credentials (e.g. a base URL that drops connections). */
		async pollWith(creds: typeof credentials) {
			return json(await poller.poll(creds));
		},
		/** n8n stops and starts again: the activation poll on what the database holds. */
		async restart() {
			return json(await poller.restart());
		},
		/** Runs a poll on a shared static-data object (for polls that overlap). */
		pollShared(shared: IDataObject) {
			return pollNode({ node: new LoadedTrigger(), parameters, credentials, staticData: shared });
		},
		poller,
		/** The node's static data as n8n's database holds it. */
		get staticData() {
			return poller.saved;
		},
	};
}
