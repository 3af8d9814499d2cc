import nock from 'nock';

import { SurplusLinesDocument } from '../../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { loadOptions, runNode } from '../../harness/engine';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, TEST_BASE, TEST_KEYS, byId, envelope, failure } from '../../helpers/serviceReplies';

const node = new SurplusLinesDocument();
const credentials = { apiKey: TEST_KEYS.t2, baseUrl: TEST_BASE };

function doc(overrides: Record<string, unknown> = {}) {
	return {
		id: 5001,
		doc_type: 'declaration_page',
		file_name: 'dec-1',
		mime_type: null,
		file_size: null,
		is_excluded: false,
		external_doc_uuid: 'dec-1',
		fetch_status: 'pending',
		url: null,
		url_expires_in_seconds: null,
		added: '2026-11-22 06:00:00',
		...overrides,
	};
}

function run(operation: string, parameters: Record<string, unknown>, extra: { continueOnFail?: boolean; apiKey?: string; items?: object[] } = {}) {
	return runNode({
		node,
		parameters: { resource: 'document', operation, invoiceId: byId(1001), ...parameters },
		credentials: { ...credentials, apiKey: extra.apiKey ?? credentials.apiKey },
		continueOnFail: extra.continueOnFail,
		items: extra.items as never,
	});
}

const fakeClock = useNockSuite();

