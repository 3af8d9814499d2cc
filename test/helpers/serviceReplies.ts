/** Reply bodies in the service's envelope, for nock tests. */
export function envelope(data: unknown, requestId = 'req_ok1') {
	return { success: true, data, meta: { timestamp: '2026-11-22T12:00:00Z', request_id: requestId, response_time_ms: 3 } };
}

export function failure(code: string, message: string, details?: object, requestId = 'req_fail1') {
	return {
		success: false,
		error: { code, message, details },
		meta: { timestamp: '2026-11-22T12:00:00Z', request_id: requestId, response_time_ms: 2 },
	};
}

/** Test keys of the right form (not real keys). */
export const TEST_KEYS = {
	t1: 'sltax_t1_0123456789abcdefghijklmnopqrstuv',
	t2: 'sltax_t2_0123456789abcdefghijklmnopqrstuv',
} as const;

export const TEST_BASE = 'https://sl.example.com';
export const TEST_API = `${TEST_BASE}/api/v1`;

/** A resource-locator value as n8n stores it, for "By ID". */
export function byId(value: string | number) {
	return { __rl: true, mode: 'id', value: String(value) };
}
