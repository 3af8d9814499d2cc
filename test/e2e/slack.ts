/**
 * A local stand-in of Slack's Web API for the Slack example: n8n's own Slack node runs unchanged
 * and its requests to https://slack.com/api/... reach this handler through the local HTTPS proxy
 * (tlsProxy.ts). It answers the methods the node and its credential test use (`auth.test`,
 * `users.profile.get`, `chat.postMessage`) and keeps each message posted. The demo also serves a
 * small page listing the channel's messages.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { escape } from './mailbox';
import { startTlsProxy, type TlsProxy } from './tlsProxy';

export interface SlackMessage {
	channel: string;
	text: string;
	receivedAt: string;
	/** Slack's id of the message (its `ts`). */
	ts: string;
	/** Every field n8n sent, as received. */
	body: Record<string, unknown>;
}

export interface SlackStandIn {
	proxy: TlsProxy;
	/** The bot token the stand-in accepts; any other is `invalid_auth`, as Slack answers. */
	token: string;
	messages: SlackMessage[];
	/** Web API calls received, as `method name` (`chat.postMessage`), in order. */
	calls: string[];
	clear(): void;
	/** Resolves when at least `count` messages are in (rejects after timeoutMs). */
	waitFor(count: number, timeoutMs: number): Promise<SlackMessage[]>;
	/** n8n's Slack API credential data for this stand-in. */
	credentialData(): Record<string, unknown>;
	close(): Promise<void>;
}

const TEAM = { team: 'Surplus Lines Demo', team_id: 'T0SURPLUS', user: 'filings-bot', user_id: 'U0FILINGS', bot_id: 'B0FILINGS' };

function reply(res: ServerResponse, body: Record<string, unknown>): void {
	res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}

/** The request's parameters: a JSON body (what n8n sends), a form body, or the query string. */
async function params(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const raw = Buffer.concat(chunks).toString('utf8');
	const type = req.headers['content-type'] ?? '';
	if (raw && type.startsWith('application/json')) return JSON.parse(raw) as Record<string, unknown>;
	if (raw) return Object.fromEntries(new URLSearchParams(raw));
	return Object.fromEntries(url.searchParams);
}

export async function startSlackStandIn(opts: { dir: string; token?: string; proxyPort?: number }): Promise<SlackStandIn> {
	const token = opts.token ?? 'xoxb-local-stand-in-0000000000';
	const messages: SlackMessage[] = [];
	const calls: string[] = [];
	let sequence = 0;

	const handler = (req: IncomingMessage, res: ServerResponse): void => {
		const url = new URL(req.url ?? '/', 'https://slack.com');
		const method = url.pathname.replace(/^\/api\//, '');
		calls.push(method);
		params(req, url)
			.then((body) => {
				if (req.headers.authorization !== `Bearer ${token}`) return reply(res, { ok: false, error: 'invalid_auth' });
				if (method === 'auth.test') return reply(res, { ok: true, url: 'https://surplus-lines-demo.slack.com/', ...TEAM });
				if (method === 'users.profile.get') return reply(res, { ok: true, profile: { real_name: TEAM.user, display_name: TEAM.user } });
				if (method !== 'chat.postMessage') return reply(res, { ok: false, error: 'unknown_method' });
				const channel = typeof body.channel === 'string' ? body.channel : '';
				const text = typeof body.text === 'string' ? body.text : '';
				if (!channel) return reply(res, { ok: false, error: 'channel_not_found' });
				if (!text) return reply(res, { ok: false, error: 'no_text' });
				sequence += 1;
				const ts = `${Math.floor(Date.now() / 1000)}.${String(sequence).padStart(6, '0')}`;
				messages.push({ channel, text, ts, receivedAt: new Date().toISOString(), body });
				reply(res, { ok: true, channel: 'C0FILINGS', ts, message: { type: 'message', text, user: TEAM.user_id, bot_id: TEAM.bot_id, ts } });
			})
			.catch((error: Error) => {
				res.writeHead(400, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ ok: false, error: 'invalid_request', detail: error.message }));
			});
	};
	const proxy = await startTlsProxy({ host: 'slack.com', dir: opts.dir, handler, port: opts.proxyPort });

	return {
		proxy,
		token,
		messages,
		calls,
		clear: () => {
			messages.length = 0;
			calls.length = 0;
		},
		async waitFor(count, timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			while (messages.length < count) {
				if (Date.now() > deadline) throw new Error(`${messages.length} of ${count} Slack messages arrived within ${timeoutMs} ms`);
				await new Promise((r) => setTimeout(r, 200));
			}
			return [...messages];
		},
		credentialData: () => ({ accessToken: token }),
		close: () => proxy.close(),
	};
}

/** Slack's markup, enough to read: *bold*, _italic_, `code`, > quotes and :emoji: names. */
function mrkdwn(text: string): string {
	const emoji: Record<string, string> = { ':rotating_light:': '🚨', ':white_check_mark:': '✅', ':warning:': '⚠️', ':hourglass_flowing_sand:': '⏳' };
	return escape(text)
		.replace(/:[a-z_]+:/g, (name) => emoji[name] ?? name)
		.replace(/(^|\s)\*([^*\n]+)\*/g, '$1<b>$2</b>')
		.replace(/(^|\s)_([^_\n]+)_/g, '$1<i>$2</i>')
		.replace(/`([^`\n]+)`/g, '<code>$1</code>')
		.replace(/^&gt; ?(.*)$/gm, '<blockquote>$1</blockquote>');
}

/** The demo's channel page: the messages posted, newest first, refreshed every 5 seconds. */
export async function serveChannel(slack: SlackStandIn, port: number): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => {
		if (req.url === '/messages.json') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(slack.messages, null, 2));
			return;
		}
		const rows = [...slack.messages]
			.reverse()
			.map((m) => `<div class="msg"><div class="meta"><b>${escape(TEAM.user)}</b> in ${escape(m.channel)} · ${escape(m.receivedAt.slice(11, 19))} UTC</div><div class="text">${mrkdwn(m.text)}</div></div>`)
			.join('');
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(`<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Demo Slack channel (${slack.messages.length})</title>
<style>body{font:15px system-ui,sans-serif;margin:2em;max-width:60em}.msg{padding:10px 0;border-bottom:1px solid #ddd}.meta{color:#666;font-size:13px}.text{white-space:pre-wrap;margin-top:4px}blockquote{margin:2px 0;padding-left:8px;border-left:3px solid #ccc}</style></head>
<body><h1>Demo Slack channel</h1><p>${slack.messages.length} message(s) n8n's Slack node posted to the local stand-in of Slack's Web API (reached through the HTTPS proxy at ${escape(slack.proxy.url)}).</p>${rows}</body></html>`);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	const address = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${address.port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
