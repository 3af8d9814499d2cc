/**
 * The browser test: n8n's editor (the current n8n; see scripts/browser.sh) in Debian's Chromium (scripts/ensure-chromium.sh), driven
 * with playwright-core, against the packed package, the sandbox and the local SMTP server, with
 * the examples of examples/ loaded as the demo loads them. Each step of steps.ts runs in turn;
 * a failing step is reported with a screenshot and the next one starts from a fresh page.
 *
 * Prints a line per step and `browser: N passed, M failed`; exits 1 on any failure.
 * Screenshots: .cache/screenshots/ (BROWSER_SCREENSHOTS overrides). Env: N8N_BIN (required),
 * CHROMIUM (default /usr/bin/chromium), BROWSER_ONLY=<step names>, BROWSER_KEEP=1.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext } from 'playwright-core';

import { mcpCredential } from '../e2e/mcp';
import { keyByName, startSandbox } from '../sandbox';
import { startMailbox } from '../e2e/mailbox';
import { startSlackStandIn } from '../e2e/slack';
import {
	copyExampleFiles,
	EXAMPLE_FILES_DIR,
	installPackedPackage,
	killAllChildren,
	makeTempUserFolder,
	n8nEnv,
	onVersion,
	REPO_ROOT,
	RestSession,
	runCliOk,
	runStage,
	startServer,
	type RunningN8n,
} from '../e2e/n8n';
import { Editor } from './editor';
import { checkFirstScreen, FIRST_SCREEN } from './firstScreen';
import { credentialCases, STEPS, type BrowserWorld } from './steps';

const BROWSER_WORKFLOWS = join(REPO_ROOT, 'test', 'browser', 'workflows');
const OWNER = { email: 'browser@example.com', password: 'Browser-Password-1', firstName: 'Browser', lastName: 'Test' };
/** Chromium as the brief for CI asks: headless, no sandbox (root), nothing fetched from outside. */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
	const bin = process.env.N8N_BIN;
	if (!bin) throw new Error('N8N_BIN must point at the n8n binary (scripts/browser.sh sets it)');
	const only = process.env.BROWSER_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
	const screenshotDir = process.env.BROWSER_SCREENSHOTS || join(REPO_ROOT, '.cache', 'screenshots');
	rmSync(screenshotDir, { recursive: true, force: true });
	const totalStart = Date.now();

	const userFolder = makeTempUserFolder();
	const profile = mkdtempSync(join(tmpdir(), 'sl-chromium-'));
	const sandbox = await startSandbox({ port: 0 });
	const mailbox = await startMailbox({ port: 0, dir: join(userFolder, 'mailbox') });
	const slack = await startSlackStandIn({ dir: join(userFolder, 'slack-ca') });
	let server: RunningN8n | undefined;
	let browser: BrowserContext | undefined;
	const outcomes: Array<{ name: string; ok: boolean; ms: number; detail?: string }> = [];
	try {
		installPackedPackage(userFolder);
		const n8n = await n8nEnv(bin, userFolder);
		Object.assign(n8n.env, slack.proxy.env());
		copyExampleFiles(userFolder);
		const work = join(userFolder, 'browser-input');
		mkdirSync(join(work, 'workflows'), { recursive: true });
		const credentials = [
			{ id: 'slDemoSandboxT2', name: 'Surplus Lines sandbox (t2)', type: 'surplusLinesApi', data: { apiKey: keyByName('t2').key, baseUrl: sandbox.baseUrl } },
			{ id: 'slDemoSmtp', name: 'Demo mailbox (local SMTP)', type: 'smtp', data: mailbox.credentialData() },
			{ id: 'slDemoSlack', name: 'Demo Slack (local stand-in)', type: 'slackApi', data: slack.credentialData() },
			mcpCredential(),
			// What the credential's test says when something is wrong (steps.ts, CREDENTIAL_CASES).
			...credentialCases(sandbox.baseUrl).map((c) => ({ id: c.id, name: c.name, type: 'surplusLinesApi', data: c.data })),
		];
		writeFileSync(join(work, 'credentials.json'), JSON.stringify(credentials));
		await runCliOk(n8n, ['import:credentials', `--input=${join(work, 'credentials.json')}`]);
		const examples = readdirSync(join(REPO_ROOT, 'examples')).filter((f) => f.endsWith('.json'));
		for (const file of examples) writeFileSync(join(work, 'workflows', file), readFileSync(join(REPO_ROOT, 'examples', file)));
		// The browser test's own workflows (panels no example shows, e.g. Invoice version 2).
		for (const file of readdirSync(BROWSER_WORKFLOWS)) writeFileSync(join(work, 'workflows', file), readFileSync(join(BROWSER_WORKFLOWS, file)));
		await runCliOk(n8n, ['import:workflow', '--separate', `--input=${join(work, 'workflows')}`]);

		let t = Date.now();
		server = await startServer(n8n);
		const session = new RestSession(server.url);
		await session.ownerSetupOrLogin(OWNER);
		console.log(`[browser] n8n at ${server.url} (${seconds(Date.now() - t)}), sandbox at ${sandbox.baseUrl}`);

		t = Date.now();
		browser = await chromium.launchPersistentContext(profile, {
			executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
		});
		console.log(`[browser] Chromium ${browser.browser()?.version() ?? ''} started (${seconds(Date.now() - t)})`);

		const world: BrowserWorld = {
			owner: OWNER,
			sandbox,
			session,
			slack,
			filesDir: join(userFolder, EXAMPLE_FILES_DIR),
			examples: examples.map((file) => JSON.parse(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')) as BrowserWorld['examples'][number]),
		};
		// A step may leave a panel changed (not saved): leave the page without n8n's "leave?" prompt.
		browser.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()));
		let page = browser.pages()[0] ?? (await browser.newPage());
		for (const step of STEPS) {
			if (only && !only.includes(step.name) && step.name !== 'sign in') continue;
			const editor = new Editor(page, server.url, screenshotDir);
			const start = Date.now();
			try {
				await step.run(editor, world);
				outcomes.push({ name: step.name, ok: true, ms: Date.now() - start });
				console.log(`[browser] passed  ${step.name} (${seconds(Date.now() - start)})`);
			} catch (error) {
				const detail = error instanceof Error ? error.message.split('\n').slice(0, 8).join('\n') : String(error);
				const shot = await editor.shot(`failed-${step.name}`).catch(() => 'no screenshot');
				outcomes.push({ name: step.name, ok: false, ms: Date.now() - start, detail: `${detail}\n(screenshot: ${shot})` });
				console.log(`[browser] FAILED  ${step.name} (${seconds(Date.now() - start)})\n${detail}`);
				// The next step starts from a page in a known state.
				await page.close().catch(() => undefined);
				page = await browser.newPage();
			}
		}
		// Last, on the demo itself (its own n8n: this one stops first).
		if (!only || only.includes(FIRST_SCREEN)) {
			await server.stop();
			server = undefined;
			const start = Date.now();
			try {
				await checkFirstScreen(bin, browser, screenshotDir);
				outcomes.push({ name: FIRST_SCREEN, ok: true, ms: Date.now() - start });
				console.log(`[browser] passed  ${FIRST_SCREEN} (${seconds(Date.now() - start)})`);
			} catch (error) {
				const detail = error instanceof Error ? error.message.split('\n').slice(0, 12).join('\n') : String(error);
				outcomes.push({ name: FIRST_SCREEN, ok: false, ms: Date.now() - start, detail });
				console.log(`[browser] FAILED  ${FIRST_SCREEN} (${seconds(Date.now() - start)})\n${detail}`);
			}
		}
	} finally {
		await browser?.close().catch(() => undefined);
		if (server) await server.stop();
		killAllChildren();
		await sandbox.close();
		await mailbox.close();
		await slack.close();
		rmSync(profile, { recursive: true, force: true });
		if (process.env.BROWSER_KEEP) console.log(`[browser] user folder kept: ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}

	console.log('\n[browser] results');
	for (const o of outcomes) {
		console.log(`  ${o.ok ? 'passed ' : 'failed '} ${o.name.padEnd(48)} ${seconds(o.ms)}${o.detail ? `\n          ${o.detail.split('\n').join('\n          ')}` : ''}`);
	}
	const passed = outcomes.filter((o) => o.ok).length;
	const failed = outcomes.length - passed;
	console.log(`[browser] screenshots in ${screenshotDir}; total ${seconds(Date.now() - totalStart)}`);
	console.log(`browser: ${passed} passed, ${failed} failed${onVersion(bin)}`);
	return failed > 0 || passed === 0 ? 1 : 0;
}

runStage('browser', main);
