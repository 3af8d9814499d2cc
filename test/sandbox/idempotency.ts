export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const MAX_KEY_LENGTH = 255;

/** JSON with object keys sorted at every level: two bodies are "the same" when their values are. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const obj = value as Record<string, unknown>;
		const entries = Object.keys(obj)
			.filter((k) => obj[k] !== undefined)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value);
}

/** null when the key is usable, else the message for details.fields['Idempotency-Key']. */
export function idempotencyKeyProblem(key: string): string | null {
	if (key.length === 0) return 'Must not be empty';
	if (key.length > MAX_KEY_LENGTH) return `Must not exceed ${MAX_KEY_LENGTH} characters`;
	if (/\s/.test(key)) return 'Must not contain spaces';
	return null;
}

interface Entry {
	fingerprint: string;
	status: number;
	data: unknown;
	storedAt: number;
}

export type Lookup = { kind: 'miss' } | { kind: 'replay'; status: number; data: unknown } | { kind: 'conflict' };

/** Keys are scoped to the account; only successful creates are remembered, so a 422 leaves the key free. */
export class IdempotencyStore {
	private entries = new Map<string, Entry>();

	lookup(account: string, key: string, body: unknown, now: Date): Lookup {
		const entry = this.entries.get(`${account}\u0000${key}`);
		if (!entry || now.getTime() - entry.storedAt > IDEMPOTENCY_WINDOW_MS) return { kind: 'miss' };
		if (entry.fingerprint !== canonicalJson(body)) return { kind: 'conflict' };
		return { kind: 'replay', status: entry.status, data: entry.data };
	}

	remember(account: string, key: string, body: unknown, status: number, data: unknown, now: Date): void {
		this.entries.set(`${account}\u0000${key}`, {
			fingerprint: canonicalJson(body),
			status,
			// A snapshot: the replay returns the first reply, not the invoice as it is now.
			data: JSON.parse(JSON.stringify(data)) as unknown,
			storedAt: now.getTime(),
		});
	}
}
