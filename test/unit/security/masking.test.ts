/**
 * Issue 49: the key pattern ran over a whole reply and took quadratic time on a long unbroken token
 * (2.5 s at 40,000 characters, so about half an hour at 1 MB); and forms of the key other than plain
 * text passed unmasked, as did an error's code and request ID and Get Key Info's item.
 */
import nock from 'nock';

import { SurplusLinesReference } from '../../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import { readEnvelope } from '../../../nodes/shared/envelope';
import { errorItem } from '../../../nodes/shared/errors';
import { maskKnownKeys, maskKnownKeysDeep, redactKeys, rememberKey } from '../../../nodes/shared/mask';
import { runNode } from '../../harness/engine';
import { ProbeNode } from '../../harness/probeNode';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, TEST_BASE, envelope } from '../../helpers/serviceReplies';

// A key of its own, so that no other suite's run has made it known.
const SECRET = 'q7r2k9m4x8w1v6z3n5b0c2d4f6g8h1j3';
const KEY = `sltax_t3_${SECRET}`;
const credentials = { apiKey: KEY, baseUrl: TEST_BASE };

const b64 = (text: string) => Buffer.from(text).toString('base64');
const url = (text: string) => text.replace(/_/g, '%5F');
const jsonEscaped = (text: string) => text.replace(/_/g, '\\u005f');

/** Every form of the key a reply may echo, as it would appear in the reply's text. */
const FORMS: Record<string, string> = {
	plain: KEY,
	'URL-encoded': url(KEY),
	'URL-encoded, lower case hex': KEY.replace(/_/g, '%5f'),
	'fully percent-encoded': [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
	'base64 of the key': b64(KEY),
	'base64 of Bearer key': b64(`Bearer ${KEY}`),
	'base64 of a whole header': b64(`Authorization: Bearer ${KEY}\r\n`),
	'base64url of the key': b64(KEY).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
	'JSON \\u005f escapes': jsonEscaped(KEY),
	'JSON escapes of every character': [...KEY].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''),
	'HTML entities': KEY.replace(/_/g, '&#95;'),
	'the secret alone': SECRET,
	'split by a space': `${KEY.slice(0, 21)} ${KEY.slice(21)}`,
	'wrapped onto the next line': `${KEY.slice(0, 30)}\r\n${KEY.slice(30)}`,
	'base64 wrapped as MIME wraps it': b64(`Authorization: Bearer ${KEY}`).replace(/(.{20})/, '$1\r\n'),
};

/** Whether any 8-character run of the secret, in any form above, is left in `text`. */
function leaks(text: string): string[] {
	const found: string[] = [];
	for (let i = 0; i + 8 <= SECRET.length; i++) if (text.includes(SECRET.slice(i, i + 8))) found.push(SECRET.slice(i, i + 8));
	// A base64 form keeps no 12-character run of the key's own base64 at any offset.
	for (const blob of [b64(KEY), b64(`x${KEY}`), b64(`xy${KEY}`)]) {
		for (let i = 4; i + 12 <= blob.length - 4; i++) if (text.includes(blob.slice(i, i + 12))) found.push(blob.slice(i, i + 12));
	}
	return found;
}

/**
 * The 8-character runs left in `text` of the last 40 characters of `form`, which only the key
 * decides (base64 of "Bearer key" starts with the base64 of "Bearer"), its last 5 aside (base64
 * edges and padding).
 */
function kept(text: string, form: string): string[] {
	const found: string[] = [];
	for (let i = Math.max(3, form.length - 40); i + 8 <= form.length - 5; i++) if (text.includes(form.slice(i, i + 8))) found.push(form.slice(i, i + 8));
	return found;
}

const suite = useNockSuite();

beforeAll(() => rememberKey(KEY));

describe('the exact key in every encoding', () => {
	it.each(Object.entries(FORMS))('%s is masked, alone and inside other text', (_name, form) => {
		expect(kept(form, form)).not.toEqual([]);
		expect(maskKnownKeys(form)).toMatch(/\[redacted API key\].{0,4}$/);
		for (const text of [`before ${form} after`, `"auth":"${form}"`, `id=${form}&x=1`, `abc${form}def`]) {
			for (const masked of [maskKnownKeys(text), redactKeys(text)]) {
				expect(kept(masked, form)).toEqual([]);
				expect(leaks(masked)).toEqual([]);
			}
		}
	});

	it('a key of another form or none at all stays untouched by the exact masking', () => {
		expect(maskKnownKeys('sltax_t3_00000000000000000000000000000000 and t3 and q7r2k9m4')).toBe('sltax_t3_00000000000000000000000000000000 and t3 and q7r2k9m4');
	});

	it('the pattern masking of keys not known and of Bearer values is kept', () => {
		expect(redactKeys('other: sltax_t1_abcdefabcdefabcdefabcdefabcdefab!')).toBe('other: [redacted API key]');
		expect(redactKeys('id=abcsltax_t2_zzzz tail')).toBe('id=[redacted API key] tail');
		expect(redactKeys('Authorization: Bearer%20something-secret;')).toBe('Authorization: Bearer [redacted];');
		expect(redactKeys('words, t2 and _t4_ stay')).toBe('words, t2 and _t4_ stay');
	});
});

