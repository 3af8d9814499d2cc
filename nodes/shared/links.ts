import type { IDataObject } from 'n8n-workflow';

import { withUtcTimes } from './dates';
import { clock } from './timing';

/**
 * A document as the service replied, without its download link: the link is signed, works
 * without a key for 60 minutes and would be kept in the execution history, so no output carries
 * it (Download is the way to the file). Instead: `file_ready` (a file can be downloaded now) and,
 * when the reply had a link, `url_expires_at` (when that link would expire).
 */
export function documentJson(doc: IDataObject): IDataObject {
	const hasLink = typeof doc.url === 'string' && doc.url !== '';
	const json: IDataObject = {
		...withoutLink(withUtcTimes(doc)),
		file_ready: doc.fetch_status === 'fetched' && hasLink,
	};
	const seconds = doc.url_expires_in_seconds;
	if (hasLink && typeof seconds === 'number') {
		json.url_expires_at = new Date(clock.now() + seconds * 1000).toISOString();
	}
	return json;
}

/** Metadata without the link and its lifetime, for Download's item next to the file. */
export function withoutLink(doc: IDataObject): IDataObject {
	const rest = { ...doc };
	delete rest.url;
	delete rest.url_expires_in_seconds;
	return rest;
}

/** An invoice as replied, its documents without their links (an invoice read lists them). */
export function invoiceWithoutLinks(invoice: IDataObject): IDataObject {
	if (!Array.isArray(invoice.documents)) return { ...invoice };
	return {
		...invoice,
		documents: (invoice.documents as unknown[]).map((doc) =>
			doc && typeof doc === 'object' ? documentJson(doc as IDataObject) : doc,
		),
	};
}

/** A trigger event: its invoice and its document without links. */
export function eventWithoutLinks(event: IDataObject): IDataObject {
	const json = { ...event };
	if (json.invoice && typeof json.invoice === 'object')
		json.invoice = invoiceWithoutLinks(json.invoice as IDataObject);
	if (json.document && typeof json.document === 'object')
		json.document = documentJson(json.document as IDataObject);
	return json;
}
