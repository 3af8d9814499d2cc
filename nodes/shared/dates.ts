/**
 * Dates and times in one convention. Dates go to the service as YYYY-MM-DD whatever n8n hands over
 * (the date picker's `2026-06-01T00:00:00`, an expression's DateTime, a plain string); times come
 * out in UTC ISO 8601 next to the service's US Central originals, which stay for saved workflows.
 */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { SERVICE_LOCAL_TIME_FIELDS, SERVICE_TIME_ZONE } from './service';

/** A date parameter as YYYY-MM-DD; undefined when blank; anything else passes as text for the checks. */
export function dateOnly(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const maybeDateTime = value as { toISODate?: () => string | null };
	if (typeof maybeDateTime.toISODate === 'function')
		return maybeDateTime.toISODate() ?? String(value);
	if (value instanceof Date && !Number.isNaN(value.getTime()))
		return value.toISOString().slice(0, 10);
	const text = String(value).trim();
	const match = /^(\d{4}-\d{2}-\d{2})(T.*)?$/.exec(text);
	return match ? match[1] : text;
}

// A batch reply's invoices share a handful of timestamps, and luxon's zone arithmetic was the
// costliest step of a 10,000-row Create Many: each text is converted once (the map is bounded).
const utcOfServiceTime = new Map<string, string | undefined>();
const REMEMBERED_TIMES = 1000;

function convertServiceTime(text: string): string | undefined {
	const local = DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone: SERVICE_TIME_ZONE });
	return local.isValid ? (local.toUTC().toISO() ?? undefined) : undefined;
}

/** `2026-11-22 12:04:05` (US Central, no zone) → `2026-11-22T18:04:05.000Z`; undefined if not that form. */
export function serviceTimeToUtc(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (utcOfServiceTime.has(text)) return utcOfServiceTime.get(text);
	if (utcOfServiceTime.size >= REMEMBERED_TIMES) utcOfServiceTime.clear();
	const utc = convertServiceTime(text);
	utcOfServiceTime.set(text, utc);
	return utc;
}

/** Adds `<field>_utc` beside each service-local time of the record and of its documents[]. */
export function withUtcTimes(record: IDataObject): IDataObject {
	const out: IDataObject = { ...record };
	for (const field of SERVICE_LOCAL_TIME_FIELDS) {
		const utc = serviceTimeToUtc(record[field]);
		if (utc) out[`${field}_utc`] = utc;
	}
	if (Array.isArray(record.documents)) {
		out.documents = (record.documents as unknown[]).map((doc) =>
			doc !== null && typeof doc === 'object' && !Array.isArray(doc)
				? withUtcTimes(doc as IDataObject)
				: doc,
		);
	}
	return out;
}
