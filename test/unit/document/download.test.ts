import nock from 'nock';

import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, envelope } from '../../helpers/serviceReplies';
import { doc, run } from './helpers';

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
