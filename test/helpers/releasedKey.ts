/**
 * The Idempotency-Key released versions derived (0.1.0): the API key's fingerprint, the
 * path and the canonical JSON of the body as they sent it. Kept here only so tests can file rows
 * the way a workflow did before the upgrade and check that the node still finds them.
 */
import { createHash } from 'crypto';

import { keyFingerprint } from '../../nodes/shared/credentials';
import { canonicalJson } from '../../nodes/SurplusLinesInvoice/filing/canonical';

export function releasedIdempotencyKey(apiKey: string, path: string, body: unknown): string {
	const digest = createHash('sha256')
		.update(`${keyFingerprint(apiKey)}\n${path}\n${canonicalJson(body)}`)
		.digest('hex');
	return `n8n-sl-${digest}`;
}
