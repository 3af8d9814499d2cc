import nock from 'nock';

import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, TEST_KEYS, failure } from '../../helpers/serviceReplies';
import { run } from './helpers';

useNockSuite();

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
