import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './envelope';
import type { Account, SandboxKey, Tier } from './keys';
import type { World } from './world';

export interface Call {
	method: string;
	/** Path below /api/v1, e.g. /invoices/1001. */
	path: string;
	params: Record<string, string>;
	query: URLSearchParams;
	body: unknown;
	headers: IncomingHttpHeaders;
	world: World;
}

/** A call that passed authentication. */
export interface AuthedCall extends Call {
	key: SandboxKey;
	account: Account;
	/** This call's X-RateLimit-* headers, for replies that repeat them in the body. */
	rateHeaders: Record<string, string>;
}

export interface Result {
	status: number;
	data?: unknown;
	headers?: Record<string, string>;
}

export interface Access {
	tier: Tier;
	/** What a lower tier gets: FORBIDDEN for the basic write rights, TIER_REQUIRED for higher-tier operations. */
	below: 'FORBIDDEN' | 'TIER_REQUIRED';
	action: string;
}

export interface Route {
	method: string;
	pattern: string;
	handler: (call: AuthedCall) => Result;
	access: Access;
	/** Whether the request must carry a JSON object body. */
	body: boolean;
}

export const READ: Access = { tier: 't1', below: 'FORBIDDEN', action: 'read' };
/** Creating, changing and deleting invoices and documents: t2 and up; t1 gets 403 FORBIDDEN. */
export const WRITE = (action: string): Access => ({ tier: 't2', below: 'FORBIDDEN', action });

interface Pattern {
	method: string;
	pattern: string;
}

type Compiled<R> = R & { segments: string[]; paramCount: number };

export type Match<R> = { route: R; params: Record<string, string> };

/** Used for the API routes and for the /_sandbox control routes alike. */
export class Router<R extends Pattern = Route> {
	private readonly routes: Array<Compiled<R>>;

	constructor(routes: R[], private readonly prefix = '/api/v1') {
		this.routes = routes.map((r) => {
			const segments = r.pattern.split('/').filter(Boolean);
			return { ...r, segments, paramCount: segments.filter((s) => s.startsWith(':')).length };
		});
	}

	private static params<R>(route: Compiled<R>, parts: string[]): Record<string, string> | null {
		if (route.segments.length !== parts.length) return null;
		const params: Record<string, string> = {};
		for (let i = 0; i < parts.length; i++) {
			const seg = route.segments[i];
			if (seg.startsWith(':')) params[seg.slice(1)] = parts[i];
			else if (seg !== parts[i]) return null;
		}
		return params;
	}

	/**
	 * The route for method and path, or 404/405. A literal segment beats a parameter, so
	 * PUT /invoices/preview is a wrong method for preview, not an update of invoice "preview".
	 */
	match(method: string, path: string): Match<R> {
		let parts: string[];
		try {
			// Split before decoding so an encoded slash stays inside one docUUID.
			parts = path.split('/').filter(Boolean).map(decodeURIComponent);
		} catch {
			throw new ApiError('NOT_FOUND', `No endpoint ${method} ${path}`);
		}
		const hits = this.routes
			.map((route) => ({ route, params: Router.params(route, parts) }))
			.filter((h): h is { route: Compiled<R>; params: Record<string, string> } => h.params !== null);
		if (hits.length === 0) throw new ApiError('NOT_FOUND', `No endpoint ${method} ${this.prefix}${path}`);
		const fewest = Math.min(...hits.map((h) => h.route.paramCount));
		const best = hits.filter((h) => h.route.paramCount === fewest);
		const hit = best.find((h) => h.route.method === method);
		if (!hit) {
			const allow = [...new Set(best.map((h) => h.route.method))].join(', ');
			throw new ApiError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${this.prefix}${path}; allowed: ${allow}`, {}, { Allow: allow });
		}
		return hit;
	}
}
