import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { replyIdProblem } from './askedFor';
import { BoundedReadStop, readBounded } from './boundedRead';
import { isExecuteContext, type ApiContext } from './context';
import { CREDENTIAL_TYPE, getServiceCredential, type ServiceCredential } from './credentials';
import { fieldMessages, readEnvelope } from './envelope';
import { readErrorInfo, serviceError, type ServiceErrorInfo } from './errors';
import { maskKnownKeys, maskKnownKeysDeep } from './mask';
import {
	callAnswered,
	lastRateLimit,
	rateLimitMessage,
	readRateLimitHeaders,
	retryAfterSeconds,
	takeTurn,
	type RateLimitInfo,
} from './rateLimit';
import {
	MAX_REPLY_BYTES,
	NOT_FOUND_REPLY,
	RATE_LIMIT_RETRY_FLOOR_SECONDS,
	readKeptInvoiceId,
} from './service';
import { clock } from './timing';
import { isToolUse } from './toolUse';

export interface TransportSettings {
	/** Longest total wait for the rate limit (429 Retry-After or pacing) before failing. */
	maxRateLimitWaitSeconds: number;
	timeoutSeconds: number;
}

const DEFAULT_SETTINGS: TransportSettings = {
	maxRateLimitWaitSeconds: 60,
	timeoutSeconds: 30,
};

/** Backoff for network errors, timeouts, 408 and 5xx: 3 tries, from about 0.5 s, capped at 4 s. */
const RETRY_POLICY = { attempts: 3, baseDelayMs: 500, maxDelayMs: 4000, jitterMs: 250 };

// A 429 is not processed by the service, so it is safe to resend any request; the waits grow and
// are bounded for a service that keeps answering 429 with a short (or zero) Retry-After.
const MAX_RATE_LIMIT_RETRIES = RATE_LIMIT_RETRY_FLOOR_SECONDS.length;

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** Sent as `Idempotency-Key`; makes a POST safe to resend. */
	idempotencyKey?: string;
	/** A POST that changes nothing (preview, estimate, key check): safe to resend. */
	readOnly?: boolean;
	/** false: never resend after an unknown outcome; the caller reconciles instead. */
	retry?: boolean;
	itemIndex?: number;
	/** Advice added to the error for a given HTTP status or error code. */
	errorHints?: Record<string, string>;
	/** Overrides of the node's Request Options (else read from the node parameter `requestOptions`). */
	settings?: Partial<TransportSettings>;
	/** The invoice a read or update by id asks for: a reply describing another is refused. */
	invoiceId?: string | number;
}

export interface ApiReply<T = IDataObject> {
	data: T;
	statusCode: number;
	requestId?: string;
	rateLimit?: RateLimitInfo;
	/** The service replayed an earlier create for the same Idempotency-Key. */
	replayed: boolean;
	/** The envelope's `meta.timestamp`: the service's own clock at the reply. */
	serviceTime?: string;
}

interface RawResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
// Socket errors raised before a connection existed: the request never left this machine.
const NOT_CONNECTED_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** A failure where the request may or may not have been carried out. */
export function isOutcomeUnknown(error: unknown): boolean {
	const info = readErrorInfo(error);
	if (!info) return false;
	return (
		info.code === 'NETWORK_ERROR' ||
		info.code === 'TIMEOUT' ||
		info.code === 'REPLY_TOO_LARGE' ||
		(info.httpStatus ?? 0) >= 500
	);
}

/** The node's Request Options (or the defaults), as the transport applies them. */
export function readSettings(ctx: ApiContext, itemIndex: number | undefined): TransportSettings {
	const raw = (
		isExecuteContext(ctx)
			? ctx.getNodeParameter('requestOptions', itemIndex ?? 0, {})
			: ctx.getNodeParameter('requestOptions', {})
	) as IDataObject;
	const number = (value: unknown, fallback: number) =>
		typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
	return {
		// A tool call answers a model whose client may give up long before a window resets: unless
		// the node says otherwise, it answers at once with the time to try again.
		maxRateLimitWaitSeconds: number(
			raw?.maxRateLimitWaitSeconds,
			isToolUse(ctx) ? 0 : DEFAULT_SETTINGS.maxRateLimitWaitSeconds,
		),
		timeoutSeconds:
			number(raw?.timeoutSeconds, DEFAULT_SETTINGS.timeoutSeconds) ||
			DEFAULT_SETTINGS.timeoutSeconds,
	};
}

