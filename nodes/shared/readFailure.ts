import { readErrorInfo } from './errors';
import { NOT_FOUND_REPLY } from './service';

export type Outcome = 'missing' | 'transient' | 'fatal';

// A request that could not be sent (TLS, host name) or a non-service page with a 2xx-4xx status
// points at the Base URL: a setting to fix, reported like a refused key (5xx pages stay transient).
const TRANSIENT_CODES = new Set([
	'RATE_LIMIT_EXCEEDED',
	'NETWORK_ERROR',
	'TIMEOUT',
	'INTERNAL_ERROR',
]);

/**
 * Whether the service itself said the thing does not exist: a 404 in its envelope with its code
 * (NOT_FOUND_REPLY). A proxy's or web server's 404 page comes as NOT_ENVELOPE and is not this.
 */
export function isServiceNotFound(error: unknown): boolean {
	const info = readErrorInfo(error);
	return info?.httpStatus === NOT_FOUND_REPLY.status && info.code === NOT_FOUND_REPLY.code;
}

/**
 * What a failed read means for the poll. Transient (429, network, timeout, 5xx): stop, no
 * events this time, try later. Missing (the service's own 404): this item only. Anything else
 * (key refused, credential wrong, a 404 that is not the service's): a setting the user must fix.
 */
export function classifyFailure(error: unknown): Outcome {
	const info = readErrorInfo(error);
	if (!info) return 'fatal';
	if (isServiceNotFound(error)) return 'missing';
	if (TRANSIENT_CODES.has(info.code) || info.httpStatus === 408 || (info.httpStatus ?? 0) >= 500)
		return 'transient';
	return 'fatal';
}
