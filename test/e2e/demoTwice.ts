/**
 * The demo as a user runs it, started twice in a row on one folder (test/e2e/demo.ts, compiled,
 * as scripts/demo.sh starts it; every port set by its variable, statuses moving every 3 s):
 *
 * - each start, the notification examples mail and post the seeded invoices' moves, and no mail
 *   or message anywhere tells a backward move ("moved from success to new", "confirmed → not_sent"),
 *   which a second start meeting the first one's trigger state would;
 * - each start, the watch-list examples run as loaded: the filing example records what it filed
 *   in the data table the demo made; the watched Slack example, run as the editor's Execute
 *   button runs it once the sandbox has settled those invoices, posts their changes; then one
 *   invoice whose filing the sandbox rejected is confirmed, and the watched email example mails
 *   that change with its confirmation number. (The two read the one table, so each change goes
 *   to the one that looks first: they run one after the other.) A last look, every change posted,
 *   posts nothing and says why (issue 46).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEMO_OWNER, WATCH_EXAMPLES } from './demo';
import { freePort, killTree, RestSession, sleep, tail } from './n8n';
import { json } from './runData';
import { runViaServer } from './serverRun';

export const DEMO_CHECK = 'demo started twice';

/** How far along each value is; a move to a lower rank is backward. Status and filing share "sent". */
const RANK: Record<string, number> = { new: 0, not_sent: 0, sent: 1, error: 2, accepted: 2, rejected: 2, 're-submitted': 3, success: 4, confirmed: 4 };

/** "moved from X to Y" (the notification examples) and "X → Y" (the watch-list examples). */
export function backwardMoves(texts: string[]): string[] {
	const found: string[] = [];
	for (const text of texts) {
		for (const m of text.matchAll(/(?:moved from |\b)([a-z_-]+) (?:to|→) ([a-z_-]+)/g)) {
			const [from, to] = [RANK[m[1]], RANK[m[2]]];
			if (from !== undefined && to !== undefined && to < from) found.push(`${m[1]} → ${m[2]} in "${text}"`);
		}
	}
	return found;
}

interface Posted {
	mails: Array<{ subject: string; text: string }>;
	messages: Array<{ text: string }>;
}