// n8n wraps the axios error in a NodeApiError whose `httpCode` holds the socket error code.
function classifyThrown(
	error: unknown,
): { code: 'NETWORK_ERROR' | 'TIMEOUT'; detail: string; notSent?: boolean } | undefined {
	const wrapped = error as
		| { cause?: unknown; errorResponse?: unknown; messages?: unknown }
		| undefined;
	const candidates = [error, wrapped?.cause, wrapped?.errorResponse] as Array<
		{ code?: unknown; httpCode?: unknown; message?: unknown } | undefined
	>;
	const messages = Array.isArray(wrapped?.messages) ? wrapped.messages.map(String) : [];
	for (const candidate of candidates) {
		const code =
			[candidate?.code, candidate?.httpCode].find((c): c is string => typeof c === 'string') ?? '';
		const text = [
			typeof candidate?.message === 'string' ? candidate.message : '',
			...messages,
		].join(' ');
		if (TIMEOUT_CODES.has(code) || /timeout|timed out/i.test(text))
			return { code: 'TIMEOUT', detail: code || 'timeout' };
		if (NETWORK_CODES.has(code) || /socket hang up|ECONNRESET|ECONNREFUSED/i.test(text)) {
			return {
				code: 'NETWORK_ERROR',
				detail: code || 'socket hang up',
				notSent: NOT_CONNECTED_CODES.has(code),
			};
		}
	}
	return undefined;
}

/** The socket or TLS code (or the message) of an error the transport does not classify. */
function thrownDetail(error: unknown): string {
	const wrapped = error as { cause?: { code?: unknown }; httpCode?: unknown; message?: unknown };
	const code = [wrapped?.cause?.code, wrapped?.httpCode].find((c) => typeof c === 'string');
	return String(code ?? wrapped?.message ?? 'unknown error');
}

