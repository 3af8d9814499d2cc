/**
 * No fragment of the key reaches an error: a non-JSON reply that echoes the request (a debug page,
 * a proxy at a wrong Base URL) is masked before its preview is cut, whatever offset the key sits at.
 */
import nock from 'nock';

import { readEnvelope } from '../../../nodes/shared/envelope';
import { errorItem, redactKeys } from '../../../nodes/shared/errors';
import { rateLimitMessage } from '../../../nodes/shared/rateLimit';
import { runNode } from '../../harness/engine';
import { ProbeNode } from '../../harness/probeNode';
import { useNockSuite } from '../../helpers/nockSuite';

const SECRET = '0123456789abcdefghijklmnopqrstuv';
const KEY = `sltax_t2_${SECRET}`;
const BASE = 'https://sl.example.com';
const API = `${BASE}/api/v1`;

/** Every 8-character run of the secret part found in `text`. */
function fragments(text: string): string[] {
	const found: string[] = [];
	for (let i = 0; i + 8 <= SECRET.length; i++) if (text.includes(SECRET.slice(i, i + 8))) found.push(SECRET.slice(i, i + 8));
	return found;
}

const FILLER = 'x'.repeat(400);

describe('the reply preview', () => {
	it('keeps no 8-character run of the secret, with the key (or its Bearer header) at every offset of a long reply', () => {
		for (const echoed of [KEY, `Authorization: Bearer ${KEY}`, `<td>authorization</td><td>Bearer ${KEY}</td>`]) {
			for (let offset = 0; offset <= 300; offset++) {
				// A space before the key as an echo page would have it; the filler runs into the key otherwise.
				const page = `<html><body><pre>${FILLER.slice(0, offset)} ${echoed} ${FILLER}</pre></body></html>`;
				const reply = readEnvelope(page);
				expect(reply.kind).toBe('not-envelope');
				const preview = reply.kind === 'not-envelope' ? reply.preview : '';
				expect(fragments(preview)).toEqual([]);
				expect(preview.length).toBeLessThanOrEqual(121);
			}
		}
	});

	it('a key glued to other text, cut short, in capitals or behind Bearer alone is masked', () => {
		expect(redactKeys(`id=abc${KEY}tail`)).not.toContain(SECRET.slice(0, 8));
		expect(redactKeys(`sltax_t2_${SECRET.slice(0, 20)}`)).toBe('[redacted API key]');
		expect(redactKeys(`SLTAX_T2_${SECRET.toUpperCase()}`)).toBe('[redacted API key]');
		expect(redactKeys(`authorization: Bearer ${SECRET}`)).toBe('authorization: Bearer [redacted]');
		expect(redactKeys('plain words and t2 stay')).toBe('plain words and t2 stay');
	});
});

const suite = useNockSuite();

describe('in n8n: a failing call against a page that echoes the request', () => {
	it('the error, its description and the continue-on-fail item carry no part of the key', async () => {
		for (const offset of [0, 57, 90, 111, 119, 150]) {
			nock(API)
				.get('/auth/me')
				.reply(200, function () {
					return `<html><body>${'y'.repeat(offset)} Authorization: ${String(this.req.headers.authorization)} ${FILLER}</body></html>`;
				}, { 'Content-Type': 'text/html' });
			const { output, error } = await runNode({
				node: new ProbeNode(),
				parameters: { method: 'GET', path: '/auth/me' },
				credentials: { apiKey: KEY, baseUrl: BASE },
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(output![0].json.code).toBe('NOT_ENVELOPE');
			expect(fragments(JSON.stringify(output))).toEqual([]);
		}
	});

	it('an error built from such text keeps no fragment on the item in either continue mode', () => {
		const error = new Error(`reply: Bearer ${KEY.slice(0, 30)}`);
		for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
			const item = errorItem(error, 0, { onError } as never);
			expect(fragments(JSON.stringify(item.json))).toEqual([]);
		}
	});
});

describe('the 429 message says one wait, from the figure that decided it', () => {
	const now = Date.UTC(2026, 10, 22, 6, 30, 0);
	const info = { limit: 1000, remaining: 0, reset: Date.UTC(2026, 10, 22, 7, 0, 0) / 1000 };

	it('Retry-After shorter than the window: the service asks to wait, no reset time', () => {
		const message = rateLimitMessage(1, 'and the service still refused after 10 waits', info, now);
		expect(message).toBe('the key has used 1000 calls an hour; the service asks to wait 1 s before the next call (Retry-After), and the service still refused after 10 waits');
		expect(message).not.toContain('restarts');
	});

	it('a wait to the window reset: the reset time and the same seconds', () => {
		expect(rateLimitMessage(1800, 'longer than the 60 s this node may wait', info, now)).toBe(
			'the key has used 1000 calls an hour; the count restarts at 2026-11-22T07:00:00.000Z (in 1800 s), longer than the 60 s this node may wait',
		);
	});

	it('no rate-limit headers: only the wait', () => {
		expect(rateLimitMessage(60, 'longer than the 30 s this node may wait', undefined, now)).toBe(
			'the key has used its hourly limit; the next call may be made in about 60 s, longer than the 30 s this node may wait',
		);
	});
});

describe('the 429 message in the transport', () => {
	it('Retry-After 1 s with the window 30 minutes away, refused every time: one wait, no reset time', async () => {
		const reset = suite().nowSeconds() + 1800;
		const scope = nock(API)
			.get('/auth/me')
			.times(6)
			.reply(429, { success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests' } }, {
				'Retry-After': '1',
				'X-RateLimit-Limit': '1000',
				// Not 0: with 0 the pacing waits for the reset itself (and says so); this is about the 429.
				'X-RateLimit-Remaining': '1',
				'X-RateLimit-Reset': String(reset),
			});
		const { error } = await runNode({ node: new ProbeNode(), parameters: { method: 'GET', path: '/auth/me' }, credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(error!.message).toContain('the service asks to wait 1 s before the next call (Retry-After), and the service still refused after 5 waits');
		expect(error!.message).not.toContain('restarts at');
		scope.done();
	});
});
