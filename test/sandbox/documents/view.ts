import type { DownloadLinks } from './links';
import { LINK_LIFETIME_SECONDS } from './links';
import type { StoredDocument } from '../invoices/types';

/** The Document as replied; a fetched one gets a fresh signed link on every read. */
export function documentView(doc: StoredDocument, links: DownloadLinks): Record<string, unknown> {
	const fetched = doc.fetch_status === 'fetched';
	return {
		id: doc.id,
		doc_type: doc.doc_type,
		file_name: doc.file_name,
		mime_type: doc.mime_type,
		file_size: doc.file_size,
		is_excluded: doc.is_excluded,
		external_doc_uuid: doc.external_doc_uuid,
		fetch_status: doc.fetch_status,
		url: fetched ? links.url(doc.id, doc.file_name) : null,
		url_expires_in_seconds: fetched ? LINK_LIFETIME_SECONDS : null,
		added: doc.added,
	};
}
