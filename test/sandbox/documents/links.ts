import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const LINK_LIFETIME_SECONDS = 3600;

/**
 * Signed, expiring download links like a storage service's pre-signed URLs: no API key needed,
 * useless after 60 minutes, and each read by id hands out a fresh one.
 */
export class DownloadLinks {
	private readonly secret = randomBytes(16);

	constructor(
		private readonly origin: () => string,
		private readonly now: () => Date,
	) {}

	private sign(docId: number, expires: number): string {
		return createHmac('sha256', this.secret).update(`${docId}.${expires}`).digest('hex').slice(0, 32);
	}

	url(docId: number, fileName: string): string {
		const expires = Math.floor(this.now().getTime() / 1000) + LINK_LIFETIME_SECONDS;
		return `${this.origin()}/files/${docId}/${encodeURIComponent(fileName)}?expires=${expires}&sig=${this.sign(docId, expires)}`;
	}

	/** 'ok', or why the link is refused. */
	check(docId: number, query: URLSearchParams): 'ok' | 'invalid' | 'expired' {
		const expires = Number(query.get('expires'));
		const sig = query.get('sig') ?? '';
		const expected = this.sign(docId, expires);
		if (!Number.isInteger(expires) || sig.length !== expected.length) return 'invalid';
		if (!timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) return 'invalid';
		return expires * 1000 < this.now().getTime() ? 'expired' : 'ok';
	}
}
