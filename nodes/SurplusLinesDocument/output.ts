import type { IDataObject } from 'n8n-workflow';

import { withUtcTimes } from '../shared/dates';
import { clock } from '../shared/timing';

/**
 * A document as the service replied, plus `url_expires_at`: the download link is valid for a
 * limited time (60 minutes) and must be fetched again, never stored.
 */
export function documentJson(doc: IDataObject): IDataObject {
	const seconds = doc.url_expires_in_seconds;
	if (!doc.url || typeof seconds !== 'number') return withUtcTimes(doc);
	return {
		...withUtcTimes(doc),
		url_expires_at: new Date(clock.now() + seconds * 1000).toISOString(),
	};
}

/** Metadata without the link, for outputs whose point is not the link (Download). */
export function withoutLink(doc: IDataObject): IDataObject {
	const rest = { ...doc };
	delete rest.url;
	delete rest.url_expires_in_seconds;
	return rest;
}
