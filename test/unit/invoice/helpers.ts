import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { withMark } from '../../../nodes/filing/mark';
import { countItems, outcomeSummary } from '../../../nodes/SurplusLinesInvoice/output';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { canonicalInvoice } from '../../../nodes/filing/canonical';
import { deriveIdempotencyKey } from '../../../nodes/filing/idempotency';
import { forgetRateLimits } from '../../../nodes/shared/rateLimit';
import { runNode, shutdownEngine } from '../../harness/engine';
import { useFakeClock } from '../../helpers/fakeClock';

export const KEYS = {
	t1: 'sltax_t1_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
	t2: 'sltax_t2_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
	t3: 'sltax_t3_cccccccccccccccccccccccccccccccc',
};
export const BASE = 'https://sl.example.com';
export const API = `${BASE}/api/v1`;

/** A sheet row in a broker's own headers that files as it is; tests add or change columns. */
export const BASE_ROW: IDataObject = {
	'Policy #': 'P-1',
	'Insured Name': 'Acme',
	State: 'TX',
	'Eff Date': '03/01/2026',
	'Exp Date': '03/01/2027',
	Premium: '500',
};

export const NEW_FEATURES = ['idempotency', 'carrier_lookup', 'lob_name', 'transaction_effective_date', 'filing', 'coverage_warnings'];

export function envelope(data: unknown, requestId = 'req_ok') {
	return { success: true, data, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: requestId, response_time_ms: 3 } };
}

export function failure(code: string, message: string, details?: object, requestId = 'req_fail') {
	return { success: false, error: { code, message, details }, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: requestId, response_time_ms: 2 } };
}

/**
 * A lost reply as a proxy reports it. (nock's replyWithError races under parallel jest workers:
 * the mocked socket sometimes emits before Node attaches its listener. The real ECONNRESET is
 * covered against the sandbox, whose fault injection destroys the socket.)
 */
export const GATEWAY_TIMEOUT = '<html><body>504 Gateway Time-out</body></html>';

/** A request body; typed so nock can match it as a request body too. */
export type Body = IDataObject & nock.DataMatcherMap;

/** A valid request body (the six required fields, and the type the service defaults to). */
export function row(overrides: IDataObject = {}): Body {
	return {
		policy_number: 'POL-100',
		insured_name: 'Acme Roofing LLC',
		state_code: 'TX',
		net_premium: 1200,
		effective_date: '2026-01-01',
		expiration_date: '2027-01-01',
		type_code: 'NEW',
		...overrides,
	} as Body;
}

const TYPE_NAMES: Record<string, string> = { NEW: 'New', RENEWAL: 'Renewal', ENDORSEMENT: 'Endorsement', CANCELLATION: 'Cancelled' };

/** The invoice the service would return for a body as the node sends it (its mark as the invoice number). */
export function invoiceFor(body: IDataObject, id: number, extra: IDataObject = {}): IDataObject {
	const type = String(body.type_code ?? 'NEW');
	return {
		id,
		policy_number: body.policy_number,
		invoice_number: withMark(body, true).invoice_number,
		invoice_date: body.effective_date,
		insured_name: body.insured_name,
		state: { id: 44, code: body.state_code, name: 'Texas' },
		type: { id: 1, name: TYPE_NAMES[type] },
		lob: null,
		net_premium: body.net_premium,
		effective_date: body.effective_date,
		expiration_date: body.expiration_date,
		status: 'new',
		filed: false,
		fees: (body.fees as IDataObject[] | undefined) ?? [],
		warnings: [],
		...extra,
	};
}

/** The key a create derives for a body: from the path and the canonical body, whatever the API key. */
export function derivedKey(body: IDataObject, path = '/invoices') {
	return deriveIdempotencyKey(path, canonicalInvoice(path === '/invoices' ? withMark(body, true) : body));
}

/** A create body as the node sends it: with its mark as the invoice number where it gives none. */
export const asSent = (body: IDataObject): nock.DataMatcherMap => withMark(body, true) as nock.DataMatcherMap;

export function run(
	parameters: IDataObject,
	options: { items?: IDataObject[]; key?: string; continueOnFail?: boolean | 'errorOutput' } = {},
) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...parameters },
		items: options.items,
		credentials: { apiKey: options.key ?? KEYS.t2, baseUrl: BASE },
		continueOnFail: options.continueOnFail,
	});
}

/** JSON-mode parameters for an operation, with the body as an expression of the item. */
export function jsonParams(operation: string, extra: IDataObject = {}): IDataObject {
	return { operation, inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}', ...extra };
}

/** nock, fake clock, fresh rate-limit memory; the engine stopped at the end. */
export function setupSuite() {
	const state: { clock: ReturnType<typeof useFakeClock> } = { clock: undefined as never };
	beforeAll(() => nock.disableNetConnect());
	beforeEach(() => {
		state.clock = useFakeClock();
		forgetRateLimits();
	});
	afterEach(() => {
		state.clock.restore();
		nock.cleanAll();
	});
	afterAll(() => {
		nock.enableNetConnect();
		shutdownEngine();
	});
	return state;
}

/**
 * A filing run's summary by its parts: the figures of its output (output.ts, countItems), which a
 * test compares with what it expects, and the sentence over the output, which must be the one
 * those figures give (outcomeSummary). A new figure in the sentence then changes one test of
 * the words (test/unit/stages.test.ts), not every test that reads a summary.
 */
export function summaryParts(output: INodeExecutionData[], rows: number, said: string | undefined) {
	const counts = countItems(output, rows);
	expect(said).toBe(outcomeSummary(counts));
	return counts;
}

/**
 * The execution hints (notes over the output) of the node under test, in a run from runNode, but the
 * look's cost (a sentence of its own, tested in test/unit/look and keyWindow.test.ts).
 */
export function hintsOf(run: { data: { resultData: { runData: Record<string, Array<{ hints?: unknown[] }>> } } } | undefined) {
	const runData = run!.data.resultData.runData;
	return Object.values(runData)
		.flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string; type?: string; location?: string }>)
		.filter((hint) => !hint.message.startsWith(LOOK_COST));
}

/** How the sentence on what the look before filing cost begins. */
export const LOOK_COST = 'The look for rows already filed:';

/** `GET /auth/me` of an account with (default) or without the new features. */
export function meReply(features: string[] = NEW_FEATURES, tier = 't2') {
	return envelope({ key_name: 'ops', tier, account: { mode: 'test', features }, scopes: ['invoices'] }, 'req_me');
}

/** A policy listing reply with these invoices. */
export function listingReply(invoices: IDataObject[]) {
	return envelope({ invoices, pagination: { page: 1, per_page: 100, total: invoices.length } });
}

/**
 * Said once over the output when the items come from no sheet reader (as in these tests): how
 * "row N" is counted (nodes/shared/sheetRows.ts).
 */
export const NUMBERING = ' Rows are counted as a sheet with a header row shows them: the first item is row 2.';
