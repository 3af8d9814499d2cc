import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { checkAccess, identify, me, token } from './auth';
import { calculatorRoutes } from './calculator/routes';
import { controlRouter, isLoopback } from './control';
import { documentBytes } from './documents/content';
import { documentRoutes } from './documents/routes';
import { ApiError, newRequestId, sendError, sendJson, sendSuccess, type ReplyContext } from './envelope';
import { parseJsonObject, readBody, rejectOversized, type RawBody } from './http/body';
import { sendBytes, serveDocs } from './http/static';
import { invoiceRoutes } from './invoices/routes';
import { accountOf } from './keys';
import { buildOpenApi } from './openapi';
import { referenceRoutes } from './reference/routes';
import { READ, Router, type Route } from './router';
import type { World } from './world';

export const API_BASE = '/api/v1';

const authRoutes: Route[] = [
	{ method: 'GET', pattern: '/auth/me', handler: me, access: READ, body: false },
	{ method: 'POST', pattern: '/auth/token', handler: token, access: READ, body: true },
];

const apiRouter = new Router([...authRoutes, ...invoiceRoutes, ...documentRoutes, ...calculatorRoutes, ...referenceRoutes]);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Exchange {
	req: IncomingMessage;
	res: ServerResponse;
	ctx: ReplyContext;
	url: URL;
	method: string;
	raw: RawBody;
	world: World;
	/** Headers every reply of this exchange carries, including errors (rate-limit headers). */
	headers: Record<string, string>;
}

async function handleApi(x: Exchange, sub: string): Promise<void> {
	const { world } = x;
	// Rate-limit headers go on every reply to a valid key, even 404/405, so count before routing.
	const identity = identify(x.req.headers.authorization);
	if (identity.ok) {
		const decision = world.rateLimiter.hit(identity.key.key, identity.key.tier, world.now());
		Object.assign(x.headers, decision.headers);
		if (!decision.allowed)
			throw new ApiError('RATE_LIMIT_EXCEEDED', `Hourly limit of ${decision.headers['X-RateLimit-Limit']} calls exceeded; retry after ${decision.headers['Retry-After']} seconds`, {
				retry_after: Number(decision.headers['Retry-After']),
			});
	}
	const { route, params } = apiRouter.match(x.method, sub);
	if (!identity.ok) throw identity.error;
	checkAccess(identity.key, route.access);
	rejectOversized(x.raw);
	// Bodies on GET and DELETE are ignored, as most HTTP stacks do.
	const body = route.body ? parseJsonObject(x.raw, true) : {};

	const plan = world.faults.plan(x.method, sub);
	if (plan.delayMs > 0) await sleep(plan.delayMs);
	if (plan.replyAs === 'html_404') {
		// A proxy in front of the service answers in its own words; nothing reaches the service.
		x.res.writeHead(404, { 'Content-Type': 'text/html' });
		x.res.end('<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1><hr>nginx</body></html>');
		return;
	}
	if (plan.error500) throw new ApiError('INTERNAL_ERROR', `Unexpected error (injected by the sandbox); quote ${x.ctx.requestId}`);
	if (plan.rateLimited)
		throw new ApiError('RATE_LIMIT_EXCEEDED', 'Hourly limit exceeded (injected by the sandbox)', { retry_after: 1 }, { 'Retry-After': '1' });

	const result = route.handler({
		method: x.method,
		path: sub,
		params,
		query: x.url.searchParams,
		body,
		headers: x.req.headers,
		world,
		key: identity.key,
		account: accountOf(identity.key),
		rateHeaders: { ...x.headers },
	});
	// Stored already; the reply is held (a service slow to answer after committing).
	if (plan.replyDelayMs > 0) await sleep(plan.replyDelayMs);
	if (plan.loseReply) {
		// Committed, then the connection drops: the caller cannot tell whether it worked.
		x.req.socket.destroy();
		return;
	}
	if (plan.badGateway) {
		// Committed, then a gateway in front of the service answers in its own words.
		x.res.writeHead(502, { 'Content-Type': 'text/html' });
		x.res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
		return;
	}
	if (plan.replyAs === 'gzip_bomb') {
		const bomb = gzipSync(JSON.stringify({ success: true, data: { id: 1, notes: 'a'.repeat(32 * 1024 * 1024) } }), { level: 9 });
		x.res.writeHead(result.status === 204 ? 200 : result.status, { ...x.headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) });
		x.res.end(bomb);
		return;
	}
	const data = plan.replyAs ? answeredOtherwise(plan.replyAs, result.data) : result.data;
	sendSuccess(x.res, x.ctx, result.status, data, { ...x.headers, ...result.headers });
}

