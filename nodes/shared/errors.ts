import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { maskKnownKeysDeep, redactKeys } from './mask';

/** What an error needs of its caller: the node it names (n8n's context, or a stage's run). */
type NodeOf = { getNode(): INode };

/** What every error of this package carries, for messages and for continue-on-fail items. */
export interface ServiceErrorInfo {
	code: string;
	message: string;
	httpStatus?: number;
	/** "field: message" lines, from the service or from the local checks. */
	fields?: string[];
	requestId?: string;
	/** Extra values worth keeping on an error item (e.g. the id of an invoice kept by the service). */
	extra?: IDataObject;
	/** Set by the transport: the request failed before any connection existed, so nothing reached the service. */
	notSent?: boolean;
}

const CONTEXT_KEY = 'surplusLines';

export { redactKeys } from './mask';

/** The most characters of one quoted value an error repeats; the rest is cut, saying its length. */
const ECHO_MAX = 200;
/** The most characters of one line of an error, for values echoed without quotes. */
const LINE_MAX = 2_000;
// A quoted run longer than ECHO_MAX. Each quote starts at most one scan, which stops at the next
// quote or line end: linear.
const LONG_QUOTED = new RegExp(`(["“])([^"”\\n]{${ECHO_MAX + 1},})(["”])`, 'g');

const WAS_CUT = /… \(\d+ characters\)$/;
// Said again (an error's text passes here more than once), a cut value keeps its first length.
const cut = (text: string, max: number) =>
	WAS_CUT.test(text) ? text : `${text.slice(0, max)}… (${text.length} characters)`;

/**
 * Text from outside (a reply, a cell) as an error may carry it: keys masked first, then every
 * quoted value cut to ECHO_MAX characters and every line to LINE_MAX, so that a 100,000-character
 * cell makes an error of a few hundred characters.
 */
function safeText(text: string): string {
	return redactKeys(text)
		.split('\n')
		.map((line) => {
			const bounded = line.replace(
				LONG_QUOTED,
				(_all, open: string, value: string, close: string) =>
					`${open}${cut(value, ECHO_MAX)}${close}`,
			);
			return bounded.length > LINE_MAX ? cut(bounded, LINE_MAX) : bounded;
		})
		.join('\n');
}

/** The string values of a record (a row's identity, an error's extras) masked and cut. */
function safeValues(values: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(maskKnownKeysDeep(values)))
		out[name] = typeof value === 'string' ? safeText(value) : value;
	return out;
}

const HEADLINES: Record<string, string> = {
	BAD_REQUEST: 'The service could not read the request',
	UNAUTHORIZED: 'The API key was refused (missing, wrong, revoked or expired)',
	FORBIDDEN: 'This API key may not do this',
	TIER_REQUIRED: 'This operation needs a higher key tier',
	NOT_FOUND: 'Not found on this key’s account',
	METHOD_NOT_ALLOWED: 'The service does not allow this method here',
	CONFLICT: 'The service refused a conflicting change',
	VALIDATION_ERROR: 'The service refused the data',
	RATE_LIMIT_EXCEEDED: 'The key’s hourly call limit is spent',
	INTERNAL_ERROR: 'The service had an internal error',
	NETWORK_ERROR: 'Could not reach the service',
	TIMEOUT: 'The service did not answer in time',
	NOT_ENVELOPE: 'The reply did not come from the service',
	REQUEST_FAILED: 'The request could not be sent',
	REDIRECTED: 'The service redirected the request',
	REPLY_FOR_ANOTHER_INVOICE: 'The reply was about another invoice',
	REPLY_TOO_LARGE: 'The reply was too large to read',
	LISTING_UNREADABLE: 'The listing is not the service’s invoice list',
};

const HINTS: Record<string, string> = {
	UNAUTHORIZED:
		'Check the API Key in the Surplus Lines API credential, or ask the operator for a new key.',
	TIER_REQUIRED: 'Ask the operator for a key of the tier this operation needs.',
	NOT_FOUND: 'Accounts are separate: a key only sees its own account’s invoices and documents.',
	INTERNAL_ERROR:
		'Try again later; if it persists, quote the request ID to the operator’s support.',
};

function describe(info: ServiceErrorInfo, hint?: string): string {
	const lines = [...(info.fields ?? [])];
	const advice = hint ?? HINTS[info.code];
	if (advice) lines.push(advice);
	if (info.requestId) lines.push(`Request ID: ${info.requestId} (quote it in a support request)`);
	return lines.join('\n');
}

function headline(info: ServiceErrorInfo): string {
	const status = info.httpStatus ? `HTTP ${info.httpStatus} ` : '';
	const title = HEADLINES[info.code];
	const text = title
		? `${title} (${status}${info.code}): ${info.message}`
		: `${info.message} (${status}${info.code})`;
	return safeText(text);
}

function attach<T extends NodeApiError | NodeOperationError>(error: T, info: ServiceErrorInfo): T {
	error.context[CONTEXT_KEY] = {
		...info,
		code: safeText(info.code),
		message: safeText(info.message),
		fields: info.fields?.map(safeText),
		requestId: info.requestId === undefined ? undefined : safeText(info.requestId),
		extra: info.extra === undefined ? undefined : safeValues(info.extra),
	} as unknown as IDataObject;
	return error;
}

