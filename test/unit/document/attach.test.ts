import nock from 'nock';

import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, TEST_KEYS, envelope } from '../../helpers/serviceReplies';
import { doc, run } from './helpers';

useNockSuite();

describe('Attach', () => {
	it('PUTs type, file name and MIME type to the docUUID path and says "created" on 201', async () => {
		const scope = nock(TEST_API)
			.put('/invoices/1001/documents/dec%202026%201', { type: 'declaration_page', filename: 'Dec page.pdf', mime_type: 'application/pdf' })
			.reply(201, envelope(doc({ external_doc_uuid: 'dec 2026 1', file_name: 'Dec page.pdf' }), 'req_put1'));
		const { output, error } = await run('attach', {
			docUUID: 'dec 2026 1',
			documentType: 'declaration_page',
			additionalFields: { filename: 'Dec page.pdf', mimeType: 'application/pdf' },
		});
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 5001, external_doc_uuid: 'dec 2026 1', outcome: 'created', created: true });
		expect(output![0].pairedItem).toEqual({ item: 0 });
		scope.done();
	});

	it('says "updated" on 200 (same docUUID again) and sends an all-digit docUUID as it is', async () => {
		const scope = nock(TEST_API)
			.put('/invoices/1001/documents/123456', { type: 'quote' })
			.reply(200, envelope(doc({ id: 5002, external_doc_uuid: '123456', doc_type: 'quote' })));
		const { output } = await run('attach', { docUUID: '123456', documentType: 'quote' });
		expect(output![0].json).toMatchObject({ id: 5002, outcome: 'updated', created: false });
		scope.done();
	});

	it('lists every local problem at once and makes no call', async () => {
		const { error } = await run('attach', {
			docUUID: 'x'.repeat(257),
			documentType: 'declaration page!',
			additionalFields: { filename: 'f'.repeat(256), mimeType: 'text/plain' },
		});
		expect(error!.message).toBe('Invalid input, nothing was sent: Document Type: May contain only letters, digits, underscore or hyphen');
		expect(error!.description!.split('\n')).toEqual([
			'Document Type: May contain only letters, digits, underscore or hyphen',
			'docUUID: Must not exceed 256 characters (got 257)',
			'File Name: Must not exceed 255 characters (got 256)',
			'MIME Type: Must be one of: application/pdf, image/png, image/jpeg, image/jpg',
			'Fix the item and run again. No call to the service was made.',
		]);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('refuses a type over 50 characters and an empty docUUID', async () => {
		const { output } = await run('attach', { docUUID: ' ', documentType: 'a'.repeat(51) }, { continueOnFail: true });
		expect(output![0].json).toMatchObject({
			code: 'INVALID_INPUT',
			fields: ['Document Type: Must not exceed 50 characters (got 51)', 'docUUID: This field is required'],
		});
	});

	it('refuses a t1 key before any call, naming the tier', async () => {
		const { error } = await run('attach', { docUUID: 'a', documentType: 'quote' }, { apiKey: TEST_KEYS.t1 });
		expect(error!.message).toBe('Attach Document needs a t2 (Standard) key or higher; this credential\'s key is t1 (Basic)');
	});
});
