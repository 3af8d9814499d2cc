/**
 * Masking of API keys in text the package writes (error messages and descriptions, items, stored
 * state). Every pass is linear in the text: no pattern here can backtrack more than a fixed number
 * of characters, so a megabyte token from a proxy's error page costs milliseconds, not minutes.
 */

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

// The keys of the credentials read in this process. None is forgotten (a run waiting for its turn
// keeps its key masked however many other credentials are read meanwhile): each key adds a few
// fixed forms to one index, and a text is scanned once whatever the number of keys.
const known = new Set<string>();

/**
 * Every form a key may take in a reply, as fixed text read case-insensitively from a normalised
 * stream (see `normalised`): the key and its 32-character secret, their base64 and base64url
 * forms at each of the three offsets they can sit at in a longer base64 text (of the key, of
 * "Bearer key", of a whole header), of their UTF-8 and UTF-16 bytes; and, read from the hex
 * stream, their bytes in hex.
 */
interface Form {
	text: string;
	hex: boolean;
}

/** Forms by their first three characters (one number), so a scan looks up each position once. */
const index = new Map<number, Form[]>();
let shortestForm = Infinity;

const headAt = (text: string, at: number) =>
	text.charCodeAt(at) * 2 ** 32 + text.charCodeAt(at + 1) * 2 ** 16 + text.charCodeAt(at + 2);