async function posted(inboxPort: number, channelPort: number): Promise<Posted> {
	const mails = (await (await fetch(`http://127.0.0.1:${inboxPort}/messages.json`)).json()) as Posted['mails'];
	const messages = (await (await fetch(`http://127.0.0.1:${channelPort}/messages.json`)).json()) as Posted['messages'];
	return { mails, messages };
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s (${JSON.stringify(value).slice(0, 1500)})`);
		await sleep(2000);
	}
}

/** One start: up, the examples' mails and messages in, the watch-list examples run; then Ctrl-C. */
async function oneStart(bin: string, dir: string, start: number, log: string[]): Promise<string[]> {
	const ports = {
		N8N_PORT: await freePort(),
		SANDBOX_PORT: await freePort(),
		SMTP_PORT: await freePort(),
		INBOX_PORT: await freePort(),
		SLACK_PAGE_PORT: await freePort(),
		SLACK_PROXY_PORT: await freePort(),
		N8N_RUNNERS_BROKER_PORT: await freePort(),
	};
	const env = { ...process.env, N8N_BIN: bin, DEMO_DIR: dir, DEMO_FILES: join(dir, 'files'), SANDBOX_AUTO_ADVANCE_SECONDS: '3', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
	const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'demo.js')], { env, detached: true });
	let output = '';
	child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
	child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
	try {
		await waitFor('the demo\'s banner', async () => ({ up: output.includes('Surplus Lines demo is running.'), exited: child.exitCode }), (s) => s.up || s.exited !== null, 360_000);
		if (!output.includes('Surplus Lines demo is running.')) throw new Error(`the demo exited ${child.exitCode}:\n${tail(output, 2000)}`);
		const session = new RestSession(`http://127.0.0.1:${ports.N8N_PORT}`);
		await session.ownerSetupOrLogin(DEMO_OWNER);

		// The watch list as loaded: the filing example records what it files in the demo's table.
		const filing = await runViaServer(session, WATCH_EXAMPLES.file, bin, 180_000);
		const recorded = json(filing, 'Rows to Record').map((r) => Number(r.invoice_id));
		if (recorded.length === 0) throw new Error(`start ${start}: the watch-list filing example recorded no rows`);
		// The sandbox settles them in a few steps of 3 s (5 for those that err once); then the
		// watched Slack example runs as Execute runs it.
		await sleep(20_000);
		await runViaServer(session, WATCH_EXAMPLES.slack, bin, 180_000);
		// The sandbox rejects the filings of ids ending in 7: those rows stay on the list. One is
		// confirmed (a final state the sandbox leaves alone); the watched email example mails it.
		const rejected = recorded.find((id) => id % 10 === 7);
		if (rejected === undefined) throw new Error(`start ${start}: no recorded invoice whose filing the sandbox rejects (ids ${recorded.join(', ')})`);
		const moved = await fetch(`http://127.0.0.1:${ports.SANDBOX_PORT}/_sandbox/invoices/${rejected}/status`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ state_status: 'confirmed', confirmation_number: `DEMO-CONF-${start}` }),
		});
		if (!moved.ok) throw new Error(`start ${start}: confirming ${rejected} at the sandbox: ${moved.status} ${await moved.text()}`);
		await runViaServer(session, WATCH_EXAMPLES.mail, bin, 180_000);
		const watched = (text: string) => recorded.some((id) => text.includes(`Invoice ${id} `));
		const confirmedMail = (m: { subject: string; text: string }) =>
			m.subject.includes(`Invoice ${rejected} `) && /State filing: .* was confirmed by the state/.test(m.subject) && m.text.includes(`Confirmation number: DEMO-CONF-${start}`);
		// The seeded invoices (1001, 1002, policies DEMO-POL-1/2) through the active triggers: one poll a minute.
		const seen = await waitFor(
			`start ${start}: mails and messages from the notification and the watch-list examples`,
			() => posted(ports.INBOX_PORT, ports.SLACK_PAGE_PORT),
			(p) =>
				p.mails.some((m) => /Invoice 1001 \(policy DEMO-POL-1\b/.test(m.text)) &&
				p.messages.some((m) => /DEMO-POL-1|Invoice 1001\b/.test(m.text)) &&
				p.messages.some((m) => watched(m.text)) &&
				p.mails.some(confirmedMail),
			180_000,
		);
		// Run again now that every change was posted (issue 46): the look posts nothing and says why.
		const again = await runViaServer(session, WATCH_EXAMPLES.slack, bin, 180_000);
		const hints = (again.data.resultData.runData['Look for Changes']?.[0] as { hints?: Array<{ message: string }> } | undefined)?.hints ?? [];
		const said = hints.map((h) => h.message).find((m) => / watched: |watch list is empty/.test(m)) ?? '';
		if (!/ invoices? watched: none changed since the last look\. Nothing to post: |^The watch list is empty: /.test(said))
			throw new Error(`start ${start}: a look after every change was posted says why nothing is posted: ${JSON.stringify(said)}`);
		if (again.data.resultData.runData['Post to Slack Channel'] !== undefined) throw new Error(`start ${start}: the look after every change was posted posted again`);
		log.push(`start ${start}: ${seen.mails.length} mails, ${seen.messages.length} Slack messages, ${recorded.length} rows on the watch list; a look after: "${said.split('.')[0]}"`);
		return [...seen.mails.flatMap((m) => [m.subject, m.text]), ...seen.messages.map((m) => m.text)];
	} finally {
		killTree(child, 'SIGINT');
		const killer = setTimeout(() => killTree(child, 'SIGKILL'), 60_000);
		await exited;
		clearTimeout(killer);
	}
}

export async function checkDemoTwice(bin: string): Promise<{ name: string; status: 'passed' | 'failed'; ms: number; detail?: string }> {
	const startedAt = Date.now();
	const dir = mkdtempSync(join(tmpdir(), 'sl-demo-'));
	const log: string[] = [];
	try {
		for (const start of [1, 2]) {
			const texts = await oneStart(bin, dir, start, log);
			const backward = backwardMoves(texts);
			if (backward.length) throw new Error(`start ${start} told backward moves: ${backward.slice(0, 5).join('; ')}`);
		}
		console.log(`[e2e] passed  ${DEMO_CHECK}: ${log.join('; ')}; no backward move`);
		return { name: DEMO_CHECK, status: 'passed', ms: Date.now() - startedAt };
	} catch (error) {
		const message = (error as Error).message;
		console.log(`[e2e] FAILED  ${DEMO_CHECK}\n${message}`);
		return { name: DEMO_CHECK, status: 'failed', ms: Date.now() - startedAt, detail: message.split('\n').slice(0, 12).join('\n') };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