/** The reply's data as a proxy, cache or faulty service would give it instead (REPLY_AS). */
function answeredOtherwise(replyAs: string, data: unknown): unknown {
	const record = (data ?? {}) as Record<string, unknown>;
	switch (replyAs) {
		case 'listing_other_shape':
			return { records: { list: record.invoices }, count: (record.pagination as Record<string, unknown> | undefined)?.total };
		case 'listing_null':
			return null;
		case 'listing_total_no_rows': {
			const pagination = (record.pagination ?? {}) as Record<string, unknown>;
			return { invoices: [], pagination: { ...pagination, total: Math.max(1, Number(pagination.total ?? 0)) } };
		}
		case 'batch_index_from_1':
			return { ...record, results: ((record.results ?? []) as Array<Record<string, unknown>>).map((r) => ({ ...r, index: Number(r.index) + 1 })) };
		case 'other_invoice':
			return { ...record, id: Number(record.id ?? 0) + 1000, policy_number: `OTHER-${String(record.policy_number ?? '')}`, invoice_number: 'OTHER-1', net_premium: 1 };
		default:
			return data;
	}
}

function handleControl(x: Exchange): void {
	if (!isLoopback(x.req.socket.remoteAddress)) throw new ApiError('FORBIDDEN', 'Sandbox control endpoints answer loopback callers only');
	const { route, params } = controlRouter.match(x.method, x.url.pathname.slice('/_sandbox'.length));
	const result = route.handler({ params, body: parseJsonObject(x.raw, false), world: x.world });
	sendSuccess(x.res, x.ctx, result.status, result.data);
}

function serveFile(x: Exchange): void {
	if (x.world.faults.config.stall_files) {
		// Headers and a first chunk, then nothing: the caller's deadline has to end it.
		x.res.writeHead(200, { 'Content-Type': 'application/pdf' });
		x.res.write('%PDF-1.4\n');
		setTimeout(() => x.res.destroy(), 60_000).unref();
		return;
	}
	const m = /^\/files\/(\d+)\/[^/]+$/.exec(x.url.pathname);
	const found = m ? x.world.invoices.findDocument(Number(m[1])) : undefined;
	if (!m || !found || found.doc.fetch_status !== 'fetched') throw new ApiError('NOT_FOUND', 'File not found');
	const check = x.world.links.check(found.doc.id, x.url.searchParams);
	if (check !== 'ok') throw new ApiError('FORBIDDEN', check === 'expired' ? 'Download link has expired; read the document again for a fresh one' : 'Download link is not valid');
	const { doc } = found;
	const mime = doc.mime_type ?? 'application/pdf';
	sendBytes(x.res, 200, mime, documentBytes(mime, doc.file_name, doc.file_size), {
		'Content-Disposition': `inline; filename="${doc.file_name.replace(/"/g, '')}"`,
	});
}

async function route(x: Exchange, baseUrl: string): Promise<void> {
	const path = x.url.pathname.replace(/\/+$/, '') || '/';
	if (path.startsWith('/_sandbox/')) return handleControl(x);
	if (path.startsWith('/files/')) return serveFile(x);
	if (path !== API_BASE && !path.startsWith(`${API_BASE}/`)) throw new ApiError('NOT_FOUND', `No endpoint ${x.method} ${path}; the API is under ${API_BASE}`);
	const sub = path.slice(API_BASE.length) || '/';
	if (sub === '/openapi.json' || sub === '/docs' || sub.startsWith('/docs/')) {
		if (x.method !== 'GET') throw new ApiError('METHOD_NOT_ALLOWED', `Method ${x.method} is not allowed on ${path}`, {}, { Allow: 'GET' });
		if (sub === '/openapi.json') return sendJson(x.res, 200, buildOpenApi(baseUrl));
		if (serveDocs(x.res, API_BASE, sub)) return;
		throw new ApiError('NOT_FOUND', `No endpoint GET ${path}`);
	}
	return handleApi(x, sub);
}

/** The request listener: every reply is the envelope, and nothing a caller sends can crash it. */
export function createHandler(world: World, baseUrl: () => string) {
	return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
		const ctx: ReplyContext = { requestId: newRequestId(), startedAt: process.hrtime.bigint(), now: world.now };
		const x: Exchange = {
			req,
			res,
			ctx,
			url: new URL(req.url ?? '/', 'http://sandbox.invalid'),
			method: (req.method ?? 'GET').toUpperCase(),
			raw: { bytes: Buffer.alloc(0), tooLarge: false },
			world,
			headers: { 'X-Request-Id': ctx.requestId },
		};
		try {
			x.raw = await readBody(req);
			await route(x, baseUrl());
		} catch (e) {
			const error =
				e instanceof ApiError ? e : new ApiError('INTERNAL_ERROR', `Unexpected error; quote ${ctx.requestId} in a support request`);
			if (!(e instanceof ApiError)) console.error(`sandbox: ${ctx.requestId}`, e);
			if (!res.headersSent && !req.socket.destroyed) sendError(res, ctx, error, x.headers);
		}
	};
}