function backoffMs(attempt: number): number {
	const base = Math.min(RETRY_POLICY.maxDelayMs, RETRY_POLICY.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(base + clock.random() * RETRY_POLICY.jitterMs);
}

function rateLimitFailure(
	ctx: ApiContext,
	req: ApiRequest,
	waitSeconds: number,
	why: string,
	info: RateLimitInfo | undefined,
	requestId?: string,
) {
	return serviceError(
		ctx,
		{
			code: 'RATE_LIMIT_EXCEEDED',
			httpStatus: 429,
			message: rateLimitMessage(waitSeconds, why, info, clock.now()),
			requestId,
			extra: {
				retry_after_seconds: Math.ceil(waitSeconds),
				retry_at: new Date(clock.now() + waitSeconds * 1000).toISOString(),
			},
		},
		{
			itemIndex: req.itemIndex,
			hint: 'Run again after the reset time, raise "Max Rate-Limit Wait" in Request Options, process fewer items per hour, or ask the operator for a higher tier.',
		},
	);
}

// n8n's request helper reads the credential (a database read and a decryption) on every call
// unless it is given one: an action run hands it the credential it read once.
const decryptedPerExecution = new WeakMap<object, Promise<IAdditionalCredentialOptions>>();

async function credentialOptions(
	ctx: ApiContext,
	itemIndex: number | undefined,
): Promise<IAdditionalCredentialOptions | undefined> {
	if (!isExecuteContext(ctx)) return undefined;
	let options = decryptedPerExecution.get(ctx);
	if (!options) {
		const details = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		options = ctx.getCredentials(CREDENTIAL_TYPE, itemIndex).then((data) => ({
			credentialsDecrypted: {
				id: details?.id ?? '',
				name: details?.name ?? '',
				type: CREDENTIAL_TYPE,
				data: data as ICredentialDataDecryptedObject,
			},
		}));
		decryptedPerExecution.set(ctx, options);
		options.catch(() => decryptedPerExecution.delete(ctx));
	}
	return await options;
}

const waitTooLong = (settings: TransportSettings) =>
	settings.maxRateLimitWaitSeconds === 0
		? 'and this node answers at once instead of waiting'
		: `longer than the ${settings.maxRateLimitWaitSeconds} s this node may wait`;

/**
 * Waits until the key's shared budget lets this request go (see `takeTurn`): for a call in flight
 * to be answered, or for the window's reset or a 429's Retry-After, the latter counted against
 * the node's Max Rate-Limit Wait.
 */
async function waitForTurn(
	ctx: ApiContext,
	req: ApiRequest,
	fingerprint: string,
	settings: TransportSettings,
	waited: { ms: number },
): Promise<void> {
	for (;;) {
		const turn = takeTurn(fingerprint, clock.now());
		if (turn.go) return;
		if ('answered' in turn) {
			await turn.answered;
			continue;
		}
		if (waited.ms + turn.waitMs > settings.maxRateLimitWaitSeconds * 1000) {
			throw rateLimitFailure(
				ctx,
				req,
				turn.waitMs / 1000,
				waitTooLong(settings),
				lastRateLimit(fingerprint),
			);
		}
		waited.ms += turn.waitMs;
		await clock.sleep(turn.waitMs);
	}
}

/** POSTs are sent again only when they cannot file twice: read-only, or carrying an Idempotency-Key. */
function isResendable(req: ApiRequest): boolean {
	return (
		req.retry !== false &&
		(req.method !== 'POST' || req.readOnly === true || req.idempotencyKey !== undefined)
	);
}

function requestOptions(
	credential: ServiceCredential,
	req: ApiRequest,
	settings: TransportSettings,
): IHttpRequestOptions {
	const headers: IDataObject = { Accept: 'application/json' };
	if (req.idempotencyKey !== undefined) headers['Idempotency-Key'] = req.idempotencyKey;
	return {
		method: req.method,
		url: `${credential.baseUrl}${req.path}`,
		qs: req.qs,
		body: req.body,
		json: true,
		headers,
		timeout: settings.timeoutSeconds * 1000,
		// Read by the transport itself, so the whole reply ends within the Timeout and no further
		// than MAX_REPLY_BYTES (after decompression): n8n's helper would read any length.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
	};
}

/**
 * One attempt: the reply, read whole within the Timeout (headers and body: one deadline) and up
 * to MAX_REPLY_BYTES, or what was thrown before it ended. A reply past the cap comes back with
 * its status and headers and `tooLarge`, its body unread.
 */
async function send(
	ctx: ApiContext,
	options: IHttpRequestOptions,
	decrypted: IAdditionalCredentialOptions | undefined,
): Promise<{ response?: RawResponse; thrown?: unknown; tooLarge?: boolean }> {
	const signal = AbortSignal.timeout(options.timeout ?? DEFAULT_SETTINGS.timeoutSeconds * 1000);
	let response: RawResponse | undefined;
	try {
		response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			{ ...options, abortSignal: signal },
			decrypted,
		)) as RawResponse;
		const body = await readBounded(response.body, { maxBytes: MAX_REPLY_BYTES, signal });
		return {
			response: { ...response, body: Buffer.isBuffer(body) ? body.toString('utf8') : body },
		};
	} catch (thrown) {
		if (thrown instanceof BoundedReadStop && thrown.reason === 'tooLarge' && response)
			return { response: { ...response, body: undefined }, tooLarge: true };
		// The deadline passed (before the headers or during the body): a timeout like any other.
		if (signal.aborted || thrown instanceof BoundedReadStop)
			return {
				thrown: { code: 'ETIMEDOUT', message: 'timeout: the whole reply did not arrive in time' },
			};
		return { thrown };
	}
}

function tooLargeFailure(ctx: ApiContext, req: ApiRequest, status: number, requestId?: string) {
	return serviceError(
		ctx,
		{
			code: 'REPLY_TOO_LARGE',
			httpStatus: status,
			message: `the reply was longer than the ${MAX_REPLY_BYTES / (1024 * 1024)} MB this package reads from the service, so it was not read`,
			requestId,
		},
		{
			itemIndex: req.itemIndex,
			hint: 'A reply of the service is at most a few hundred kilobytes: something between n8n and the service (a proxy, a wrong Base URL) may have answered. Check the Base URL in the credential.',
		},
	);
}

interface Answer {
	headers: IDataObject;
	rateLimit: RateLimitInfo | undefined;
	/** Set on a 429: how long the key's gate stays closed. */
	retryAfterMs?: number;
	/** Set on a 429: the wait the service asked for (clamped to the window). */
	askedMs?: number;
}

/**
 * Tells the key's shared budget how the attempt went (a reply, its limits, a 429's wait). The
 * `retries`-th wait after a 429 lasts at least its floor, so a Retry-After of 0 backs off.
 */
