/** What every Document test file shares: the node, its credential, a document reply, and a run. */
import { SurplusLinesDocument } from '../../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { runNode } from '../../harness/engine';
import { TEST_BASE, TEST_KEYS, byId } from '../../helpers/serviceReplies';

export const node = new SurplusLinesDocument();
export const credentials = { apiKey: TEST_KEYS.t2, baseUrl: TEST_BASE };

export function doc(overrides: Record<string, unknown> = {}) {
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

export function run(operation: string, parameters: Record<string, unknown>, extra: { continueOnFail?: boolean; apiKey?: string; items?: object[] } = {}) {
	return runNode({
		node,
		parameters: { resource: 'document', operation, invoiceId: byId(1001), ...parameters },
		credentials: { ...credentials, apiKey: extra.apiKey ?? credentials.apiKey },
		continueOnFail: extra.continueOnFail,
		items: extra.items as never,
	});
}
