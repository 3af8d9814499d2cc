/**
 * Masking of API keys in text the package writes (error messages and descriptions, items, stored
 * state). Every pass is linear in the text: no pattern here can backtrack more than a fixed number
 * of characters, so a megabyte token from a proxy's error page costs milliseconds, not minutes.
 */

import { anyKeyKnown, knownKeySpans, rememberKnownKey, shortestKnownForm } from './knownKeys';

const KEY_MASK = '[redacted API key]';
const REPEATED_MASK = /(?:\[redacted API key\]){2,}/g;

// A run of characters between delimiters. `+` over one class with nothing after it cannot
// backtrack: each character of the text is read once.
const RUN = /[^\s"'`<>()[\]{},;]+/g;
const KEY_MARK = /_t[123]_/i;
// The separator is bounded, so a "bearer" followed by a megabyte of spaces costs 16 steps.
const BEARER = /\b(bearer)(?:\s|%20|&nbsp;|\+){1,16}[^\s"'`<>,;]+/gi;

/**
 * Anything that starts like a key (a prefix, the tier, then any tail) is masked whole, even when a
 * reply cut it short or added to it: within a run between delimiters, from after the last `:` or
 * `=` before the first `_t1_`/`_t2_`/`_t3_` to the end of the run.
 */
function maskKeyLikeRuns(text: string): string {
	return text.replace(RUN, (run) => {
		const mark = run.search(KEY_MARK);
		if (mark < 0) return run;
		const start = Math.max(run.lastIndexOf(':', mark), run.lastIndexOf('=', mark)) + 1;
		return `${run.slice(0, start)}${KEY_MASK}`;
	});
}

/** Remembers a credential's key so that its forms are masked in all text from now on. */
export function rememberKey(apiKey: string): void {
	const key = apiKey.trim();
	if (key.length < 16) return;
	rememberKnownKey(key, key.slice(key.search(KEY_MARK) + 4));
}

/** The known keys in any form, masked; nothing else touched (safe on any text, items included). */
export function maskKnownKeys(text: string): string {
	const spans = knownKeySpans(text);
	if (!spans.length) return text;
	let out = '';
	let from = 0;
	for (const [start, end] of spans) {
		out += `${text.slice(from, start)}${KEY_MASK}`;
		from = end;
	}
	return out + text.slice(from);
}

/**
 * Text from outside, masked for an error: the known keys in any encoding, any Bearer value, and
 * anything shaped like a key.
 */
export function redactKeys(text: string): string {
	// The exact forms first (a split key is whole only before the shapes mask its first part); a
	// key-like prefix left before a masked secret becomes a second mask, folded into one.
	return maskKeyLikeRuns(maskKnownKeys(text).replace(BEARER, '$1 [redacted]')).replace(
		REPEATED_MASK,
		KEY_MASK,
	);
}

/** Whether a text holds a known key in some form. */
const holdsKnownKey = (text: string): boolean => knownKeySpans(text).length > 0;

/**
 * The strings of a value (keys of objects too) long enough to hold a key's shortest form, pushed
 * to `out`; false when the value is deeper than any item of this package (walk then masks it
 * through its JSON text).
 */
function collectStrings(value: unknown, depth: number, shortest: number, out: string[]): boolean {
	if (typeof value === 'string') {
		if (value.length >= shortest) out.push(value);
		return true;
	}
	if (!value || typeof value !== 'object') return true;
	if (depth > 64) return false;
	if (Array.isArray(value)) {
		for (const entry of value) if (!collectStrings(entry, depth + 1, shortest, out)) return false;
		return true;
	}
	if (Buffer.isBuffer(value) || value instanceof Date) return true;
	const record = value as Record<string, unknown>;
	for (const name in record) {
		if (!Object.prototype.hasOwnProperty.call(record, name)) continue;
		if (name.length >= shortest) out.push(name);
		if (!collectStrings(record[name], depth + 1, shortest, out)) return false;
	}
	return true;
}

/**
 * Whether any string of a value holds a known key: one test of the strings joined by a character
 * no form of a key holds (so no match spans two strings). It copies nothing, so the items of a
 * 10,000-row run that hold no key (all of them, nearly always) are neither copied nor rewritten.
 */
function anyKnownKeyIn(value: unknown): boolean {
	const strings: string[] = [];
	if (!collectStrings(value, 0, shortestKnownForm(), strings)) return true;
	return strings.length > 0 && holdsKnownKey(strings.join('\u0000'));
}

/**
 * Every string in a value (keys of objects too), masked of the known keys: the value itself when
 * none holds one, else a copy.
 */
export function maskKnownKeysDeep<T>(value: T): T {
	if (!anyKeyKnown() || !anyKnownKeyIn(value)) return value;
	return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
	if (typeof value === 'string') return maskKnownKeys(value);
	if (!value || typeof value !== 'object') return value;
	// Deeper than any item of this package: masked through its JSON text, without recursion here.
	if (depth > 64) return JSON.parse(maskKnownKeys(JSON.stringify(value))) as unknown;
	if (Array.isArray(value)) return value.map((entry) => walk(entry, depth + 1));
	if (Buffer.isBuffer(value) || value instanceof Date) return value;
	const out: Record<string, unknown> = {};
	for (const [name, entry] of Object.entries(value))
		out[maskKnownKeys(name)] = walk(entry, depth + 1);
	return out;
}
