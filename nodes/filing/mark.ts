/**
 * The mark the package writes on every filing, so that a re-run, a recovery after a lost reply and
 * a reconciliation recognise the package's own filings by an exact match, on every kind of account
 * (the service never shows an idempotency key). The mark is the invoice's `invoice_number`, "the
 * caller's own reference": the sheet's own invoice number where it gives one, else a reference
 * derived from the row. A derived mark is `SL` and 16 characters of A-Z and 2-7 (a base32 digest of
 * the row's canonical body without its invoice number): letters in one case and digits, starting
 * with a letter, so no leading zero a service could drop and no case a service could change tells
 * two marks apart that are one (MARK_RULE in nodes/shared/service.ts).
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { MARK_FIELD } from '../shared/service';
import { canonicalInvoice, canonicalJson, oneFeeCodePerColumn } from './canonical';

/** The first release's derivation of a mark; a new name would change every mark. */
const MARK_DERIVATION = 'mark-v1';
const MARK_PREFIX = 'SL';
const MARK_LENGTH = 16;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer, length: number): string {
	let out = '';
	let bits = 0;
	let value = 0;
	for (const byte of bytes) {
		value = (value << 8) | byte;
		bits += 8;
		while (bits >= 5 && out.length < length) {
			out += BASE32[(value >>> (bits - 5)) & 31];
			bits -= 5;
		}
		value &= (1 << bits) - 1;
		if (out.length >= length) break;
	}
	return out;
}

/** The mark derived from a create body: the same row gives the same mark on every account and run. */
export function derivedMark(body: IDataObject): string {
	const rest = { ...body };
	delete rest[MARK_FIELD];
	const text = canonicalJson(oneFeeCodePerColumn(canonicalInvoice(rest)));
	const digest = createHash('sha256').update(`${MARK_DERIVATION}\n${text}`).digest();
	return `${MARK_PREFIX}${base32(digest, MARK_LENGTH)}`;
}

/** True for a reference of the derived mark's shape (in any case). */
export function isDerivedMark(value: unknown): boolean {
	return typeof value === 'string' && /^SL[A-Z2-7]{16}$/i.test(value.trim());
}

/**
 * The form two references are compared in: trimmed, one case, and each run of digits without its
 * leading zeros (a service may show "INV-0042" as "INV-42", "00123" as "123"; a derived mark has
 * no zero). Nothing else is folded: a suffix, a hyphen or a letter tells two references apart.
 */
export function markForm(value: unknown): string | undefined {
	if (value === null || value === undefined) return undefined;
	const text = String(value).trim().toUpperCase();
	if (!text) return undefined;
	return text.replace(/(^|\D)0+(?=\d)/g, '$1');
}

/** Whether a stored invoice's number is the given mark (exact, up to markForm). */
export function sameMark(mark: unknown, stored: unknown): boolean {
	const a = markForm(mark);
	return a !== undefined && a === markForm(stored);
}

/**
 * The body as filed with its mark: the sheet's own invoice number kept, else the derived mark
 * (unless the user switched marks off). `body` is the create body as the sheet reader built it,
 * before any account adaptation or tax line the package adds, so the mark is one on every
 * account and whatever the taxes.
 */
export function withMark(body: IDataObject, write: boolean): IDataObject {
	if (!write || markForm(body[MARK_FIELD]) !== undefined) return body;
	return { ...body, [MARK_FIELD]: derivedMark(body) };
}
