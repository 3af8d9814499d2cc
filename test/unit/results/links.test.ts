/** No output carries a signed download link: documents say whether the file is ready instead. */
import nock from 'nock';

import { SurplusLinesDocument } from '../../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { eventWithoutLinks } from '../../../nodes/shared/links';
import { runNode } from '../../harness/engine';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, TEST_BASE, TEST_KEYS, byId, envelope } from '../../helpers/serviceReplies';

const credentials = { apiKey: TEST_KEYS.t2, baseUrl: TEST_BASE };
const LINK = 'https://files.example.com/files/5001/dec.pdf?expires=1&sig=abcdef';
const fetched = { id: 5001, doc_type: 'declaration_page', file_name: 'dec.pdf', external_doc_uuid: 'dec-1', fetch_status: 'fetched', url: LINK, url_expires_in_seconds: 3600 };
const pending = { ...fetched, id: 5002, external_doc_uuid: 'dec-2', fetch_status: 'pending', url: null, url_expires_in_seconds: null };

useNockSuite();

function document(operation: string, parameters: Record<string, unknown>) {
	return runNode({
		node: new SurplusLinesDocument(),
		parameters: { resource: 'document', operation, invoiceId: byId(1001), ...parameters },
		credentials,
	});
}

describe('Document outputs', () => {
	it('Get: file_ready and url_expires_at, no url', async () => {
		nock(TEST_API).get('/invoices/1001/documents/dec-1').reply(200, envelope(fetched));
		const { output } = await document('get', { referenceType: 'docUUID', document: 'dec-1' });
		expect(output![0].json).toMatchObject({ id: 5001, file_ready: true, url_expires_at: '2026-11-22T13:00:00.000Z' });
		expect(output![0].json).not.toHaveProperty('url');
		expect(output![0].json).not.toHaveProperty('url_expires_in_seconds');
	});

	it('Get Many: every document without its link; a pending one is not ready', async () => {
		nock(TEST_API).get('/invoices/1001/documents').reply(200, envelope({ documents: [fetched, pending] }));
		const { output } = await document('getAll', { returnAll: true });
		expect(output!.map((o) => o.json.file_ready)).toEqual([true, false]);
		expect(JSON.stringify(output)).not.toContain('sig=');
	});

	it('Wait Until Fetched: the settled document without its link', async () => {
		nock(TEST_API).get('/invoices/1001/documents/dec-1').reply(200, envelope(fetched));
		const { output } = await document('waitUntilFetched', { referenceType: 'docUUID', document: 'dec-1', maxWaitSeconds: 60, intervalSeconds: 5 });
		expect(output![0].json).toMatchObject({ fetch_status: 'fetched', file_ready: true, wait: { outcome: 'fetched', checks: 1 } });
		expect(JSON.stringify(output)).not.toContain('sig=');
	});
});

describe('Invoice outputs and trigger events', () => {
	it('Get (full): the invoice’s documents without links', async () => {
		nock(TEST_API).get('/invoices/1001').reply(200, envelope({ id: 1001, policy_number: 'P', status: 'new', documents: [fetched, pending] }));
		const { output } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'get', invoiceId: byId(1001) },
			credentials,
		});
		expect((output![0].json.documents as Array<{ file_ready: boolean }>).map((d) => d.file_ready)).toEqual([true, false]);
		expect(JSON.stringify(output)).not.toContain('sig=');
	});

	it('a trigger event: its invoice and document without links', () => {
		const event = eventWithoutLinks({ event: 'document_fetch_status_changed', document: fetched, invoice: { id: 1, documents: [fetched] } });
		expect(JSON.stringify(event)).not.toContain('sig=');
		expect(event.document).toMatchObject({ id: 5001, file_ready: true });
	});
});
