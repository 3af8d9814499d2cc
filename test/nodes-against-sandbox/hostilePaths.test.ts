/**
 * Issue 49: a docUUID of ".." sent DELETE /invoices/{id}/ and the sandbox deleted the invoice.
 * Every form a server could read as a step up or as more than one segment is refused before any
 * call: the invoice and its document are still there afterwards.
 */
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { runNode } from '../harness/engine';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { byId } from '../helpers/serviceReplies';
import { keyByName } from '../sandbox';
import { client, invoiceBody } from '../sandbox/testkit';

const node = new SurplusLinesDocument();
const sb = useSandboxSuite();
let invoiceId: number;

const api = () => client(sb.baseUrl, keyByName('t2').key);

function run(operation: string, document: string) {
	return runNode({
		node,
		parameters: { resource: 'document', operation, invoiceId: byId(invoiceId), referenceType: 'docUUID', document },
		credentials: { apiKey: keyByName('t2').key, baseUrl: sb.baseUrl },
	});
}

beforeEach(async () => {
	invoiceId = (await api().post('/invoices', invoiceBody())).data.data.id;
	await api().put(`/invoices/${invoiceId}/documents/dec-1`, { type: 'quote' });
});

it.each(['..', '.', '%2e%2e', '../x'])('Delete and Get with docUUID %j are refused; the invoice and its document stay', async (document) => {
	const remaining = async () => Number((await api().get('/auth/me')).headers['x-ratelimit-remaining']);
	const before = await remaining();
	for (const operation of ['delete', 'get']) {
		const { error } = await run(operation, document);
		expect(error!.message).toMatch(/^Invalid input, nothing was sent: Document: must not /);
	}
	expect(before - (await remaining()) - 1).toBe(0);
	const invoice = await api().get(`/invoices/${invoiceId}`);
	expect(invoice.status).toBe(200);
	expect(invoice.data.data.documents.map((d: { external_doc_uuid: string }) => d.external_doc_uuid)).toEqual(['dec-1']);
});