function recordAnswer(
	fingerprint: string,
	response: RawResponse | undefined,
	retries: number,
): Answer {
	const headers = (response?.headers ?? {}) as IDataObject;
	const rateLimit = readRateLimitHeaders(headers, clock.now());
	const askedMs =
		response?.statusCode === 429
			? retryAfterSeconds(headers, clock.now(), rateLimit) * 1000
			: undefined;
	const floors = RATE_LIMIT_RETRY_FLOOR_SECONDS;
	const floorMs = floors[Math.min(retries, floors.length - 1)] * 1000;
	const retryAfterMs = askedMs === undefined ? undefined : Math.max(askedMs, floorMs);
	callAnswered(fingerprint, clock.now(), {
		replied: response !== undefined,
		info: rateLimit,
		retryAfterMs,
	});
	return { headers, rateLimit, retryAfterMs, askedMs };
}

/** A failure before any reply that is not a network failure or a timeout: never sent again. */
function unclassifiedFailure(ctx: ApiContext, req: ApiRequest, thrown: unknown) {
	return serviceError(
		ctx,
		{ code: 'REQUEST_FAILED', message: `it failed before any reply (${thrownDetail(thrown)})` },
		{
			itemIndex: req.itemIndex,
			hint: 'Check the Base URL in the credential (host name, https certificate) and the network.',
		},
	);
}

function noReplyFailure(
	ctx: ApiContext,
	req: ApiRequest,
	failure: NonNullable<ReturnType<typeof classifyThrown>>,
	settings: TransportSettings,
	failedAttempts: number,
	resendable: boolean,
) {
	return serviceError(
		ctx,
		{
			code: failure.code,
			message:
				failure.code === 'TIMEOUT'
					? `no reply within ${settings.timeoutSeconds} s (${failure.detail})`
					: `the connection failed before a reply arrived (${failure.detail})`,
			notSent: failure.notSent,
		},
		{
			itemIndex: req.itemIndex,
			hint: resendable
				? `Tried ${failedAttempts} times. Check the Base URL and the network, then run again.`
				: 'The request may or may not have been carried out; it was not sent again.',
		},
	);
}

/** A reply that is final (no retry): the data, or the service's refusal as an n8n error. */
function readReply<T>(
	ctx: ApiContext,
	req: ApiRequest,
	response: RawResponse,
	envelope: ReturnType<typeof readEnvelope>,
	answer: Answer,
	requestId: string | undefined,
): ApiReply<T> {
	const status = response.statusCode;
	const rateLimit = answer.rateLimit;
	if (status >= 300 && status < 400) {
		throw serviceError(
			ctx,
			{
				code: 'REDIRECTED',
				httpStatus: status,
				message: `the service redirected the request to ${String(answer.headers.location ?? 'another address')}`,
			},
			{
				itemIndex: req.itemIndex,
				hint: 'Set the Base URL in the credential to the https address the service gives.',
			},
		);
	}

	if (status === 204) {
		return { data: {} as T, statusCode: status, rateLimit, replayed: false };
	}

	if (envelope.kind === 'not-envelope') {
		throw serviceError(
			ctx,
			{
				code: 'NOT_ENVELOPE',
				httpStatus: status,
				message: `the reply is not the service's JSON envelope: ${envelope.preview}`,
			},
			{
				itemIndex: req.itemIndex,
				hint:
					status === NOT_FOUND_REPLY.status
						? 'This 404 is not the service’s own "not found" (its reply has the service’s envelope and code NOT_FOUND): a wrong Base URL (it must end in /api/v1), a proxy or a gateway answered instead. Nothing was taken as deleted or gone. Check the Base URL in the credential.'
						: 'Something between n8n and the service (a proxy, a login page, a wrong Base URL) answered instead. Check the Base URL.',
			},
		);
	}

	const otherInvoice =
		envelope.kind === 'success' && status < 300 && req.invoiceId !== undefined
			? replyIdProblem(envelope.data, req.invoiceId)
			: undefined;
	if (otherInvoice !== undefined) {
		throw serviceError(
			ctx,
			{
				code: 'REPLY_FOR_ANOTHER_INVOICE',
				httpStatus: status,
				message: maskKnownKeys(otherInvoice),
				requestId,
			},
			{
				itemIndex: req.itemIndex,
				hint: 'Nothing was taken from it. A cache or proxy between n8n and the service may answer for another request: check the Base URL, then run again.',
			},
		);
	}

	if (envelope.kind === 'success' && status < 300) {
		// Every reply's data passes here: a key it echoes (in any encoding) is masked before
		// anything reads, stores or compares it (items, the trigger's memory, data-table rows).
		return {
			data: maskKnownKeysDeep(envelope.data) as T,
			statusCode: status,
			requestId,
			rateLimit,
			replayed: String(answer.headers['idempotent-replayed'] ?? '').toLowerCase() === 'true',
			serviceTime: envelope.meta.timestamp,
		};
	}

	const error =
		envelope.kind === 'failure'
			? envelope.error
			: {
					code: 'UNEXPECTED_REPLY',
					message: 'the service marked a failed reply as a success',
					details: undefined,
				};
	const info: ServiceErrorInfo = {
		code: error.code,
		message: error.message,
		httpStatus: status,
		fields: fieldMessages(error.details),
		requestId,
	};
	const keptInvoiceId = readKeptInvoiceId(error.details);
	if (keptInvoiceId !== undefined) info.extra = { keptInvoiceId };
	if (status === 409 && req.idempotencyKey !== undefined) {
		info.message = `${error.message} (Idempotency-Key "${req.idempotencyKey}" was already used with a different body within 24 hours)`;
	}
	const hint = req.errorHints?.[error.code] ?? req.errorHints?.[String(status)];
	throw serviceError(ctx, info, { itemIndex: req.itemIndex, hint });
}

