import { createHash } from 'crypto';

import { canonicalJson, oneFeeCodePerColumn } from './canonical';
import { inputError } from '../shared/errors';
import type { Run } from '../shared/run';

const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * Deterministic key from the path and the canonical body only: the service scopes keys to the
 * account, so every key of one account (a t2 and a t3, a key replaced in the credential) derives
 * the same key for the same invoice, and a re-run under any of them is replayed. The text hashed
 * starts with a version tag: should a later release derive keys another way, its tag differs, and
 * the change has a name to start from (rows filed under the old tag are not replayed by the new).
 */
export function deriveIdempotencyKey(path: string, body: unknown): string {
	const digest = createHash('sha256')
		.update(`${KEY_DERIVATION}\n${path}\n${canonicalJson(oneFeeCodePerColumn(body))}`)
		.digest('hex');
	return `n8n-sl-${digest}`;
}

/** The first release's derivation (the name it was developed under; a new name changes every key). */
const KEY_DERIVATION = 'account-v2';

/** The description's rule for a caller's own key; returns the problem, or undefined when fine. */
export function idempotencyKeyProblem(key: string): string | undefined {
	if (key.length === 0) return 'Idempotency Key: must not be empty';
	if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
		return `Idempotency Key: at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters (got ${key.length})`;
	}
	if (/\s/.test(key)) return 'Idempotency Key: must not contain spaces';
	return undefined;
}

export type IdempotencyChoice =
	| { mode: 'derived' }
	| { mode: 'own'; key: string }
	| { mode: 'off' };

/** The row's key: none, the user's own, or derived from the path and the canonical body. */
export function idempotencyKeyFor(
	choice: IdempotencyChoice,
	path: string,
	body: unknown,
): string | undefined {
	if (choice.mode === 'off') return undefined;
	if (choice.mode === 'own') return choice.key;
	return deriveIdempotencyKey(path, body);
}

/**
 * The Idempotency setting as its operation read it (actions/settings.ts): the mode, and the own
 * key, checked here (255 characters, no spaces).
 */
export function idempotencyChoice(
	run: Pick<Run, 'getNode'>,
	mode: string,
	key: string,
	i: number,
): IdempotencyChoice {
	if (mode === 'off') return { mode: 'off' };
	if (mode !== 'own') return { mode: 'derived' };
	const problem = idempotencyKeyProblem(key);
	if (problem) throw inputError(run, [problem], { itemIndex: i });
	return { mode: 'own', key };
}
