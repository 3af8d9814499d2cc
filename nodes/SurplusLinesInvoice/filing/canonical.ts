/**
 * The one form of an invoice create body, applied last before its Idempotency-Key is derived and
 * it is sent: every way of writing the same invoice (Fields, JSON, Map Columns, the input item,
 * either node version) gives the same body, so the same key, and one filing.
 *
 * - the type the service would file anyway is written out (no type_code is NEW);
 * - text is trimmed ("Acme " is "Acme");
 * - null, empty text and empty lists or objects are left out, as an absent field is;
 * - the lists whose order the service does not keep any meaning in (fees, coverages, documents)
 *   are sorted by their code; a coverage's limits keep their order, and so do insurers and a
 *   group's companies: they may be adapted to the account (a NAIC becomes a company id), and an
 *   order taken from that would make the filing depend on the account.
 */
import type { IDataObject } from 'n8n-workflow';

import { canonicalJson } from './idempotency';
import { DEFAULT_TYPE_CODE } from '../../shared/rules';

const UNORDERED_LISTS = new Set(['fees', 'coverages', 'documents']);

/** A list entry's place: by its code (fee type, coverage code, document id), then all of it. */
function sortText(item: unknown): string {
	const entry = (item && typeof item === 'object' ? item : {}) as IDataObject;
	const name = entry.type ?? entry.code ?? entry.docUUID;
	return `${typeof name === 'string' ? name : ''}\u0000${canonicalJson(item)}`;
}

function tidy(value: unknown, field?: string): unknown {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'string') {
		const text = value.trim();
		return text === '' ? undefined : text;
	}
	if (Array.isArray(value)) {
		const items = value.map((item) => tidy(item)).filter((item) => item !== undefined);
		if (!items.length) return undefined;
		if (!field || !UNORDERED_LISTS.has(field)) return items;
		const keyed = items.map((item) => ({ item, text: sortText(item) }));
		keyed.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
		return keyed.map(({ item }) => item);
	}
	if (typeof value === 'object') {
		const out: IDataObject = {};
		for (const [name, inner] of Object.entries(value as IDataObject)) {
			const kept = tidy(inner, name);
			if (kept !== undefined) out[name] = kept as IDataObject[keyof IDataObject];
		}
		return Object.keys(out).length ? out : undefined;
	}
	return value;
}

/** The create body in its one form (see above); the input is not changed. */
export function canonicalInvoice(body: IDataObject): IDataObject {
	const canonical = (tidy(body) ?? {}) as IDataObject;
	canonical.type_code ??= DEFAULT_TYPE_CODE;
	return canonical;
}
