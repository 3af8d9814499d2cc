import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';

export type ErrorCode =
	| 'BAD_REQUEST'
	| 'UNAUTHORIZED'
	| 'FORBIDDEN'
	| 'TIER_REQUIRED'
	| 'NOT_FOUND'
	| 'METHOD_NOT_ALLOWED'
	| 'CONFLICT'
	| 'PAYLOAD_TOO_LARGE'
	| 'VALIDATION_ERROR'
	| 'RATE_LIMIT_EXCEEDED'
	| 'INTERNAL_ERROR';

const STATUS_OF: Record<ErrorCode, number> = {
	BAD_REQUEST: 400,
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	TIER_REQUIRED: 403,
	NOT_FOUND: 404,
	METHOD_NOT_ALLOWED: 405,
	CONFLICT: 409,
	PAYLOAD_TOO_LARGE: 413,
	VALIDATION_ERROR: 422,
	RATE_LIMIT_EXCEEDED: 429,
	INTERNAL_ERROR: 500,
};

export type FieldErrors = Record<string, string[]>;

export interface ErrorBody {
	code: ErrorCode;
	message: string;
	details: Record<string, unknown>;
}

/** Thrown anywhere in a handler; the server turns it into the failure envelope. */
export class ApiError extends Error {
	readonly status: number;
	constructor(
		readonly code: ErrorCode,
		message: string,
		readonly details: Record<string, unknown> = {},
		readonly headers: Record<string, string> = {},
	) {
		super(message);
		this.status = STATUS_OF[code];
	}

	toBody(): ErrorBody {
		return { code: this.code, message: this.message, details: this.details };
	}
}

export function validationError(fields: FieldErrors, extra: Record<string, unknown> = {}): ApiError {
	const count = Object.values(fields).reduce((n, list) => n + list.length, 0);
	return new ApiError('VALIDATION_ERROR', `The given data was invalid (${count} problem${count === 1 ? '' : 's'}).`, {
		fields,
		...extra,
	});
}

/** Collects field messages in the order rules run, so a reply can list several fields at once. */
export class FieldErrorBag {
	readonly fields: FieldErrors = {};
	add(field: string, message: string): void {
		(this.fields[field] ??= []).push(message);
	}
	get empty(): boolean {
		return Object.keys(this.fields).length === 0;
	}
	has(field: string): boolean {
		return field in this.fields;
	}
	/** Flat "field: message" strings, the form preview uses inside validation.errors. */
	messages(): string[] {
		return Object.entries(this.fields).flatMap(([field, list]) =>
			list.map((m) => (m.startsWith(field) ? m : `${field}: ${m}`)),
		);
	}
}

export interface Meta {
	timestamp: string;
	request_id: string;
	response_time_ms: number;
}

export function newRequestId(): string {
	return `req_${randomBytes(8).toString('hex')}`;
}

export interface ReplyContext {
	requestId: string;
	startedAt: bigint;
	now: () => Date;
}

function meta(ctx: ReplyContext): Meta {
	const elapsed = Number((process.hrtime.bigint() - ctx.startedAt) / 1_000_000n);
	return { timestamp: ctx.now().toISOString(), request_id: ctx.requestId, response_time_ms: elapsed };
}

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		...headers,
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text).toString(),
	});
	res.end(text);
}

export function sendSuccess(
	res: ServerResponse,
	ctx: ReplyContext,
	status: number,
	data: unknown,
	headers: Record<string, string> = {},
): void {
	if (status === 204) {
		res.writeHead(204, headers);
		res.end();
		return;
	}
	sendJson(res, status, { success: true, data, meta: meta(ctx) }, headers);
}

export function sendError(
	res: ServerResponse,
	ctx: ReplyContext,
	error: ApiError,
	headers: Record<string, string> = {},
): void {
	sendJson(res, error.status, { success: false, error: error.toBody(), meta: meta(ctx) }, {
		...headers,
		...error.headers,
	});
}
