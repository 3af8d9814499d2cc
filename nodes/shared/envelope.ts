import type { IDataObject } from 'n8n-workflow';

import { redactKeys } from './errors';

interface EnvelopeError {
	code: string;
	message: string;
	details?: IDataObject;
}

interface EnvelopeMeta {
	timestamp?: string;
	request_id?: string;
	response_time_ms?: number;
}

type Envelope =
	| { kind: 'success'; data: unknown; meta: EnvelopeMeta }
	| { kind: 'failure'; error: EnvelopeError; meta: EnvelopeMeta }
	| { kind: 'not-envelope'; preview: string };

const PREVIEW_LENGTH = 120;

// The preview goes into an error message, which n8n stores: keys and Bearer values are masked
// in the whole reply first, so a cut can never keep part of one.
function previewOf(body: unknown): string {
	if (body === undefined || body === null || body === '') return '(empty body)';
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	const flat = redactKeys(text.replace(/\s+/g, ' ').trim());
	return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH)}…` : flat;
}

/** The one reader of the service's reply envelope. A body without `success` is not the envelope. */
export function readEnvelope(body: unknown): Envelope {
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return { kind: 'not-envelope', preview: previewOf(body) };
		}
	}
	if (
		!parsed ||
		typeof parsed !== 'object' ||
		typeof (parsed as IDataObject).success !== 'boolean'
	) {
		return { kind: 'not-envelope', preview: previewOf(body) };
	}
	const envelope = parsed as IDataObject;
	const meta = (envelope.meta ?? {}) as EnvelopeMeta;
	if (envelope.success) return { kind: 'success', data: envelope.data, meta };
	const raw = (envelope.error ?? {}) as IDataObject;
	return {
		kind: 'failure',
		meta,
		error: {
			code: typeof raw.code === 'string' ? raw.code : 'UNKNOWN_ERROR',
			message:
				typeof raw.message === 'string'
					? raw.message
					: 'The service reported an error without a message',
			details: (raw.details ?? undefined) as IDataObject | undefined,
		},
	};
}

/** `error.details.fields` as "field: message" lines, in the order the service gave them. */
export function fieldMessages(details: IDataObject | undefined): string[] {
	const fields = details?.fields;
	if (!fields || typeof fields !== 'object') return [];
	const lines: string[] = [];
	for (const [field, messages] of Object.entries(fields as IDataObject)) {
		const list = Array.isArray(messages) ? messages : [messages];
		for (const message of list) lines.push(`${field}: ${String(message)}`);
	}
	return lines;
}
