import nock from 'nock';

import { loadOptions } from '../../harness/engine';
import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, envelope } from '../../helpers/serviceReplies';
import { credentials, node } from './helpers';

useNockSuite();

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
