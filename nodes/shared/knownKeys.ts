/**
 * The exact keys of the credentials read in this process, found in any form a reply may echo
 * them in. None is forgotten: a run waiting for its turn keeps its key masked however many other
 * credentials are read meanwhile. Each key adds its forms to one index, and a text is read once,
 * in linear time, whatever the number of keys: each place is looked up in a 64 K bitmap of the
 * forms' first three characters, and only a hit is compared.
 *
 * The forms, read case-insensitively: the key and its 32-character secret, in the text as it
 * reads once decoded (`%HH`, `\u00HH`, `\xHH`, `&#xHH;`, `&#DD;`) and without breaks (white space,
 * zero-width characters, soft hyphens); their base64 and base64url at each of the three offsets
 * they can sit at in a longer base64 text (of the key, of "Bearer key", of a whole header), of
 * their UTF-8, UTF-16LE and UTF-16BE bytes; and their bytes in hex, a byte separator (`:` or
 * `-`) allowed between bytes, in the same stream.
 */

interface Form {
	codes: Uint16Array;
	hex: boolean;
}

const known = new Set<string>();
const filter = new Uint8Array(1 << 16);
const index = new Map<number, Form[]>();
let shortestForm = Infinity;

const hash = (a: number, b: number, c: number) => (a * 961 + b * 31 + c) & 0xffff;

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

function formsOf(key: string, secret: string): Form[] {
	const parts = [key, ...(secret.length >= 16 && secret !== key ? [secret] : [])];
	const text = [
		...parts,
		...parts.flatMap((part) =>
			[Buffer.from(part, 'utf8'), Buffer.from(part, 'utf16le'), utf16be(part)].flatMap(base64Forms),
		),
	];
	const codes = (form: string) =>
		Uint16Array.from(form.toLowerCase(), (char) => char.charCodeAt(0));
	return [
		...text.map((form) => ({ codes: codes(form), hex: false })),
		...parts.map((part) => ({
			codes: codes(Buffer.from(part, 'utf8').toString('hex')),
			hex: true,
		})),
	];
}

/** Remembers a key (`secret`: its part after the tier) so its forms are masked from now on. */
export function rememberKnownKey(key: string, secret: string): void {
	if (known.has(key)) return;
	known.add(key);
	for (const form of formsOf(key, secret)) {
		const [a, b, c] = form.codes;
		// Hex may put a byte separator after its first byte.
		for (const third of form.hex ? [c, 0x3a, 0x2d] : [c]) {
			const h = hash(a, b, third);
			filter[h] = 1;
			const list = index.get(h) ?? [];
			if (!list.includes(form)) list.push(form);
			index.set(h, list);
		}
		shortestForm = Math.min(shortestForm, form.codes.length);
	}
}

export const anyKeyKnown = () => known.size > 0;
/** No text shorter than this holds a known key. */
export const shortestKnownForm = () => shortestForm;

// Breaks a key may be split by without changing what it reads as: white space (a key wrapped,
// base64 wrapped at 76) and invisible characters (zero-width space and joiners, word joiner,
// byte-order mark, soft hyphen).
const isBreak = (c: number) =>
	c === 0x20 ||
	(c >= 0x09 && c <= 0x0d) ||
	c === 0xa0 ||
	c === 0xad ||
	(c >= 0x200b && c <= 0x200d) ||
	c === 0x2060 ||
	c === 0xfeff;
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);
const hexValue = (c: number) =>
	c >= 0x30 && c <= 0x39
		? c - 0x30
		: c >= 0x61 && c <= 0x66
			? c - 0x57
			: c >= 0x41 && c <= 0x46
				? c - 0x37
				: -1;
const byteAt = (text: string, at: number) => {
	const hi = hexValue(text.charCodeAt(at));
	const lo = hexValue(text.charCodeAt(at + 1));
	return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
};

/** One encoded character at `at`: [its code, the characters it takes], or undefined. */
function encodedAt(text: string, at: number): [number, number] | undefined {
	const c = text.charCodeAt(at);
	if (c === 0x25) {
		const b = byteAt(text, at + 1);
		return b < 0 ? undefined : [b, 3];
	}
	if (c === 0x5c) {
		const next = text.charCodeAt(at + 1);
		if (next === 0x75 && text.charCodeAt(at + 2) === 0x30 && text.charCodeAt(at + 3) === 0x30) {
			const b = byteAt(text, at + 4);
			return b < 0 ? undefined : [b, 6];
		}
		if (next === 0x78) {
			const b = byteAt(text, at + 2);
			return b < 0 ? undefined : [b, 4];
		}
		return undefined;
	}
	if (c === 0x26 && text.charCodeAt(at + 1) === 0x23) {
		const entity = /^&#(?:[xX]0{0,4}([0-9a-fA-F]{1,2})|0{0,4}(\d{1,3}));/.exec(
			text.slice(at, at + 12),
		);
		if (!entity) return undefined;
		const code = entity[1] !== undefined ? parseInt(entity[1], 16) : Number(entity[2]);
		return code <= 0xff ? [code, entity[0].length] : undefined;
	}
	return undefined;
}

