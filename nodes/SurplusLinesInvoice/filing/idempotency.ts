import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { canonicalJson, oneFeeCodePerColumn } from './canonical';
import { inputError } from '../../shared/errors';
import { itemParameter, nodeVersion } from '../../shared/params';
import { clock } from '../../shared/timing';

const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * Deterministic key from the path and the canonical body only: the service scopes keys to the
 * account, so every key of one account (a t2 and a t3, a key replaced in the credential) derives
 * the same key for the same invoice, and a re-run under any of them is replayed. The text hashed
 * starts with a version tag so it can never equal what the first releases hashed.
 */
export function deriveIdempotencyKey(path: string, body: unknown): string {
	const digest = createHash('sha256')
		.update(`${KEY_DERIVATION}\n${path}\n${canonicalJson(oneFeeCodePerColumn(body))}`)
		.digest('hex');
	return `n8n-sl-${digest}`;
}

const KEY_DERIVATION = 'account-v2';

/** How long the service replays a key: also how long a key derived by an earlier release can. */
const KEY_WINDOW_MS = 24 * 3600 * 1000;

/**
 * Releases before this one derived keys from the API key's fingerprint too, so a row they filed
 * is not replayed by the key derived now. Such a key lives 24 hours. For 24 hours from when a
 * workflow first ran with this version, a create with a derived key on an account that replays
 * by key first looks for its row on the policy among the rows stored before then, as on accounts
 * without the feature. That moment is kept in the workflow's static data (n8n saves it for every
 * execution but manual ones); without it, it is when this code was loaded (n8n started or the
 * package updated: never before the upgrade). Tests move `loadedAt`.
 */
export const keyDerivationChange = { loadedAt: clock.now() };

/** Where that moment is kept in the workflow's global static data. */
export const KEY_DERIVATION_SINCE_FIELD = 'surplusLinesKeyDerivationSince';

/**
 * When keys started being derived this way for a workflow: from its static data, or (recorded
 * there) when this code was loaded, whichever is earlier.
 */
export function keyDerivationSince(staticData: IDataObject | undefined): number {
	const saved = staticData?.[KEY_DERIVATION_SINCE_FIELD];
	const loadedAt = keyDerivationChange.loadedAt;
	if (typeof saved === 'number' && Number.isFinite(saved)) return Math.min(saved, loadedAt);
	if (staticData && Number.isFinite(loadedAt)) staticData[KEY_DERIVATION_SINCE_FIELD] = loadedAt;
	return loadedAt;
}

/** Whether a key derived by an earlier release can still be replayed by the service. */
export function earlierKeysMayLive(sinceMs: number, nowMs: number = clock.now()): boolean {
	return nowMs - sinceMs < KEY_WINDOW_MS;
}

/**
 * Whether a row stored at `storedMs` (undefined: time unknown) may have been filed under a key an
 * earlier release derived that the service would still replay: stored before `sinceMs`, within
 * the last 24 hours. A time that cannot be read counts (a second filing is worse than a row
 * reported as already filed).
 */
export function filedUnderEarlierKey(
	storedMs: number | undefined,
	sinceMs: number,
	nowMs = clock.now(),
): boolean {
	if (storedMs === undefined || !Number.isFinite(storedMs)) return true;
	return storedMs <= sinceMs && nowMs - storedMs < KEY_WINDOW_MS;
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
 * The Idempotency setting of item `i`: on the main panel in version 1, in Options from version 2
 * (same names, same meaning). An own key is checked locally (255 characters, no spaces).
 */
export function readIdempotencyChoice(ctx: IExecuteFunctions, i: number): IdempotencyChoice {
	const at = nodeVersion(ctx) >= 2 ? 'options.' : '';
	const mode = itemParameter<string>(ctx, `${at}idempotency`, i, 'derived');
	if (mode === 'off') return { mode: 'off' };
	if (mode !== 'own') return { mode: 'derived' };
	const key = String(ctx.getNodeParameter(`${at}idempotencyKey`, i, '') ?? '');
	const problem = idempotencyKeyProblem(key);
	if (problem) throw inputError(ctx, [problem], { itemIndex: i });
	return { mode: 'own', key };
}
