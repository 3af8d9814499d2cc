import { createHash } from 'crypto';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * JSON with object keys sorted at every level: the same value always gives the same text. Built
 * by plain concatenation: it runs for every row a run files, and the text must never change (a
 * derived key that changed would file a re-run's rows again).
 */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) {
		let text = '[';
		for (let n = 0; n < value.length; n++) text += (n ? ',' : '') + canonicalJson(value[n]);
		return `${text}]`;
	}
	if (value && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		let text = '';
		// Default sort compares UTF-16 code units, as `<` does.
		for (const key of Object.keys(record).sort()) {
			if (record[key] === undefined) continue;
			text += `${text ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(record[key])}`;
		}
		return `{${text}}`;
	}
	return JSON.stringify(value ?? null);
}

/**
 * Deterministic key from the key's fingerprint (never the key), the path and the canonical body:
 * a re-run of the same rows, n8n's Retry On Fail and a retry after a lost reply all reuse it.
 */
export function deriveIdempotencyKey(fingerprint: string, path: string, body: unknown): string {
	const digest = createHash('sha256')
		.update(`${fingerprint}\n${path}\n${canonicalJson(body)}`)
		.digest('hex');
	return `n8n-sl-${digest}`;
}

/** The description's rule for a caller's own key; returns the problem, or undefined when fine. */
export function idempotencyKeyProblem(key: string): string | undefined {
	if (key.length === 0) return 'Idempotency Key: must not be empty';
	if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
		return `Idempotency Key: at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters (got ${key.length})`;
	}
	if (/\s/.test(key)) return 'Idempotency Key: must not contain spaces';
	return undefined;
}
