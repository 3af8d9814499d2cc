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
 *
 * The key reads one thing more (`oneFeeCodePerColumn`): the two codes of a fee alias pair as one.
 */
import type { IDataObject } from 'n8n-workflow';

import { BILLED_TAX_OF, DEFAULT_TYPE_CODE, FEE_ALIAS_PAIRS } from '../shared/rules';

/**
 * JSON with object keys sorted at every level: the same value always gives the same text. Built
 * by plain concatenation: it runs for every row a run files, and the text must never change (a
 * derived key that changed would file a re-run's rows again).
 */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) {
		let text = '[';
		for (let n = 0; n < value.length; n++) text += (n ? ',' : '') + canonicalJson(value[n]);
		return `${text}]`;
	}
	if (value && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		let text = '';
		// Default sort compares UTF-16 code units, as `<` does.
		for (const key of Object.keys(record).sort()) {
			if (record[key] === undefined) continue;
			text += `${text ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(record[key])}`;
		}
		return `{${text}}`;
	}
	return JSON.stringify(value ?? null);
}

const UNORDERED_LISTS = new Set(['fees', 'coverages', 'documents']);

/** A list entry's place: by its code (fee type, coverage code, document id), then all of it. */
function sortText(item: unknown): string {
	const entry = (item && typeof item === 'object' ? item : {}) as IDataObject;
	const name = entry.type ?? entry.code ?? entry.docUUID;
	return `${typeof name === 'string' ? name : ''}\u0000${canonicalJson(item)}`;
}

function sortedByCode(items: unknown[]): unknown[] {
	const keyed = items.map((item) => ({ item, text: sortText(item) }));
	keyed.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
	return keyed.map(({ item }) => item);
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
		return field && UNORDERED_LISTS.has(field) ? sortedByCode(items) : items;
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

const ALIAS_TARGET = new Map(FEE_ALIAS_PAIRS.map(([alias, target]) => [alias, target]));

/**
 * The canonical body as its Idempotency-Key reads it: a fee written with either code of an alias
 * pair (one stored column) is the same fee, so a re-run that writes the other code is the same
 * filing (the service answers 409 to the key, and the node finds the first filing). A tax line of
 * 0 is no tax line, as it was before a sheet's 0 tax was sent: the same row keeps its key. The
 * body is still sent with the lines and codes the row gave: it is stored as sent.
 */
export function oneFeeCodePerColumn(body: unknown): unknown {
	const fees = (body as IDataObject | undefined)?.fees;
	const folds = (fee: unknown) => {
		const { type, amount } = (fee ?? {}) as IDataObject;
		return ALIAS_TARGET.has(String(type)) || (amount === 0 && BILLED_TAX_OF.has(String(type)));
	};
	if (!Array.isArray(fees) || !fees.some(folds)) return body;
	const folded = (fees as IDataObject[])
		.filter((fee) => !(fee?.amount === 0 && BILLED_TAX_OF.has(String(fee?.type))))
		.map((fee) => {
			const target = ALIAS_TARGET.get(String(fee?.type));
			return target ? { ...fee, type: target } : fee;
		});
	const rest = { ...(body as IDataObject) };
	if (folded.length) rest.fees = sortedByCode(folded) as IDataObject[];
	else delete rest.fees;
	return rest;
}
