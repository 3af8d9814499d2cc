/**
 * Issue 54: forms of the key that passed unmasked (its bytes as hex in either case, with
 * separators; the secret broken by a zero-width space or a soft hyphen; base64 of UTF-16 text),
 * and a key forgotten once 16 other credentials were read while its run waited.
 */
import { maskKnownKeys, redactKeys, rememberKey } from '../../../nodes/shared/mask';

// A key of its own, so that no other suite's run has made it known.
const SECRET = 'h4k8m2p6r0t3v7x1z5b9d2f6j0l4n8q2';
const KEY = `sltax_t2_${SECRET}`;
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const b64 = (bytes: Buffer) => bytes.toString('base64');

const FORMS: Record<string, string> = {
	'hex, lower case': hex(KEY),
	'hex, upper case': hex(KEY).toUpperCase(),
	'hex, spaced bytes': hex(KEY).replace(/(..)/g, '$1 ').trim(),
	'hex, colon-separated upper case': hex(KEY).toUpperCase().replace(/(..)(?!$)/g, '$1:'),
	'hex of the secret alone': hex(SECRET),
	'a zero-width space inside': `${KEY.slice(0, 15)}\u200b${KEY.slice(15)}`,
	'a soft hyphen inside the secret': `${SECRET.slice(0, 10)}\u00ad${SECRET.slice(10)}`,
	'zero-width joiners between every character': [...KEY].join('\u200d'),
	'base64 of UTF-16LE text': b64(Buffer.from(`Authorization: Bearer ${KEY}`, 'utf16le')),
	'base64 of UTF-16BE text': b64(Buffer.from(`Bearer ${KEY}`, 'utf16le').swap16()),
};

/** Whether any 8-character run of the secret (or of its hex) is left in `text`, breaks removed. */
function leaks(text: string): string[] {
	const plain = text.replace(/[\s\u00ad\u200b-\u200d:]/g, '').toLowerCase();
	const found: string[] = [];
	for (let i = 0; i + 8 <= SECRET.length; i++) if (plain.includes(SECRET.slice(i, i + 8))) found.push(SECRET.slice(i, i + 8));
	const secretHex = hex(SECRET);
	for (let i = 0; i + 16 <= secretHex.length; i += 2) if (plain.includes(secretHex.slice(i, i + 16))) found.push(secretHex.slice(i, i + 16));
	return found;
}

beforeAll(() => rememberKey(KEY));

describe('the remaining forms of the key', () => {
	it.each(Object.entries(FORMS))('%s is masked, alone and inside other text', (_name, form) => {
		for (const text of [form, `before ${form} after`, `{"request":"${form}"}`, `x=${form}&y=1`]) {
			for (const masked of [maskKnownKeys(text), redactKeys(text)]) {
				expect(masked).toContain('[redacted API key]');
				expect(leaks(masked)).toEqual([]);
				// Nothing the key alone decides is left: the form's last characters (its padding aside).
				expect(masked).not.toContain(form.slice(-24, -4));
			}
		}
	});

	it('text around a masked form is kept', () => {
		expect(maskKnownKeys(`before ${hex(KEY)} after`)).toBe('before [redacted API key] after');
		expect(maskKnownKeys(`a ${KEY.slice(0, 15)}\u200b${KEY.slice(15)} b`)).toBe('a [redacted API key] b');
	});

	it('other hex and other text with invisible characters stay as they are', () => {
		const text = `${hex('sltax_t2_00000000000000000000000000000000')} soft\u00adhyphen zero\u200bwidth`;
		expect(maskKnownKeys(text)).toBe(text);
	});
});

describe('no key is forgotten while its run waits', () => {
	it('the first key is still masked after 40 other credentials were read', () => {
		for (let n = 0; n < 40; n++) rememberKey(`sltax_t1_${String(n).padStart(2, '0')}${'k'.repeat(30)}`);
		expect(maskKnownKeys(`echo ${KEY}`)).toBe('echo [redacted API key]');
		expect(maskKnownKeys(`echo ${hex(KEY)}`)).toBe('echo [redacted API key]');
	});
});
