import nock from 'nock';

import { runNode } from '../../harness/engine';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, envelope, failure } from '../../helpers/serviceReplies';
import { credentials, doc, node, run } from './helpers';

useNockSuite();

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