/**
 * The one request function: every node, the trigger and every dropdown call the service through
 * it. Each attempt goes through the same steps: wait for the key's turn (pace), send, record the
 * answer in the key's budget, decide whether to try again (a 429 waits at the key's gate; a
 * network failure, 408 or 5xx is sent again when that cannot file twice), then read the reply.
 */
export async function apiRequest<T = IDataObject>(
	this: ApiContext,
	req: ApiRequest,
): Promise<ApiReply<T>> {
	const credential: ServiceCredential = await getServiceCredential(this, req.itemIndex);
	const decrypted = await credentialOptions(this, req.itemIndex);
	const settings = { ...readSettings(this, req.itemIndex), ...req.settings };
	const resendable = isResendable(req);
	const options = requestOptions(credential, req, settings);

	let rateLimitRetries = 0;
	let failedAttempts = 0;
	const waited = { ms: 0 };

	for (;;) {
		await waitForTurn(this, req, credential.fingerprint, settings, waited);
		const { response, thrown, tooLarge } = await send(this, options, decrypted);
		const answer = recordAnswer(credential.fingerprint, response, rateLimitRetries);
		if (response && tooLarge) throw tooLargeFailure(this, req, response.statusCode);

		if (response === undefined) {
			const failure = classifyThrown(thrown);
			if (!failure) throw unclassifiedFailure(this, req, thrown);
			failedAttempts++;
			if (resendable && failedAttempts < RETRY_POLICY.attempts) {
				await clock.sleep(backoffMs(failedAttempts));
				continue;
			}
			throw noReplyFailure(this, req, failure, settings, failedAttempts, resendable);
		}

		const envelope = readEnvelope(response.body);
		const givenId = envelope.kind === 'not-envelope' ? undefined : envelope.meta.request_id;
		const requestId = typeof givenId === 'string' ? maskKnownKeys(givenId) : givenId;

		if (answer.retryAfterMs !== undefined) {
			// The gate is closed for every request of the key; this one waits at it with the rest.
			const capMs = settings.maxRateLimitWaitSeconds * 1000;
			const tooLong = waited.ms + answer.retryAfterMs > capMs;
			if (tooLong || rateLimitRetries >= MAX_RATE_LIMIT_RETRIES) {
				const why = tooLong
					? waitTooLong(settings)
					: `and the service still refused after ${rateLimitRetries} waits`;
				throw rateLimitFailure(
					this,
					req,
					(tooLong ? answer.retryAfterMs : (answer.askedMs ?? answer.retryAfterMs)) / 1000,
					why,
					answer.rateLimit,
					requestId,
				);
			}
			rateLimitRetries++;
			continue;
		}

		const status = response.statusCode;
		if (
			(status === 408 || status >= 500) &&
			resendable &&
			failedAttempts + 1 < RETRY_POLICY.attempts
		) {
			failedAttempts++;
			await clock.sleep(backoffMs(failedAttempts));
			continue;
		}

		return readReply<T>(this, req, response, envelope, answer, requestId);
	}
}
