/**
 * Masking reads escapes greedily (`\xab12…` decodes `\xab` as one character): a key whose secret
 * starts with hex digits right after an escape's opening must still be masked (found while merging
 * issue 57's masking pre-test with issue 54's one-index masking: the decoded stream alone missed it).
 */
import { maskKnownKeys, maskKnownKeysDeep, redactKeys, rememberKey } from '../../../nodes/shared/mask';

// Keys of their own: the secret of the second starts with hex digits, so an escape just before it
// (`\xab…`) reads its first characters as the escape's.
const KEY = 'sltax_t2_m3k8q1w6z9x4v7b2n5c8d1f4g7h0j3';
const HEX_KEY = 'sltax_t3_ab12cd34ef56gh78jk90lm12np34qr';

beforeAll(() => {
	rememberKey(KEY);
	rememberKey(HEX_KEY);
});

describe('every form still masked where an escape just before it reads the key’s first characters', () => {
	const secret = HEX_KEY.slice(HEX_KEY.indexOf('_t3_') + 4);
	it.each([
		['\\x before the secret', `id=\\x${secret}`],
		['% before the secret', `id=%${secret}`],
		['\\u00 before the secret', `id=\\u00${secret}`],
		['a split secret after an escape', `\\x${secret.slice(0, 10)} ${secret.slice(10)}`],
	])('%s', (_name, text) => {
		// Pieces on either side of the split (index 10), so each case can fail.
		for (const piece of [secret.slice(2, 10), secret.slice(12, 20)]) {
			expect(maskKnownKeys(text)).not.toContain(piece);
			expect(redactKeys(text)).not.toContain(piece);
			expect(JSON.stringify(maskKnownKeysDeep({ text }))).not.toContain(piece);
		}
	});
});
