import type { IncomingMessage } from 'node:http';
import { ApiError } from '../envelope';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface RawBody {
	bytes: Buffer;
	tooLarge: boolean;
}

/** Reads the whole body but keeps at most the limit, so an oversized upload is drained, answered 413, and never stored. */
export function readBody(req: IncomingMessage): Promise<RawBody> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => resolve({ bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge }));
		req.on('error', reject);
	});
}

/** The JSON object a route needs; `required` false means an empty body stands for {}. */
export function rejectOversized(raw: RawBody): void {
	if (raw.tooLarge)
		throw new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds the ${MAX_BODY_BYTES} byte limit`, { max_bytes: MAX_BODY_BYTES });
}

export function parseJsonObject(raw: RawBody, required: boolean): Record<string, unknown> {
	rejectOversized(raw);
	const text = raw.bytes.toString('utf8').trim();
	if (text === '') {
		if (required) throw new ApiError('BAD_REQUEST', 'Request body is empty; send a JSON object');
		return {};
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (e) {
		throw new ApiError('BAD_REQUEST', `Request body is not valid JSON: ${(e as Error).message}`);
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw new ApiError('BAD_REQUEST', 'Request body must be a JSON object');
	return value as Record<string, unknown>;
}
