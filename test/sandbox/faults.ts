import { FieldErrorBag, validationError } from './envelope';

export interface FaultConfig {
	/** Probability 0..1: carry the request out and store it, then drop the connection without a reply. */
	lose_reply_after_commit: number;
	/** Probability 0..1: carry the request out and store it, then a gateway's 502 (not the envelope) instead of the reply. */
	bad_gateway_after_commit: number;
	/** Probability 0..1: reply 500 INTERNAL_ERROR without carrying the request out. */
	error_500: number;
	/** Probability 0..1: reply 429 with Retry-After without spending the key's calls. */
	rate_limit_429: number;
	/** Added before every affected request (stored late), or after it was carried out when delay_after_commit. */
	delay_ms: number;
	/** true: delay_ms holds the reply after the request was carried out (stored early, reply late). */
	delay_after_commit: boolean;
	/** Same seed, same sequence of faults. null = Math.random. */
	seed: number | null;
	/** Only these methods are affected (null = all). */
	methods: string[] | null;
	/** Only paths under /api/v1 starting with this are affected (null = all). */
	path_prefix: string | null;
	/** Affect at most this many matching requests, then switch off (null = no end). */
	count: number | null;
	/**
	 * A reply other than the service's answer to the question asked (REPLY_AS), for the affected
	 * requests: `html_404` a proxy's HTML 404 page, nothing carried out; after the request is
	 * carried out, `listing_other_shape`, `listing_null`, `listing_total_no_rows` (a listing's data
	 * in another shape, null, or a total with no rows), `batch_index_from_1` (batch results
	 * numbered from 1), `other_invoice` (an invoice reply describing another invoice, of another
	 * policy), `gzip_bomb` (32 KB of gzip that inflates to 32 MB). null = the service's answer.
	 */
	reply_as: ReplyAs | null;
	/** Downloads (`/files/...`) send their headers and a first chunk, then nothing until the caller gives up. */
	stall_files: boolean;
}

export const REPLY_AS = [
	'html_404',
	'listing_other_shape',
	'listing_null',
	'listing_total_no_rows',
	'batch_index_from_1',
	'other_invoice',
	'gzip_bomb',
] as const;
export type ReplyAs = (typeof REPLY_AS)[number];

const NONE: FaultConfig = {
	lose_reply_after_commit: 0,
	bad_gateway_after_commit: 0,
	error_500: 0,
	rate_limit_429: 0,
	delay_ms: 0,
	delay_after_commit: false,
	seed: null,
	methods: null,
	path_prefix: null,
	count: null,
	reply_as: null,
	stall_files: false,
};

export interface FaultPlan {
	/** Before the request is carried out. */
	delayMs: number;
	/** After the request is carried out, before the reply. */
	replyDelayMs: number;
	/** Carried out, then a gateway's 502 instead of the reply. */
	badGateway?: boolean;
	error500: boolean;
	rateLimited: boolean;
	loseReply: boolean;
	/** The reply given instead of the service's answer (REPLY_AS). */
	replyAs?: ReplyAs;
}

/** mulberry32: tiny, good enough, and the same on every machine. */
function seeded(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const isProbability = (v: unknown): boolean => typeof v === 'number' && v >= 0 && v <= 1;

export class Faults {
	config: FaultConfig = { ...NONE };
	private random: () => number = Math.random;

	reset(): void {
		this.config = { ...NONE };
		this.random = Math.random;
	}

	/** Replaces the whole configuration: fields left out go back to "no fault". */
	configure(body: Record<string, unknown>): FaultConfig {
		const errors = new FieldErrorBag();
		for (const f of ['lose_reply_after_commit', 'bad_gateway_after_commit', 'error_500', 'rate_limit_429'] as const)
			if (body[f] !== undefined && !isProbability(body[f])) errors.add(f, 'Must be a number from 0 to 1');
		for (const f of ['delay_ms', 'seed', 'count'] as const)
			if (body[f] !== undefined && body[f] !== null && !(Number.isInteger(body[f]) && (body[f] as number) >= 0))
				errors.add(f, 'Must be a non-negative integer');
		if (body.methods !== undefined && body.methods !== null && !(Array.isArray(body.methods) && body.methods.every((m) => typeof m === 'string')))
			errors.add('methods', 'Must be an array of HTTP methods');
		if (body.delay_after_commit !== undefined && typeof body.delay_after_commit !== 'boolean') errors.add('delay_after_commit', 'Must be a boolean');
		if (body.path_prefix !== undefined && body.path_prefix !== null && typeof body.path_prefix !== 'string')
			errors.add('path_prefix', 'Must be a string');
		if (body.reply_as !== undefined && body.reply_as !== null && !(REPLY_AS as readonly unknown[]).includes(body.reply_as))
			errors.add('reply_as', `Must be one of: ${REPLY_AS.join(', ')}`);
		if (body.stall_files !== undefined && typeof body.stall_files !== 'boolean') errors.add('stall_files', 'Must be a boolean');
		if (!errors.empty) throw validationError(errors.fields);
		this.config = {
			...NONE,
			...(body as Partial<FaultConfig>),
			methods: Array.isArray(body.methods) ? (body.methods as string[]).map((m) => m.toUpperCase()) : null,
		};
		this.random = this.config.seed === null ? Math.random : seeded(this.config.seed);
		return this.config;
	}

	/** Draws in a fixed order (500, 429, lost reply) so a seed gives the same outcome per request. */
	plan(method: string, path: string): FaultPlan {
		const c = this.config;
		const none: FaultPlan = { delayMs: 0, replyDelayMs: 0, error500: false, rateLimited: false, loseReply: false };
		if (c.methods && !c.methods.includes(method)) return none;
		if (c.path_prefix !== null && !path.startsWith(c.path_prefix)) return none;
		if (c.count !== null) {
			if (c.count <= 0) return none;
			c.count -= 1;
		}
		const error500 = c.error_500 > 0 && this.random() < c.error_500;
		const rateLimited = !error500 && c.rate_limit_429 > 0 && this.random() < c.rate_limit_429;
		const loseReply = !error500 && !rateLimited && c.lose_reply_after_commit > 0 && this.random() < c.lose_reply_after_commit;
		const after = c.delay_after_commit;
		// Drawn last, and only when asked for: the draws of earlier seeds stay as they were.
		const badGateway = !error500 && !rateLimited && !loseReply && c.bad_gateway_after_commit > 0 && this.random() < c.bad_gateway_after_commit;
		const replyAs = !error500 && !rateLimited && !loseReply && !badGateway ? (c.reply_as ?? undefined) : undefined;
		return { delayMs: after ? 0 : c.delay_ms, replyDelayMs: after ? c.delay_ms : 0, error500, rateLimited, loseReply, badGateway, replyAs };
	}
}

/**
 * Tests: the first seed (from 1, below `most`) under which the successive requests `method path`
 * draw the plans `wanted` describes, one predicate per request, so a test meets the faults it
 * means to at the request it means.
 */
export function seedWhere(
	settings: Record<string, unknown>,
	method: string,
	path: string,
	wanted: Array<(plan: FaultPlan) => boolean>,
	most = 100_000,
): number {
	for (let seed = 1; seed < most; seed++) {
		const faults = new Faults();
		faults.configure({ ...settings, seed });
		if (wanted.every((want) => want(faults.plan(method, path)))) return seed;
	}
	throw new Error(`no seed below ${most} draws the plans wanted for ${method} ${path}`);
}
