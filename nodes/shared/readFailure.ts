import { readErrorInfo } from './errors';

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
 * What a failed read means for the poll. Transient (429, network, timeout, 5xx): stop, no
 * events this time, try later. Missing (404): this item only. Anything else (key refused,
 * credential wrong): a setting the user must fix.
 */
export function classifyFailure(error: unknown): Outcome {
	const info = readErrorInfo(error);
	if (!info) return 'fatal';
	if (info.httpStatus === 404 || info.code === 'NOT_FOUND') return 'missing';
	if (TRANSIENT_CODES.has(info.code) || info.httpStatus === 408 || (info.httpStatus ?? 0) >= 500)
		return 'transient';
	return 'fatal';
}
