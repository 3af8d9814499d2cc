import nock from 'nock';
import { Readable } from 'stream';

import { runNode } from '../../harness/engine';

import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, byId, envelope } from '../../helpers/serviceReplies';
import { credentials, doc, node, run } from './helpers';

useNockSuite();

describe('Download', () => {
	const pdf = Buffer.from('%PDF-1.4\n% test file\n%%EOF\n');

	it('fetches the fresh link without the API key and returns the bytes as binary data', async () => {
		nock(TEST_API)
			.get('/invoices/1001/documents/dec-1')
			.reply(
				200,
				envelope(
					doc({
						fetch_status: 'fetched',
						file_name: 'dec-1.pdf',
						mime_type: 'application/pdf',
						file_size: pdf.length,
						url: 'https://files.example.com/files/5001/dec-1.pdf?expires=1&sig=abc',
						url_expires_in_seconds: 3600,
					}),
				),
			);
		const file = nock('https://files.example.com', { badheaders: ['authorization'] })
			.get('/files/5001/dec-1.pdf')
			.query({ expires: '1', sig: 'abc' })
			.reply(200, pdf, { 'Content-Type': 'application/pdf' });
		const { output, error } = await run('download', { referenceType: 'docUUID', document: 'dec-1', binaryPropertyName: 'file' });
		expect(error).toBeUndefined();
		const item = output![0];
		expect(item.json).toMatchObject({ id: 5001, file_name: 'dec-1.pdf', downloaded_bytes: pdf.length });
		expect(item.json.url).toBeUndefined();
		expect(item.binary!.file).toMatchObject({ fileName: 'dec-1.pdf', mimeType: 'application/pdf' });
		expect(Buffer.from(item.binary!.file.data, 'base64').equals(pdf)).toBe(true);
		file.done();
	});

	it('says the file is not fetched yet and points to Wait Until Fetched, without fetching anything', async () => {
		nock(TEST_API).get('/invoices/1001/documents/dec-1').reply(200, envelope(doc(), 'req_pend'));
		const { output } = await run('download', { referenceType: 'docUUID', document: 'dec-1' }, { continueOnFail: true });
		expect(output![0].json).toMatchObject({
			code: 'DOCUMENT_NOT_FETCHED',
			requestId: 'req_pend',
			error: 'document 5001 has no file to download yet (fetch_status "pending") (DOCUMENT_NOT_FETCHED)',
		});
		expect(String(output![0].json.description)).toContain('Wait Until Fetched');
	});

	it('explains an expired or refused link', async () => {
		nock(TEST_API)
			.get('/invoices/1001/documents/5001')
			.reply(200, envelope(doc({ fetch_status: 'fetched', url: 'https://files.example.com/x', url_expires_in_seconds: 3600 })));
		nock('https://files.example.com').get('/x').reply(403, 'expired');
		const { error } = await run('download', { referenceType: 'id', document: '5001' });
		expect(error!.message).toBe('the file host answered HTTP 403 for the download link (HTTP 403 DOWNLOAD_FAILED)');
		expect(error!.description).toContain('Links expire 60 minutes after the service issues them');
	});
});

