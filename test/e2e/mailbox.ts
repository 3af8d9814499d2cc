/**
 * A local mail server for the notification example: n8n's Send Email node delivers to it over
 * real SMTP (smtp-server, loopback only, no TLS, no login), each message is kept as a .eml file
 * and parsed (mailparser) so the end-to-end run can check what arrived. The demo also serves a
 * small inbox page listing the messages.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mail {
	from: string;
	to: string;
	subject: string;
	text: string;
	receivedAt: string;
	/** The message as received, in the mailbox folder. */
	file: string;
}

export interface Mailbox {
	host: '127.0.0.1';
	port: number;
	dir: string;
	messages: Mail[];
	/** Forgets the messages received so far (their files stay). */
	clear(): void;
	/** Resolves when at least `count` messages are in (rejects after timeoutMs). */
	waitFor(count: number, timeoutMs: number): Promise<Mail[]>;
	/** n8n's SMTP credential data for this server. */
	credentialData(): Record<string, unknown>;
	close(): Promise<void>;
}

export async function startMailbox(opts: { port: number; dir: string }): Promise<Mailbox> {
	mkdirSync(opts.dir, { recursive: true });
	const messages: Mail[] = [];
	let received = 0;
	const server = new SMTPServer({
		// Plain SMTP on loopback: nothing to encrypt or log in to (n8n's credential says so).
		secure: false,
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		size: 5 * 1024 * 1024,
		onData(stream, session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', () => {
				const raw = Buffer.concat(chunks);
				received += 1;
				simpleParser(raw)
					.then((parsed) => {
						const subject = parsed.subject ?? '';
						const slug = subject.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
						const file = join(opts.dir, `${String(received).padStart(3, '0')}-${slug || 'no-subject'}.eml`);
						writeFileSync(file, raw);
						messages.push({
							from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
							to: session.envelope.rcptTo.map((r) => r.address).join(', '),
							subject,
							text: (parsed.text ?? '').trim(),
							receivedAt: new Date().toISOString(),
							file,
						});
						callback();
					})
					.catch((error: Error) => callback(error));
			});
		},
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port, '127.0.0.1', () => resolve());
	});
	const address = (server as unknown as { server: Server }).server.address() as AddressInfo;

	return {
		host: '127.0.0.1',
		port: address.port,
		dir: opts.dir,
		messages,
		clear: () => {
			messages.length = 0;
		},
		async waitFor(count, timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			while (messages.length < count) {
				if (Date.now() > deadline) throw new Error(`${messages.length} of ${count} emails arrived within ${timeoutMs} ms`);
				await new Promise((r) => setTimeout(r, 200));
			}
			return [...messages];
		},
		credentialData: () => ({ user: '', password: '', host: '127.0.0.1', port: address.port, secure: false, disableStartTls: true }),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

export const escape = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** The demo's inbox page: the messages, newest first, refreshed every 5 seconds. */
export async function serveInbox(mailbox: Mailbox, port: number): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => {
		if (req.url === '/messages.json') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(mailbox.messages, null, 2));
			return;
		}
		const rows = [...mailbox.messages]
			.reverse()
			.map((m) => `<tr><td>${escape(m.receivedAt.slice(11, 19))}</td><td>${escape(m.to)}</td><td><b>${escape(m.subject)}</b><pre>${escape(m.text)}</pre></td></tr>`)
			.join('');
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(`<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Demo inbox (${mailbox.messages.length})</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}td{vertical-align:top;padding:6px 12px;border-bottom:1px solid #ddd}pre{white-space:pre-wrap;margin:4px 0 0;color:#444}</style></head>
<body><h1>Demo inbox</h1><p>${mailbox.messages.length} message(s) delivered to the local SMTP server at 127.0.0.1:${mailbox.port}; files in ${escape(mailbox.dir)}</p>
<table><tr><th>Time (UTC)</th><th>To</th><th>Message</th></tr>${rows}</table></body></html>`);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	const address = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${address.port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