interface Stream {
	codes: Uint16Array;
	length: number;
	/** Where each character of the stream starts and ends in the text (undefined: the same place). */
	starts?: Uint32Array;
	ends?: Uint32Array;
}

// Reused between calls (one scan at a time: masking is synchronous), grown as texts need.
let codesBuffer = new Uint16Array(1024);
let startsBuffer = new Uint32Array(1024);
let endsBuffer = new Uint32Array(1024);
const KEPT_BUFFER = 1 << 16;
function buffers(length: number, reset = false) {
	if (reset || codesBuffer.length < length) {
		const size = reset ? 1024 : Math.max(length, codesBuffer.length * 2);
		codesBuffer = new Uint16Array(size);
		startsBuffer = new Uint32Array(size);
		endsBuffer = new Uint32Array(size);
	}
}

/** The text in lower case, as it is: for text with nothing to decode and no break. */
function asIs(text: string): Stream {
	buffers(text.length);
	for (let i = 0; i < text.length; i++) codesBuffer[i] = lower(text.charCodeAt(i));
	return { codes: codesBuffer, length: text.length };
}

/**
 * The text without breaks, decoded where `decode`, each character with its place in the text.
 * Decoding is greedy: `\xab12…` reads `\xab` as one character, so a key whose first characters
 * are hex digits right after an escape's opening is found only in the stream not decoded.
 */
function normalised(text: string, decode: boolean): Stream {
	buffers(text.length);
	const codes = codesBuffer;
	const starts = startsBuffer;
	const ends = endsBuffer;
	let n = 0;
	for (let at = 0; at < text.length; ) {
		const c = text.charCodeAt(at);
		if (isBreak(c)) {
			at++;
			continue;
		}
		const encoded =
			decode && (c === 0x25 || c === 0x5c || c === 0x26) ? encodedAt(text, at) : undefined;
		codes[n] = lower(encoded ? encoded[0] : c);
		starts[n] = at;
		at += encoded ? encoded[1] : 1;
		ends[n] = at;
		n++;
	}
	return { codes, length: n, starts, ends };
}

const isByteSeparator = (c: number) => c === 0x3a || c === 0x2d;

/**
 * How many characters of the stream from `at` the form takes, or 0 when it is not there; a hex
 * form may have one byte separator (`:` or `-`) between any two bytes, the same throughout.
 */
function formAt(codes: Uint16Array, length: number, at: number, form: Form): number {
	const size = form.codes.length;
	if (!form.hex) {
		if (at + size > length) return 0;
		for (let j = 0; j < size; j++) if (codes[at + j] !== form.codes[j]) return 0;
		return size;
	}
	let i = at;
	let separator = -1;
	for (let j = 0; j < size; j++) {
		if (j > 0 && j % 2 === 0 && i < length && isByteSeparator(codes[i])) {
			if (separator === -1) separator = codes[i];
			if (codes[i] !== separator) return 0;
			i++;
		} else if (j > 0 && j % 2 === 0 && separator !== -1) return 0;
		if (i >= length || codes[i] !== form.codes[j]) return 0;
		i++;
	}
	return i - at;
}

/** Adds the places of the forms found in a stream to `spans`. */
function scan(stream: Stream, spans: Array<[number, number]>): void {
	const { codes, length, starts, ends } = stream;
	for (let i = 0; i + shortestForm <= length; i++) {
		const h = hash(codes[i], codes[i + 1], codes[i + 2]);
		if (!filter[h]) continue;
		let longest = 0;
		for (const form of index.get(h) ?? [])
			longest = Math.max(longest, formAt(codes, length, i, form));
		if (!longest) continue;
		spans.push(starts && ends ? [starts[i], ends[i + longest - 1]] : [i, i + longest]);
		i += longest - 1;
	}
}

// Text holding none of these reads as itself (letter case aside): one stream, no places to keep.
const NEEDS_DECODING = /[\s\u00a0\u00ad\u200b-\u200d\u2060\ufeff%\\&]/;
// Where an escape may open, the text is also read without decoding (see normalised).
const MAY_ESCAPE = /[%\\&]/;

/** The places in `text` (start, end) holding a known key's form, in order, not overlapping. */
export function knownKeySpans(text: string): Array<[number, number]> {
	if (known.size === 0 || text.length < shortestForm) return [];
	const spans: Array<[number, number]> = [];
	if (!NEEDS_DECODING.test(text)) scan(asIs(text), spans);
	else {
		scan(normalised(text, true), spans);
		if (MAY_ESCAPE.test(text)) scan(normalised(text, false), spans);
	}
	// A reply of megabytes does not keep its buffers (10 bytes a character) for the process's life.
	if (codesBuffer.length > KEPT_BUFFER) buffers(0, true);
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
