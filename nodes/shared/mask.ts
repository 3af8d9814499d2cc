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

// The keys of the credentials read in this process, newest last: their exact forms in every
// encoding are masked wherever they appear. Masking another workflow's key too costs nothing.
const MOST_KEYS = 16;
// Each with the length of its shortest form: shorter text cannot hold it (most values of an item).
// `tails`: each form's text after its first 5 characters, in lower case (mayHold below).
const known = new Map<string, { pattern: RegExp; shortest: number; tails: string[] }>();

const hex = (code: number) => code.toString(16).padStart(2, '0');

/** One character in any of its common encodings: itself, %HH, \u00HH, \xHH, &#xHH; or &#DD;. */
function anyEncoding(char: string): string {
	const code = char.charCodeAt(0);
	const literal = char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
	if (code > 0xff) return literal;
	return `(?:${literal}|%${hex(code)}|\\\\u00${hex(code)}|\\\\x${hex(code)}|&#x0{0,4}${hex(code)};|&#0{0,4}${code};)`;
}

/**
 * The base64 characters that only `bytes` decide, at each of the three offsets they can sit at in
 * a longer base64 text (base64 of the key, of "Bearer key", of a whole header), in both alphabets.
 */
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

/**
 * Characters in order with up to two spaces or line breaks between any two: a key split by a
 * space or wrapped onto the next line, base64 wrapped at 76 characters. Bounded, so no backtracking
 * beyond three tries a character.
 */
const spaced = (units: string[]) => units.join('\\s{0,2}');

function keyPattern(key: string): { pattern: RegExp; shortest: number; tails: string[] } {
	const secret = key.slice(key.search(KEY_MARK) + 4);
	const parts = [key, ...(secret.length >= 16 && secret !== key ? [secret] : [])];
	const base64 = parts.flatMap((part) => base64Forms(Buffer.from(part, 'utf8')));
	// The key before its secret: where both could start, the whole key is masked.
	const alternatives = [
		...parts.map((part) => spaced([...part].map(anyEncoding))),
		...base64.map((form) => spaced([...form].map((char) => char.replace(/[+/]/, '\\$&')))),
	];
	return {
		pattern: new RegExp(alternatives.join('|'), 'gi'),
		shortest: Math.min(...parts.map((part) => part.length), ...base64.map((form) => form.length)),
		tails: [...parts, ...base64].map((form) => form.slice(5).toLowerCase()),
	};
}

// Each encoding anyEncoding allows, decoded (the numeric ones read wider than it allows).
const ENCODED = /%([0-9a-f]{2})|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})|&#x([0-9a-f]+);|&#(\d+);/gi;
const decodeUnit = (unit: string, ...codes: Array<string | undefined>) => {
	const [pct, u, x, hexRef, decRef] = codes;
	const code = parseInt(pct ?? u ?? x ?? hexRef ?? '', 16);
	return String.fromCharCode(Number.isFinite(code) ? code : parseInt(decRef ?? '', 10) || 0);
};

/**
 * Whether a text may hold a key's form at all, cheaply, before its pattern is run (compiling and
 * first running one key's pattern costs V8 a few hundred milliseconds, paid by the first reply of
 * every process). The text with every encoding decoded, then without white space, in lower case,
 * holds whatever a match of the pattern spelled, except its first 5 characters (an encoding that
 * began just before a match may have taken them: `\x41bc…` decodes to `Abc…`), so a text none
 * of whose tails appear in it holds no form of the key.
 */
function mayHold(text: string, tails: string[]): boolean {
	const plain = text.replace(ENCODED, decodeUnit).replace(/\s+/g, '').toLowerCase();
	return tails.some((tail) => plain.includes(tail));
}

/** Remembers a credential's key so that its exact forms are masked in all text from now on. */
export function rememberKey(apiKey: string): void {
	const key = apiKey.trim();
	if (key.length < 16) return;
	const masker = known.get(key) ?? keyPattern(key);
	known.delete(key);
	known.set(key, masker);
	if (known.size > MOST_KEYS) known.delete(known.keys().next().value as string);
}

/** The known keys in any encoding, masked; nothing else touched (safe on any text, items included). */
export function maskKnownKeys(text: string): string {
	let masked = text;
	for (const { pattern, shortest, tails } of known.values())
		if (masked.length >= shortest && mayHold(masked, tails))
			masked = masked.replace(pattern, KEY_MASK);
	return masked;
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

/** Whether a text may hold a known key in some form (the masking pattern finds one). */
function holdsKnownKey(text: string): boolean {
	for (const { pattern, shortest, tails } of known.values()) {
		if (text.length < shortest || !mayHold(text, tails)) continue;
		pattern.lastIndex = 0;
		if (pattern.test(text)) return true;
	}
	return false;
}

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
	let shortest = Infinity;
	for (const masker of known.values()) shortest = Math.min(shortest, masker.shortest);
	const strings: string[] = [];
	if (!collectStrings(value, 0, shortest, strings)) return true;
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
