/**
 * A download ends within the node's Timeout whatever the file host does after its headers
 * (issue 54), and refuses the names of internal networks and public wildcard DNS services.
 */
import nock from 'nock';
import { Readable } from 'stream';

import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, envelope } from '../../helpers/serviceReplies';
import { doc, run } from './helpers';

useNockSuite();

const fetched = (url: string) => doc({ fetch_status: 'fetched', file_name: 'dec-1.pdf', url, url_expires_in_seconds: 3600 });
const linkIs = (url: string) => nock(TEST_API).get('/invoices/1001/documents/5001').reply(200, envelope(fetched(url)));
const download = (extra: Record<string, unknown> = {}) =>
	run('download', { referenceType: 'id', document: '5001', options: {}, ...extra }, { continueOnFail: true });

describe('a download has one deadline: the whole transfer', () => {
	it('a host that sends its headers and a first chunk, then stalls, is cut at the Timeout (1 s), and the item says so', async () => {
		linkIs('https://files.example.com/slow.pdf');
		let stalled: Readable | undefined;
		nock('https://files.example.com')
			.get('/slow.pdf')
			.reply(200, () => {
				stalled = new Readable({ read() {} });
				stalled.push(Buffer.from('%PDF-1.4\n'));
				return stalled;
			}, { 'Content-Type': 'application/pdf' });
		const started = Date.now();
		const { output } = await download({ requestOptions: { timeoutSeconds: 1 } });
		const took = Date.now() - started;
		expect(output![0].json).toMatchObject({ code: 'DOWNLOAD_TIMEOUT' });
		expect(String(output![0].json.error)).toMatch(/did not arrive whole within 1 s/);
		expect(output![0].binary).toBeUndefined();
		// Not the 8 s and more it took before (a busy machine gets a margin, never an endless wait).
		expect(took).toBeLessThan(6_000);
		stalled?.destroy();
	});

	it('a host that trickles a byte at a time (never idle long) is cut at the Timeout too', async () => {
		linkIs('https://files.example.com/trickle.pdf');
		nock('https://files.example.com')
			.get('/trickle.pdf')
			.reply(200, () =>
				Readable.from(
					(async function* () {
						for (let n = 0; n < 100; n++) {
							await new Promise((resolve) => setTimeout(resolve, 100));
							yield Buffer.from('x');
						}
					})(),
				),
			);
		const { output } = await download({ requestOptions: { timeoutSeconds: 1 } });
		expect(output![0].json).toMatchObject({ code: 'DOWNLOAD_TIMEOUT' });
	});
});

describe('downloads refuse the names of internal networks and wildcard DNS services', () => {
	it.each([
		['https://files.default.svc/x', 'an internal host name (.svc)'],
		['https://files.default.svc.cluster.local/x', 'an internal host name (.local)'],
		['https://vault.service.consul/x', 'an internal host name (.consul)'],
		['https://share.acme.corp/x', 'an internal host name (.corp)'],
		['https://nas.home/x', 'an internal host name (.home)'],
		['https://files.internal./x', 'an internal host name (.internal)'],
		['https://127.0.0.1.nip.io/x', 'a name of a wildcard DNS service (.nip.io) that answers with any address written in it, private ones included'],
		['https://169-254-169-254.sslip.io/x', 'a name of a wildcard DNS service (.sslip.io) that answers with any address written in it, private ones included'],
	])('refuses %s before any request', async (url, reason) => {
		linkIs(url);
		const { output } = await download();
		expect(output![0].json).toMatchObject({
			code: 'DOWNLOAD_REFUSED',
			error: `the document’s download link was not followed: its host is ${reason} (DOWNLOAD_REFUSED)`,
		});
	});
});