describe('Download fetches only from where documents live (https, public hosts, issue 49)', () => {
	const fetched = (url: string) => doc({ fetch_status: 'fetched', file_name: 'dec-1.pdf', url, url_expires_in_seconds: 3600 });
	const linkIs = (url: string) => nock(TEST_API).get('/invoices/1001/documents/5001').reply(200, envelope(fetched(url)));
	const download = (options: Record<string, unknown> = {}) => run('download', { referenceType: 'id', document: '5001', options }, { continueOnFail: true });

	it.each([
		['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'it is not https (http)'],
		['https://169.254.169.254/latest/meta-data/', 'its host is a link-local address (where clouds serve instance metadata)'],
		['https://2852039166/latest/meta-data/', 'its host is a link-local address (where clouds serve instance metadata)'],
		['https://[fd00:ec2::254]/latest/meta-data/', 'its host is a unique-local address (where clouds serve instance metadata)'],
		['https://[::ffff:169.254.169.254]/latest/', 'its host is a link-local address (where clouds serve instance metadata)'],
		['https://metadata.google.internal/computeMetadata/v1/', 'its host is an internal host name (.internal)'],
		['https://127.0.0.1:2375/containers/json', 'its host is a loopback address'],
		['http://127.0.0.1:2375/containers/json', 'it is not https (http)'],
		['https://localhost/x', 'its host is an internal host name (.localhost)'],
		['https://10.1.2.3/x', 'its host is a private address'],
		['https://[::1]/x', 'its host is a loopback or unspecified address'],
		['https://fileserver/x', 'its host is a host name without a domain (an internal name)'],
		['ftp://files.example.com/x', 'it is not https (ftp)'],
	])('refuses %s before any request, with the reason', async (url, reason) => {
		linkIs(url);
		const { output } = await download();
		expect(output![0].json).toMatchObject({
			code: 'DOWNLOAD_REFUSED',
			error: `the document’s download link was not followed: ${reason} (DOWNLOAD_REFUSED)`,
		});
		expect(String(output![0].json.description)).toContain('a name’s DNS answer is not checked');
		// The signed link is never repeated.
		expect(JSON.stringify(output![0].json)).not.toContain(url);
	});

	it('a redirect to loopback is not followed; the refusal names the hop', async () => {
		linkIs('https://files.example.com/x?sig=abc');
		const first = nock('https://files.example.com').get('/x').query(true).reply(302, '', { Location: 'https://127.0.0.1:2375/containers/json' });
		const { output } = await download();
		expect(output![0].json).toMatchObject({ code: 'DOWNLOAD_REFUSED', error: 'redirect 1 of the download link was not followed: its host is a loopback address (DOWNLOAD_REFUSED)' });
		first.done();
	});

	it('a redirect to plain http is not followed', async () => {
		linkIs('https://files.example.com/x');
		nock('https://files.example.com').get('/x').reply(301, '', { Location: 'http://files.example.com/x' });
		const { output } = await download();
		expect(output![0].json.error).toBe('redirect 1 of the download link was not followed: it is not https (http) (DOWNLOAD_REFUSED)');
	});

	it('a redirect to another public https host is followed', async () => {
		const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
		linkIs('https://files.example.com/x');
		nock('https://files.example.com').get('/x').reply(307, '', { Location: 'https://cdn.example.net/f/x.pdf' });
		nock('https://cdn.example.net').get('/f/x.pdf').reply(200, pdf);
		const { output } = await download();
		expect(output![0].json).toMatchObject({ downloaded_bytes: pdf.length });
	});

	it('an endless chain of redirects stops after 5', async () => {
		linkIs('https://files.example.com/0');
		for (let i = 0; i < 6; i++) nock('https://files.example.com').get(`/${i}`).reply(302, '', { Location: `/${i + 1}` });
		const { output } = await download();
		expect(output![0].json.error).toBe('the download link redirected more than 5 times (DOWNLOAD_REFUSED)');
	});

	it('a file larger than Max File Size is not downloaded, and the item says why: by its Content-Length', async () => {
		linkIs('https://files.example.com/big.pdf');
		nock('https://files.example.com').get('/big.pdf').reply(200, Buffer.alloc(10), { 'Content-Length': String(60 * 1024 * 1024) });
		const { output } = await download();
		expect(output![0].json).toMatchObject({
			code: 'DOWNLOAD_TOO_LARGE',
			error: 'the file is 60 MB, more than the 50 MB this node keeps in memory, so it was not downloaded (DOWNLOAD_TOO_LARGE)',
		});
		expect(String(output![0].json.description)).toContain('Raise Options → Max File Size (MB) (now 50 MB)');
	});

	it('a file larger than Max File Size is not downloaded, and the item says why: read without a length', async () => {
		linkIs('https://files.example.com/big.pdf');
		const chunk = Buffer.alloc(256 * 1024, 1);
		nock('https://files.example.com')
			.get('/big.pdf')
			.reply(200, () => Readable.from(Array.from({ length: 8 }, () => chunk)), { 'Transfer-Encoding': 'chunked' });
		const { output } = await download({ maxFileSizeMb: 1 });
		expect(output![0].json).toMatchObject({
			code: 'DOWNLOAD_TOO_LARGE',
			error: 'the file is larger than the 1 MB this node keeps in memory, so it was not downloaded (DOWNLOAD_TOO_LARGE)',
		});
	});

	it('plain http on loopback only for the credential’s own sandbox (same port): another loopback port is refused', async () => {
		const sandbox = 'http://127.0.0.1:4010/api/v1';
		const other = 'http://127.0.0.1:2375/containers/json';
		nock(sandbox).get('/invoices/1001/documents/5001').reply(200, envelope(fetched(other)));
		const { output } = await runNode({
			node,
			parameters: { resource: 'document', operation: 'download', invoiceId: byId(1001), referenceType: 'id', document: '5001' },
			credentials: { apiKey: credentials.apiKey, baseUrl: sandbox },
			continueOnFail: true,
		});
		expect(output![0].json.error).toBe('the document’s download link was not followed: it is not https (http) (DOWNLOAD_REFUSED)');
	});
});