/** The base64 characters that only `bytes` decide, at each offset, in both alphabets. */
function base64Forms(bytes: Buffer): string[] {
	const forms: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		const first = Math.ceil((8 * offset) / 6);
		const last = Math.floor((8 * (offset + bytes.length)) / 6);
		const fixed = text.slice(first, last);
		forms.push(fixed, fixed.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return forms;
}

const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

function formsOf(key: string): Form[] {
	const secret = key.slice(key.search(KEY_MARK) + 4);
	const parts = [key, ...(secret.length >= 16 && secret !== key ? [secret] : [])];
	const plain = parts.map((part) => ({ text: part.toLowerCase(), hex: false }));
	const base64 = parts.flatMap((part) =>
		[Buffer.from(part, 'utf8'), Buffer.from(part, 'utf16le'), utf16be(part)].flatMap(base64Forms),
	);
	const hexForms = parts.map((part) => ({ text: Buffer.from(part, 'utf8').toString('hex'), hex: true }));
	return [...plain, ...base64.map((text) => ({ text: text.toLowerCase(), hex: false })), ...hexForms];
}

/** Remembers a credential's key so that its forms are masked in all text from now on. */
export function rememberKey(apiKey: string): void {
	const key = apiKey.trim();
	if (key.length < 16 || known.has(key)) return;
	known.add(key);
	for (const form of formsOf(key)) {
		const head = headAt(form.text, 0);
		const list = index.get(head) ?? [];
		if (!list.some((f) => f.text === form.text && f.hex === form.hex)) list.push(form);
		index.set(head, list);
		shortestForm = Math.min(shortestForm, form.text.length);
	}
}

// Characters a key may be broken by without changing what it reads as: white space (a key
// wrapped, base64 wrapped at 76) and the invisible ones (zero-width space, joiners, word joiner,
// byte-order mark, soft hyphen).
const isBreak = (code: number) =>
	code === 0x20 ||
	(code >= 0x09 && code <= 0x0d) ||
	code === 0xa0 ||
	code === 0xad ||
	(code >= 0x200b && code <= 0x200d) ||
	code === 0x2060 ||
	code === 0xfeff;
// Separators of hex bytes (`73:6c`, `73-6c`, `73 6c`).
const isHexSeparator = (code: number) => isBreak(code) || code === 0x3a || code === 0x2d;

const HEX_DIGIT = /^[0-9a-f]{2}$/i;

/**
 * One encoded character at `at` (`%HH`, `\u00HH`, `\xHH`, `&#xHH;`, `&#DD;`): its code and
 * length, or undefined.
 */
function encodedAt(text: string, at: number): [number, number] | undefined {
	const c = text[at];
	if (c === '%' && HEX_DIGIT.test(text.slice(at + 1, at + 3))) return [parseInt(text.slice(at + 1, at + 3), 16), 3];
	if (c === '\\') {
		const next = text[at + 1];
		if (next === 'u' && text.slice(at + 2, at + 4) === '00' && HEX_DIGIT.test(text.slice(at + 4, at + 6)))
			return [parseInt(text.slice(at + 4, at + 6), 16), 6];
		if (next === 'x' && HEX_DIGIT.test(text.slice(at + 2, at + 4))) return [parseInt(text.slice(at + 2, at + 4), 16), 4];
		return undefined;
	}
	if (c === '&' && text[at + 1] === '#') {
		const entity = /^&#(?:x0{0,4}([0-9a-f]{1,2})|0{0,4}(\d{1,3}));/i.exec(text.slice(at, at + 12));
		if (!entity) return undefined;
		const code = entity[1] !== undefined ? parseInt(entity[1], 16) : Number(entity[2]);
		return code <= 0xff ? [code, entity[0].length] : undefined;
	}
	return undefined;
}

/**
 * The text as the forms are read from: decoded character by character, without breaks, in lower
 * case (`hex`: without hex separators, nothing decoded), with each character's place in the text.
 */
function normalised(text: string, hex: boolean): { chars: string; starts: Uint32Array; ends: Uint32Array } {
	const out: string[] = [];
	const starts = new Uint32Array(text.length);
	const ends = new Uint32Array(text.length);
	let n = 0;
	for (let at = 0; at < text.length; ) {
		const code = text.charCodeAt(at);
		if (hex ? isHexSeparator(code) : isBreak(code)) {
			at++;
			continue;
		}
		const encoded = hex ? undefined : encodedAt(text, at);
		const length = encoded ? encoded[1] : 1;
		const char = encoded ? String.fromCharCode(encoded[0]) : text[at];
		const lower = char.toLowerCase();
		// One character each (a lower case of two characters, as of 'İ', stays as it is).
		out.push(lower.length === 1 ? lower : char);
		starts[n] = at;
		ends[n] = at + length;
		n++;
		at += length;
	}
	return { chars: out.join(''), starts, ends };
}

/** Forms (of one kind, or both) found in a stream, as places in the text it was read from. */
function scan(
	chars: string,
	place: (i: number, length: number) => [number, number],
	kind: boolean | undefined,
	spans: Array<[number, number]>,
): void {
	for (let i = 0; i + shortestForm <= chars.length; i++) {
		const forms = index.get(headAt(chars, i));
		if (!forms) continue;
		let longest = 0;
		for (const form of forms)
			if ((kind === undefined || form.hex === kind) && form.text.length > longest && chars.startsWith(form.text, i))
				longest = form.text.length;
		if (!longest) continue;
		spans.push(place(i, longest));
		i += longest - 1;
	}
}

// Text with none of these reads as itself (lower case aside): one scan, no copy of places.
const NEEDS_DECODING = /[\s\u00a0\u00ad\u200b-\u200d\u2060\ufeff%\\&:-]/;

/** The places in `text` (start, end) holding a known key's form, left to right, not overlapping. */
function knownKeySpans(text: string): Array<[number, number]> {
	if (index.size === 0 || text.length < shortestForm) return [];
	const spans: Array<[number, number]> = [];
	const lower = NEEDS_DECODING.test(text) ? undefined : text.toLowerCase();
	if (lower !== undefined && lower.length === text.length) {
		scan(lower, (i, length) => [i, i + length], undefined, spans);
	} else {
		for (const hex of [false, true]) {
			const { chars, starts, ends } = normalised(text, hex);
			scan(chars, (i, length) => [starts[i], ends[i + length - 1]], hex, spans);
		}
	}
	if (spans.length < 2) return spans;
	spans.sort((a, b) => a[0] - b[0]);
	const merged: Array<[number, number]> = [spans[0]];
	for (const span of spans.slice(1)) {
		const last = merged[merged.length - 1];
		if (span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
		else merged.push(span);
	}
	return merged;
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
	if (!collectStrings(value, 0, shortestForm, strings)) return true;
	return strings.length > 0 && holdsKnownKey(strings.join('\u0000'));
}

/**
 * Every string in a value (keys of objects too), masked of the known keys: the value itself when
 * none holds one, else a copy.
 */
export function maskKnownKeysDeep<T>(value: T): T {
	if (known.size === 0 || !anyKnownKeyIn(value)) return value;
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
