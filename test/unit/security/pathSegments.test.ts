/**
 * A document reference or an invoice id taken from input never reaches a request path where a
 * server could read it as another path (issue 49: Delete with ".." deleted the invoice).
 */
import nock from 'nock';

import { PATHS } from '../../../nodes/shared/service';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API } from '../../helpers/serviceReplies';
import { run } from '../document/helpers';

useNockSuite();

const HOSTILE = ['..', '.', '%2e%2e', '%2E.', '../x', 'a/b', 'a%2Fb', 'a\\b', '..;x', '...', '．．', 'a／b', 'a\u0000b'];

describe('a docUUID that a server could read as another path', () => {
	// Any call at all to the invoice is a failure: the interceptors are there to be left unused.
	const anyCall = () =>
		nock(TEST_API)
			.get(/.*/)
			.reply(200, {})
			.delete(/.*/)
			.reply(204)
			.put(/.*/)
			.reply(201, {});

	it.each(HOSTILE)('Delete, Get, Download, Wait Until Fetched and Attach refuse %j before any call', async (value) => {
		const scope = anyCall();
		for (const operation of ['delete', 'get', 'download', 'waitUntilFetched']) {
			const { error } = await run(operation, { referenceType: 'docUUID', document: value, maxWaitSeconds: 30, intervalSeconds: 10 });
			expect(error!.message).toMatch(/^Invalid input, nothing was sent: Document: must not /);
			expect(error!.description).toContain('reached by its Service Document ID');
		}
		const { error } = await run('attach', { docUUID: value, documentType: 'quote' });
		expect(error!.message).toMatch(/^Invalid input, nothing was sent: docUUID: must not /);
		expect(scope.isDone()).toBe(false);
		expect(nock.pendingMocks()).toHaveLength(3);
	});

	it('names the rule each form breaks', async () => {
		const lines = await Promise.all(
			['..', 'a%2Fb', 'a\u0007'].map(async (document) => (await run('get', { referenceType: 'docUUID', document })).error!.message),
		);
		expect(lines).toEqual([
			'Invalid input, nothing was sent: Document: must not start with a dot (a server may read ".", ".." or "..;x" as a step up the path); a document attached with such a docUUID is reached by its Service Document ID',
			'Invalid input, nothing was sent: Document: must not contain "/", "\\" or "%" (a server may read it as more than one path segment, or decode it into one); a document attached with such a docUUID is reached by its Service Document ID',
			'Invalid input, nothing was sent: Document: must not contain control characters (a server may cut the path there); a document attached with such a docUUID is reached by its Service Document ID',
		]);
	});

	it('still sends a docUUID with dots, spaces and other characters inside it, encoded as one segment', async () => {
		const scope = nock(TEST_API).delete('/invoices/1001/documents/dec.page%20v2..pdf%3Bx%3F').reply(204);
		const { error } = await run('delete', { referenceType: 'docUUID', document: 'dec.page v2..pdf;x?' });
		expect(error).toBeUndefined();
		scope.done();
	});
});

describe('the path builder, the last guard', () => {
	it.each(HOSTILE)('refuses the document reference %j', (value) => {
		expect(() => PATHS.document(1001, value)).toThrow(/^Document reference refused for the request path: must not /);
	});

	it.each(['..', '1001/..', '1001%2F..', ' 1001', '-1', '1e3', '', '１００１'])('refuses the invoice id %j in every invoice path', (id) => {
		expect(() => PATHS.invoice(id)).toThrow(/^Invoice ID refused for the request path: must be a whole number/);
		expect(() => PATHS.documents(id)).toThrow(/^Invoice ID refused/);
		expect(() => PATHS.document(id, 'dec-1')).toThrow(/^Invoice ID refused/);
	});

	it('builds the paths of ids and references that mean themselves', () => {
		expect(PATHS.invoice(1001)).toBe('/invoices/1001');
		expect(PATHS.document('1001', 'a b')).toBe('/invoices/1001/documents/a%20b');
		expect(PATHS.document(1001, 5001)).toBe('/invoices/1001/documents/5001');
	});
});
