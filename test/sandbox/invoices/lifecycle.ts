import { centralTimestamp } from '../clock/time';
import { documentBytes, extensionFor, mimeFromName } from '../documents/content';
import type { FetchStatus, FilingStatus, StoredDocument, StoredInvoice } from './types';

// Shared by the control endpoints and the auto-advance clock, so both move things the same way.

export function setFiling(
	invoice: StoredInvoice,
	status: FilingStatus,
	now: Date,
	extra: { message?: string | null; confirmation_number?: string | null } = {},
): void {
	const f = invoice.filing;
	f.state_status = status;
	f.updated_at = centralTimestamp(now);
	if (status !== 'not_sent' && f.submission_number === null) f.submission_number = `SUB-${invoice.input.state.code}-${invoice.id}`;
	if (status === 'confirmed')
		f.confirmation_number = extra.confirmation_number ?? f.confirmation_number ?? `${invoice.input.state.code}-${now.getUTCFullYear()}-${invoice.id}`;
	else if (extra.confirmation_number !== undefined) f.confirmation_number = extra.confirmation_number;
	// The latest answer counts: a message belongs to a rejection or refusal only.
	f.message = status === 'rejected' || status === 'refused' ? (extra.message ?? f.message ?? `The state ${status} the filing`) : (extra.message ?? null);
}

export function setFetch(doc: StoredDocument, status: FetchStatus, opts: { file_size?: number; mime_type?: string } = {}): void {
	doc.fetch_status = status;
	if (status !== 'fetched') {
		doc.mime_type = null;
		doc.file_size = null;
		return;
	}
	const mime = opts.mime_type ?? doc.requested_mime_type ?? mimeFromName(doc.file_name) ?? 'application/pdf';
	doc.mime_type = mime;
	// The document store names the file; a reference sent without a name gets one with an extension.
	if (!mimeFromName(doc.file_name)) doc.file_name = `${doc.file_name}${extensionFor(mime)}`;
	doc.file_size = opts.file_size ?? documentBytes(mime, doc.file_name, null).length;
}
