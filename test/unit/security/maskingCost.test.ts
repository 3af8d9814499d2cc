/**
 * Issue 57: compiling and first running one key's masking pattern costs V8 a few hundred
 * milliseconds (1.4 s for the first reply with four keys known), paid by every process's first
 * replies, and each reply was searched with it. A text first passes a cheap test that every form
 * of the key passes; only then is the pattern run. Nothing that was masked before goes unmasked.
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

/** How often a pattern as long as a key's (thousands of characters) is run while `work` runs. */
function keyPatternRuns(work: () => void): number {
	let runs = 0;
	const isKeyPattern = (pattern: unknown) => pattern instanceof RegExp && pattern.source.length > 1000;
	const realTest = RegExp.prototype.test;
	const realReplace = String.prototype.replace;
	jest.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, text: string) {
		if (isKeyPattern(this)) runs++;
		return realTest.call(this, text);
	});
	jest.spyOn(String.prototype, 'replace').mockImplementation(function (this: string, pattern: unknown, replacement: unknown) {
		if (isKeyPattern(pattern)) runs++;
		return (realReplace as (this: string, pattern: RegExp, replacement: string) => string).call(this, pattern as RegExp, replacement as string);
	});
	try {
		work();
	} finally {
		jest.restoreAllMocks();
	}
	return runs;
}

const invoice = {
	id: 1001,
	policy_number: 'HMR-2026-001',
	invoice_number: 'SLM-7Q2K9X4WAB',
	insured_name: 'Harbor Marine Repair LLC',
	state: { code: 'TX', name: 'Texas' },
	net_premium: 12000,
	created: '2026-11-28T08:00:00.000-06:00',
	insurers: [{ company: 'Sandbox Specialty Insurance Company', naic: '90001', percent: 100 }],
};

describe('a text that cannot hold a key is not searched with its pattern', () => {
	it('an invoice, a page of 100, an error text', () => {
		expect(keyPatternRuns(() => maskKnownKeysDeep(invoice))).toBe(0);
		expect(keyPatternRuns(() => maskKnownKeysDeep({ invoices: Array.from({ length: 100 }, (_, id) => ({ ...invoice, id })) }))).toBe(0);
		expect(keyPatternRuns(() => maskKnownKeys(`The invoice ${JSON.stringify(invoice)} was not found (HTTP 404)`))).toBe(0);
	});

	it('a text holding the key is searched and masked', () => {
		expect(maskKnownKeysDeep({ ...invoice, notes: `key ${KEY}` }).notes).toBe('key [redacted API key]');
	});
});

describe('every form still masked where an escape just before it reads the key’s first characters', () => {
	const secret = HEX_KEY.slice(HEX_KEY.indexOf('_t3_') + 4);
	it.each([
		['\\x before the secret', `id=\\x${secret}`],
		['% before the secret', `id=%${secret}`],
		['\\u00 before the secret', `id=\\u00${secret}`],
		['a split secret after an escape', `\\x${secret.slice(0, 10)} ${secret.slice(10)}`],
	])('%s', (_name, text) => {
		expect(maskKnownKeys(text)).not.toContain(secret.slice(4, 20));
		expect(redactKeys(text)).not.toContain(secret.slice(4, 20));
		expect(JSON.stringify(maskKnownKeysDeep({ text }))).not.toContain(secret.slice(4, 20));
	});
});