describe('Attach', () => {
	it('PUTs type, file name and MIME type to the docUUID path and says "created" on 201', async () => {
		const scope = nock(TEST_API)
			.put('/invoices/1001/documents/dec%2F2026%201', { type: 'declaration_page', filename: 'Dec page.pdf', mime_type: 'application/pdf' })
			.reply(201, envelope(doc({ external_doc_uuid: 'dec/2026 1', file_name: 'Dec page.pdf' }), 'req_put1'));
		const { output, error } = await run('attach', {
			docUUID: 'dec/2026 1',
			documentType: 'declaration_page',
			additionalFields: { filename: 'Dec page.pdf', mimeType: 'application/pdf' },
		});
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 5001, external_doc_uuid: 'dec/2026 1', outcome: 'created', created: true });
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

describe('Get', () => {
	it('reads a docUUID directly and adds when the fresh link expires', async () => {
		const scope = nock(TEST_API)
			.get('/invoices/1001/documents/dec-1')
			.reply(200, envelope(doc({ fetch_status: 'fetched', url: 'https://files.example.com/a?sig=1', url_expires_in_seconds: 3600 })));
		const { output } = await run('get', { referenceType: 'docUUID', document: 'dec-1' });
		// The fake clock starts at 2026-11-22T12:00:00Z; the link is valid 3600 s.
		expect(output![0].json).toMatchObject({ id: 5001, url_expires_at: '2026-11-22T13:00:00.000Z' });
		scope.done();
	});

	it('reads a service id directly', async () => {
		const scope = nock(TEST_API).get('/invoices/1001/documents/5001').reply(200, envelope(doc()));
		const { output } = await run('get', { referenceType: 'id', document: '5001' });
		expect(output![0].json.id).toBe(5001);
		expect(output![0].json.url_expires_at).toBeUndefined();
		scope.done();
	});

	it('finds an all-digit docUUID in the document list, then reads it by its service id (2 calls)', async () => {
		const scope = nock(TEST_API)
			.get('/invoices/1001/documents')
			.reply(200, envelope({ documents: [doc(), doc({ id: 5007, external_doc_uuid: '5001' })] }))
			.get('/invoices/1001/documents/5007')
			.reply(200, envelope(doc({ id: 5007, external_doc_uuid: '5001' })));
		const { output } = await run('get', { referenceType: 'docUUID', document: '5001' });
		expect(output![0].json).toMatchObject({ id: 5007, external_doc_uuid: '5001' });
		scope.done();
	});

	it('says when an all-digit docUUID is not on the invoice and how to ask for the service id', async () => {
		nock(TEST_API).get('/invoices/1001/documents').reply(200, envelope({ documents: [doc()] }), {});
		const { error } = await run('get', { referenceType: 'docUUID', document: '42' });
		expect(error!.message).toBe('Not found on this key’s account (HTTP 404 NOT_FOUND): invoice 1001 has no document with docUUID "42"');
		expect(error!.description).toContain('set Reference Type to Service Document ID');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('refuses a service id that is not a whole number, and a non-numeric invoice, without a call', async () => {
		const a = await run('get', { referenceType: 'id', document: 'dec-1' });
		expect(a.error!.message).toBe('Invalid input, nothing was sent: Document: a service document ID is a whole number');
		const b = await runNode({
			node,
			parameters: { resource: 'document', operation: 'get', invoiceId: { __rl: true, mode: 'list', value: 'abc' }, referenceType: 'id', document: '1' },
			credentials,
		});
		expect(b.error!.message).toContain('Invoice: must be the service’s invoice ID');
	});

	it('gives a continue-on-fail item with code, HTTP status and request id for a service 404', async () => {
		nock(TEST_API)
			.get('/invoices/1001/documents/nope')
			.reply(404, failure('NOT_FOUND', 'Document nope not found on invoice 1001', undefined, 'req_404a'));
		const { output } = await run('get', { referenceType: 'docUUID', document: 'nope' }, { continueOnFail: true });
		expect(output![0].json).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404, requestId: 'req_404a' });
		expect(output![0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Get Many', () => {
	it('returns one item per document, up to the limit', async () => {
		const docs = [doc(), doc({ id: 5002 }), doc({ id: 5003 })];
		nock(TEST_API).get('/invoices/1001/documents').twice().reply(200, envelope({ documents: docs }));
		const limited = await run('getAll', { returnAll: false, limit: 2 });
		expect(limited.output!.map((i) => i.json.id)).toEqual([5001, 5002]);
		const all = await run('getAll', { returnAll: true });
		expect(all.output!.map((i) => i.json.id)).toEqual([5001, 5002, 5003]);
	});
});

describe('Delete', () => {
	it('DELETEs by docUUID and reports what was deleted', async () => {
		const scope = nock(TEST_API).delete('/invoices/1001/documents/dec-1').reply(204);
		const { output } = await run('delete', { referenceType: 'docUUID', document: 'dec-1' });
		expect(output![0].json).toEqual({ deleted: true, invoiceId: 1001, referenceType: 'docUUID', document: 'dec-1' });
		scope.done();
	});

	it('404 counts as deleted (already gone), with a note', async () => {
		const scope = nock(TEST_API).delete('/invoices/1001/documents/dec-1').reply(404, failure('NOT_FOUND', 'Document not found'));
		const { output, error } = await run('delete', { referenceType: 'docUUID', document: 'dec-1' });
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ deleted: true, already_gone: true, invoiceId: 1001, document: 'dec-1' });
		scope.done();
	});

	it('refuses a t1 key before any call', async () => {
		const { error } = await run('delete', { referenceType: 'id', document: '5001' }, { apiKey: TEST_KEYS.t1 });
		expect(error!.message).toContain('Delete Document needs a t2 (Standard) key');
	});
});

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

describe('Wait Until Fetched', () => {
	it('checks at the set interval until fetched and says how long it waited', async () => {
		const scope = nock(TEST_API)
			.get('/invoices/1001/documents/dec-1')
			.reply(200, envelope(doc()))
			.get('/invoices/1001/documents/dec-1')
			.reply(200, envelope(doc({ fetch_status: 'fetching' })))
			.get('/invoices/1001/documents/dec-1')
			.reply(200, envelope(doc({ fetch_status: 'fetched', url: 'https://files.example.com/a', url_expires_in_seconds: 3600 })));
		const { output } = await run('waitUntilFetched', { referenceType: 'docUUID', document: 'dec-1', maxWaitSeconds: 300, intervalSeconds: 20 });
		expect(fakeClock().sleeps).toEqual([20000, 20000]);
		expect(output![0].json).toMatchObject({ fetch_status: 'fetched', wait: { outcome: 'fetched', checks: 3, waited_seconds: 40 } });
		scope.done();
	});

	it('returns a failed fetch at once (it will not change by itself)', async () => {
		nock(TEST_API).get('/invoices/1001/documents/5001').reply(200, envelope(doc({ fetch_status: 'failed' })));
		const { output } = await run('waitUntilFetched', { referenceType: 'id', document: '5001', maxWaitSeconds: 60, intervalSeconds: 5 });
		expect(output![0].json.wait).toEqual({ outcome: 'failed', checks: 1, waited_seconds: 0 });
		expect(fakeClock().sleeps).toEqual([]);
	});

	it('stops at the max wait: 4 checks in 30 s at 10 s, then fails naming the last status', async () => {
		nock(TEST_API).get('/invoices/1001/documents/5001').times(4).reply(200, envelope(doc(), 'req_last'));
		const { error } = await run('waitUntilFetched', { referenceType: 'id', document: '5001', maxWaitSeconds: 30, intervalSeconds: 10 });
		expect(fakeClock().sleeps).toEqual([10000, 10000, 10000]);
		expect(error!.message).toBe('document 5001 was still "pending" after 30 s (4 checks) (WAIT_TIMED_OUT)');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('returns the document as last seen when asked to on timeout; the last sleep is cut to the bound', async () => {
		nock(TEST_API).get('/invoices/1001/documents/5001').times(3).reply(200, envelope(doc({ fetch_status: 'fetching' })));
		const { output } = await run('waitUntilFetched', {
			referenceType: 'id',
			document: '5001',
			maxWaitSeconds: 25,
			intervalSeconds: 15,
			onTimeout: 'return',
		});
		expect(fakeClock().sleeps).toEqual([15000, 10000]);
		expect(output![0].json.wait).toEqual({ outcome: 'timed_out', checks: 3, waited_seconds: 25 });
	});

	it('refuses bounds out of range before any call', async () => {
		const { error } = await run('waitUntilFetched', { referenceType: 'id', document: '5001', maxWaitSeconds: 4000, intervalSeconds: 0 });
		expect(error!.description).toContain('Max Wait (Seconds): from 0 to 3600 (got 4000)');
		expect(error!.description).toContain('Check Every (Seconds): from 1 to 3600 (got 0)');
	});
});

describe('dropdowns', () => {
	it('document types say which go to the state; invoices are found by policy number', async () => {
		nock(TEST_API)
			.get('/reference/document-types')
			.reply(200, envelope({ document_types: [{ code: 'sl2_form', name: 'SL-2 Form', sent_to_state: true }, { code: 'quote', name: 'Quote', sent_to_state: false }] }))
			.get('/invoices')
			.query({ policy_number: 'POL-1', page: 1, per_page: 100 })
			.reply(200, envelope({ invoices: [{ id: 1001, policy_number: 'POL-1', type: { id: 1, name: 'New' }, effective_date: '2026-01-01', status: 'new' }] }));
		const base = { node, parameters: { resource: 'document', operation: 'attach' }, credentials };
		expect(await loadOptions({ ...base, kind: 'loadOptions', method: 'getDocumentTypes' })).toEqual([
			{ name: 'SL-2 Form', value: 'sl2_form', description: 'Goes to the state with the filing' },
			{ name: 'Quote', value: 'quote', description: 'Kept for the operator only' },
		]);
		expect(await loadOptions({ ...base, kind: 'listSearch', method: 'searchInvoices', filter: 'POL-1' })).toEqual({
			results: [{ name: '#1001 · POL-1 · New 2026-01-01 · new', value: '1001' }],
		});
	});
});