/** The one mapper from a service (or transport) failure to an n8n error. */
export function serviceError(
	ctx: NodeOf,
	info: ServiceErrorInfo,
	options: { itemIndex?: number; hint?: string } = {},
): NodeApiError {
	const errorResponse: JsonObject = {
		code: safeText(info.code),
		message: safeText(info.message),
		httpStatus: info.httpStatus ?? null,
		requestId: info.requestId === undefined ? null : safeText(info.requestId),
	};
	const message = headline(info);
	const description = safeText(describe(info, options.hint));
	const error = new NodeApiError(ctx.getNode(), errorResponse, {
		message,
		description,
		httpCode: info.httpStatus ? String(info.httpStatus) : undefined,
		itemIndex: options.itemIndex,
	});
	// NodeApiError swaps in its own generic text when the response mentions a socket error code.
	error.message = message;
	error.description = description;
	return attach(error, info);
}

/** A refusal decided locally, before any call: carries a code like the service's errors do. */
export function localError(
	ctx: NodeOf,
	code: string,
	message: string,
	options: { itemIndex?: number; description: string; fields?: string[] },
): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), safeText(message), {
		itemIndex: options.itemIndex,
		description: safeText(options.description),
	});
	return attach(error, { code, message, fields: options.fields });
}

/** An input problem found before any call was spent; names each field and its rule. */
export function inputError(
	ctx: NodeOf,
	fields: string[],
	options: { itemIndex?: number; summary?: string } = {},
): NodeOperationError {
	const summary =
		options.summary ?? `Invalid input, nothing was sent: ${fields[0] ?? 'see details'}`;
	return localError(ctx, 'INVALID_INPUT', summary, {
		itemIndex: options.itemIndex,
		fields,
		description: [...fields, 'Fix the item and run again. No call to the service was made.'].join(
			'\n',
		),
	});
}

export function readErrorInfo(error: unknown): ServiceErrorInfo | undefined {
	const context = (error as { context?: IDataObject } | undefined)?.context;
	return context?.[CONTEXT_KEY] as ServiceErrorInfo | undefined;
}

// What identifies the row an error item stands for (policy number, type, effective date), kept
// with the error until the item is built.
const ROWS = new WeakMap<object, IDataObject>();

/** Keeps what identifies the failed row with the error; the error item carries it. */
export function withRow<T>(error: T, row: IDataObject): T {
	if (error && typeof error === 'object' && Object.keys(row).length)
		ROWS.set(error, { ...ROWS.get(error), ...row });
	return error;
}

/** Message, description, code, field messages, request ID, extras and row identity of an error. */
function errorDetails(error: Error): IDataObject {
	const info = readErrorInfo(error);
	const details: IDataObject = { message: safeText(String(error.message)) };
	const description = (error as { description?: string | null }).description;
	if (description) details.description = safeText(description);
	if (info) {
		details.code = info.code;
		if (info.httpStatus) details.httpStatus = info.httpStatus;
		if (info.fields?.length) details.fields = info.fields.map(safeText);
		if (info.requestId) details.requestId = info.requestId;
		Object.assign(details, info.extra ?? {});
	}
	const row = ROWS.get(error);
	return { ...details, ...(row ? safeValues(row) : {}) };
}

const ERROR_ITEMS = new WeakSet<INodeExecutionData>();

/** A routed error item holds its details under `error` (an object), next to `message`. */
function isRouted(json: IDataObject): boolean {
	return typeof json.error === 'object' && json.error !== null && !Array.isArray(json.error);
}

/**
 * The continue-on-fail item for a failed input item. With On Error "Continue" it is flat:
 * `error` (the message), description, code, fields, requestId, extras and the row's identity.
 * With "Continue (using error output)" n8n moves an item to the error output only when its json
 * is `{error}` or `{message, error}` (or the item has `error` set, which makes n8n replace the
 * json by the bare message), so the same details go under `error`, next to `message`; n8n then
 * adds the input item's fields, so the row's own columns come along.
 */
export function errorItem(error: Error, itemIndex: number, node?: INode): INodeExecutionData {
	const { message, ...details } = errorDetails(error);
	const onError = ((error as { node?: INode }).node ?? node)?.onError;
	const json: IDataObject =
		onError === 'continueErrorOutput'
			? { message, error: { message, ...details } }
			: { error: message, ...details };
	const item = { json, pairedItem: { item: itemIndex } };
	ERROR_ITEMS.add(item);
	return item;
}

/** Adds fields to an error item in the place its continue mode keeps them. */
export function addToErrorItem(item: INodeExecutionData, fields: IDataObject): void {
	const target = isRouted(item.json) ? (item.json.error as IDataObject) : item.json;
	Object.assign(target, safeValues(fields));
}

/** Whether an output item was built by errorItem (either continue mode). */
export function isErrorItem(item: INodeExecutionData): boolean {
	return ERROR_ITEMS.has(item);
}
