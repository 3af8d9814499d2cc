/**
 * What each end-to-end workflow must do. Every check reads real values: the nodes' outputs in the
 * run n8n recorded, and the sandbox's state read back through the service API.
 */
import assert from 'node:assert/strict';

import { api, invoiceBody, storedBinary, type Scenario } from './context';
import { items, json } from './runData';

export type { Context, Scenario } from './context';

const documents: Scenario = {
	name: 'documents',
	workflow: 'documents.json',
	// The invoice the documents go on is made through the API: this workflow is about documents.
	async before(ctx) {
		const created = await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: 'E2E-DOCS-1' }));
		assert.equal(created.status, 201, `setup: create invoice: ${JSON.stringify(created.error)}`);
		assert.equal(created.data.id, 1001, 'setup: the sandbox was reset, so the first invoice is 1001');
	},
	async check(run, ctx) {
		const [attached] = json(run, 'Attach Declaration Page');
		assert.equal(attached.outcome, 'created');
		assert.equal(attached.fetch_status, 'pending');
		assert.equal(attached.doc_type, 'declaration_page');
		assert.equal(attached.external_doc_uuid, 'e2e-dec-page-1');
		assert.equal(typeof attached.id, 'number');

		const [again] = json(run, 'Attach Same docUUID Again');
		assert.equal(again.outcome, 'updated', 'attaching the same docUUID again updates it');
		assert.equal(again.id, attached.id);

		const [bad] = json(run, 'Attach With Bad Type');
		const badText = JSON.stringify(bad);
		assert.equal(bad.code, 'INVALID_INPUT', `continue-on-fail gives an error item, got ${badText}`);
		assert.deepEqual(bad.fields, ['Document Type: letters, digits, underscore or hyphen only']);

		const [waited] = json(run, 'Wait Until Fetched');
		assert.equal(waited.fetch_status, 'fetched');
		assert.equal((waited.wait as { outcome: string }).outcome, 'fetched');

		const [downloaded] = items(run, 'Download');
		assert.equal(downloaded.json.downloaded_bytes, 4096, 'the file is the size the sandbox was told');
		assert.equal(downloaded.json.url, undefined, 'the download output leaves the expiring link out');
		const file = downloaded.binary?.file;
		assert.ok(file, 'the file is in the binary field "file"');
		assert.equal(file.mimeType, 'application/pdf');
		assert.equal(file.fileName, 'dec-page-v2.pdf', 'the name given on the second attach');
		const bytes = storedBinary(ctx, file);
		assert.equal(bytes.length, 4096);
		assert.equal(bytes.subarray(0, 5).toString(), '%PDF-', 'the stored file is the PDF the link served');

		const listed = json(run, 'List Documents');
		assert.deepEqual(
			listed.map((d) => d.external_doc_uuid),
			['e2e-dec-page-1'],
			'one document: the re-attach updated it, the bad one was never sent',
		);

		// The service's own view agrees.
		const invoice = await api(ctx, 'GET', '/invoices/1001');
		const docs = invoice.data.documents as Array<{ file_name: string; fetch_status: string }>;
		assert.equal(docs.length, 1);
		assert.equal(docs[0].fetch_status, 'fetched');
	},
};

export const SCENARIOS: Scenario[] = [documents];
