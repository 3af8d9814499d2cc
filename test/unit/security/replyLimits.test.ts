/**
 * Every API reply is read within the node's Timeout (headers and body) and no further than the
 * package's cap (issue 54): a gzip bomb is refused at the cap with a coded error, before anything
 * reads or masks it; a reply whose body stalls after its headers ends at the Timeout.
 */
import nock from 'nock';
import { Readable } from 'stream';
import { gzipSync } from 'zlib';

import { MAX_REPLY_BYTES } from '../../../nodes/shared/service';
import { API, KEYS, envelope, run, setupSuite } from '../invoice/helpers';

setupSuite();
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('API replies: a size cap and a deadline', () => {
	it('32 KB of gzip that inflates to 32 MB is refused at the cap (REPLY_TOO_LARGE), not made an item', async () => {
		const huge = JSON.stringify(envelope({ id: 1001, notes: 'a'.repeat(32 * 1024 * 1024) }));
		const bomb = gzipSync(huge, { level: 9 });
		expect(bomb.length).toBeLessThan(64 * 1024);
		nock(API).get('/invoices/1001').reply(200, bomb, { 'Content-Encoding': 'gzip', 'Content-Type': 'application/json' });
		const { output } = await run({ operation: 'get', invoiceId: byId('1001') }, { continueOnFail: true, key: KEYS.t2 });
		const json = output![0].json;
		expect(json).toMatchObject({ code: 'REPLY_TOO_LARGE', httpStatus: 200 });
		expect(String(json.error)).toContain(`longer than the ${MAX_REPLY_BYTES / (1024 * 1024)} MB this package reads`);
		expect(JSON.stringify(json).length).toBeLessThan(5_000);
	});

	it('a reply whose body stalls after the headers ends at the Timeout (1 s) as a timeout', async () => {
		const stalled: Readable[] = [];
		nock(API)
			.get('/invoices/1001')
			.times(3)
			.reply(200, () => {
				const body = new Readable({ read() {} });
				body.push('{"success":true,"data":{"id":1001,');
				stalled.push(body);
				return body;
			});
		const started = Date.now();
		const { output } = await run(
			{ operation: 'get', invoiceId: byId('1001'), requestOptions: { timeoutSeconds: 1 } },
			{ continueOnFail: true, key: KEYS.t2 },
		);
		expect(output![0].json).toMatchObject({ code: 'TIMEOUT' });
		expect(Date.now() - started).toBeLessThan(10_000);
		stalled.forEach((body) => body.destroy());
	});

	it('a reply that trickles a byte every 100 ms (never idle long) ends at the Timeout too', async () => {
		nock(API)
			.get('/invoices/1001')
			.times(3)
			.reply(200, () =>
				Readable.from(
					(async function* () {
						yield '{"success":true,"data":{"id":1001,"notes":"';
						for (let n = 0; n < 100; n++) {
							await new Promise((resolve) => setTimeout(resolve, 100));
							yield 'x';
						}
						yield '"}}';
					})(),
				),
			);
		const started = Date.now();
		const { output } = await run(
			{ operation: 'get', invoiceId: byId('1001'), requestOptions: { timeoutSeconds: 1 } },
			{ continueOnFail: true, key: KEYS.t2 },
		);
		expect(output![0].json).toMatchObject({ code: 'TIMEOUT' });
		expect(Date.now() - started).toBeLessThan(10_000);
	});
});