// No time is asserted. Each pattern is linear by construction (mask.ts: no quantifier is followed by
// anything it could give characters back to, beyond a fixed few); the quadratic pattern took 2.5-5 s
// at 40,000 characters, so about half an hour at 1 MB: these tests would then hold the run that long
// and fail on jest's 120 s test timeout (jest.config.js) once the call returns.
describe('masking takes linear time: megabyte inputs', () => {
	const MB = 1024 * 1024;
	// An unbroken token with no delimiter, as an inline base64 image on a proxy's error page.
	const token = 'iVBORw0KGgoAAAANSUhEUgAA'.repeat(Math.ceil(MB / 24)).slice(0, MB);

	it('a 1 MB unbroken token, alone and after "bearer" with many spaces, passes unchanged', () => {
		expect(redactKeys(token)).toBe(token);
		expect(redactKeys(`_t1${token}`)).toBe(`_t1${token}`);
		const spaced = `bearer${' '.repeat(MB)}"`;
		expect(redactKeys(spaced)).toBe(spaced);
	});

	it('1 MB of near misses (the key without its last character, again and again, spaced and glued) passes unchanged', () => {
		const nearMiss = KEY.slice(0, -1);
		for (const separator of ['', ' ', '%5F']) {
			const text = `${nearMiss}${separator}`.repeat(Math.ceil(MB / (nearMiss.length + separator.length)));
			expect(maskKnownKeys(text)).toBe(text);
		}
	});

	it('a 1 MB token that is a key-like run is masked whole', () => {
		expect(redactKeys(`${token}_t2_${token}`)).toBe('[redacted API key]');
	});

	it('a 1 MB reply with the key in each encoding keeps none of it, in the reply preview too', () => {
		const filler = token.slice(0, Math.floor(MB / Object.keys(FORMS).length));
		const reply = Object.values(FORMS).map((form) => `${filler} ${form}`).join(' ');
		expect(reply.length).toBeGreaterThan(MB);
		expect(leaks(redactKeys(reply))).toEqual([]);
		const glued = Object.values(FORMS).map((form) => `${filler}${form}`).join('');
		expect(leaks(redactKeys(glued))).toEqual([]);
		const preview = readEnvelope(`<html>${reply}</html>`);
		expect(preview.kind === 'not-envelope' && leaks(preview.preview)).toEqual([]);
	});
});

describe('in n8n: what a reply echoes does not reach items or errors', () => {
	it('an error whose code and request ID echo the Authorization header, in either continue mode', async () => {
		for (const form of [(h: string) => h, b64, url]) {
			nock(TEST_API)
				.get('/auth/me')
				.reply(400, function () {
					const header = String(this.req.headers.authorization);
					return { success: false, error: { code: form(header), message: `bad ${form(header)}` }, meta: { request_id: form(header) } };
				});
			const { output, error } = await runNode({
				node: new ProbeNode(),
				parameters: { method: 'GET', path: '/auth/me' },
				credentials,
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(leaks(JSON.stringify(output))).toEqual([]);
			const thrown = await runNode({ node: new ProbeNode(), parameters: { method: 'GET', path: '/auth/me' }, credentials }).catch((e: unknown) => e);
			expect(leaks(JSON.stringify(thrown))).toEqual([]);
		}
		expect(suite).toBeDefined();
	});

	it('an error item built from such text keeps nothing in either continue mode', () => {
		const error = new Error(`reply: ${b64(`Bearer ${KEY}`)} and ${jsonEscaped(KEY)}`);
		for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
			expect(leaks(JSON.stringify(errorItem(error, 0, { onError } as never).json))).toEqual([]);
		}
	});

	it('Get Key Info of a reply that echoes the Authorization header keeps no form of the key in its item', async () => {
		nock(TEST_API)
			.get('/auth/me')
			.reply(200, function () {
				const header = String(this.req.headers.authorization);
				return envelope({ key_name: 'ops', tier: 't3', echo: { authorization: header, encoded: b64(header), [header]: url(header) } }, header);
			});
		const { output } = await runNode({ node: new SurplusLinesReference(), parameters: { resource: 'account', operation: 'getKeyInfo' }, credentials });
		expect(output![0].json).toMatchObject({ key_name: 'ops', tier: 't3' });
		expect(leaks(JSON.stringify(output))).toEqual([]);
		expect(JSON.stringify(output)).toContain('[redacted API key]');
	});
});

describe('items: masked where they hold the key, left as they are where they do not', () => {
	const item = () => ({ id: 1001, policy_number: 'POL-1', notes: ['a'.repeat(200)], nested: { idempotencyKey: `n8n-sl-${'0'.repeat(64)}` } });

	it('an item holding no key is the same object, not a copy (a 10,000-row run copies nothing)', () => {
		const value = item();
		expect(maskKnownKeysDeep(value)).toBe(value);
	});

	it('an item holding the key in any string, or an object key, is a masked copy', () => {
		const inString = { ...item(), nested: { echo: `got Bearer ${KEY} back` } };
		const masked = maskKnownKeysDeep(inString);
		expect(masked).not.toBe(inString);
		expect(JSON.stringify(masked)).not.toContain(KEY);
		expect(masked.nested.echo).toContain('[redacted API key]');
		const inName = { [encodeURIComponent(KEY)]: 1 };
		expect(Object.keys(maskKnownKeysDeep(inName))).toEqual(['[redacted API key]']);
	});

	it('two strings are never read as one: halves of the key in two values are not a key', () => {
		const halves = { a: KEY.slice(0, 20), b: KEY.slice(20) };
		expect(maskKnownKeysDeep(halves)).toBe(halves);
	});
});

