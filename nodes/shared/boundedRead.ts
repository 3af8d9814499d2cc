/**
 * Reading a reply's body with a deadline and a size cap: an API reply and a downloaded file both
 * end within the node's Timeout (the whole transfer, not only until the headers: a host that
 * sends its headers and then trickles or stalls is cut at the deadline) and are read no further
 * than their cap (counted after decompression, so a gzip bomb stops at the cap).
 */

/** Why a bounded read stopped before the body's end. */
export class BoundedReadStop extends Error {
	constructor(
		readonly reason: 'tooLarge' | 'expired',
		readonly bytes: number,
	) {
		super(
			reason === 'tooLarge'
				? 'the reply passed its size cap'
				: 'timeout: the reply did not end in time',
		);
	}
}

type Stream = AsyncIterable<Buffer | string> & { destroy?: () => void };

const isStream = (body: unknown): body is Stream =>
	typeof body === 'object' &&
	body !== null &&
	typeof (body as Stream)[Symbol.asyncIterator] === 'function';

/**
 * The body as bytes, read until its end, `maxBytes` or the signal's abort, whichever comes
 * first (then the stream is destroyed and BoundedReadStop thrown). A body that is not a stream
 * (already read by a test double or a helper) is returned as it is.
 */
export async function readBounded(
	body: unknown,
	options: { maxBytes: number; signal?: AbortSignal },
): Promise<Buffer | unknown> {
	if (Buffer.isBuffer(body)) {
		if (body.length > options.maxBytes) throw new BoundedReadStop('tooLarge', body.length);
		return body;
	}
	if (!isStream(body)) return body;
	const { signal } = options;
	const expired = new Promise<'expired'>((resolve) => {
		if (signal?.aborted) resolve('expired');
		signal?.addEventListener('abort', () => resolve('expired'), { once: true });
	});
	const iterator = body[Symbol.asyncIterator]();
	const chunks: Buffer[] = [];
	let size = 0;
	const stop = (reason: BoundedReadStop['reason']) => {
		body.destroy?.();
		return new BoundedReadStop(reason, size);
	};
	for (;;) {
		const next = iterator.next();
		const first = await Promise.race([next, expired]);
		if (first === 'expired') {
			// The pending read settles once the stream is destroyed: nothing waits for it.
			next.catch(() => undefined);
			throw stop('expired');
		}
		if (first.done) break;
		const bytes = Buffer.isBuffer(first.value) ? first.value : Buffer.from(first.value);
		size += bytes.length;
		if (size > options.maxBytes) throw stop('tooLarge');
		chunks.push(bytes);
	}
	return Buffer.concat(chunks);
}
