/**
 * The README's first screen, followed in Chromium on the demo itself (test/e2e/demo.ts, started as
 * scripts/demo.sh starts it, on a fresh folder): the lead's own sheet, with other headers than the
 * sample's, dropped as CSV and as XLSX in the files folder the banner names; the example's one
 * setting, Your Sheet, changed in its panel to the CSV, saved and run, then to the XLSX and run
 * again; the demo stopped (Ctrl-C) and started again on the same folders; the changed workflow,
 * both sheets and both runs' results workbooks are still there.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import ExcelJS from 'exceljs';
import type { BrowserContext } from 'playwright-core';

import { DEMO_OWNER } from '../e2e/demo';
import { freePort, killTree, RestSession, sleep, tail } from '../e2e/n8n';
import { ALREADY_FILED, OWN_SHEET, OWN_SHEET_RESULTS, readResultsWorkbook, resultsWorkbooks } from '../e2e/ownSheet';
import { Editor, TIMEOUT } from './editor';

export const FIRST_SCREEN = "the README's first screen on the demo: own sheet as CSV and XLSX kept across a restart";
const EXAMPLE = 'slExampleSheet01';
const SETTING = 'Your Sheet';

interface Demo {
	url: string;
	output: () => string;
	stop: () => Promise<void>;
}

/** One start of the demo on the given folders; resolves once its banner is out. */
async function startDemo(bin: string, dir: string, files: string): Promise<Demo> {
	const ports: Record<string, number> = {};
	for (const name of ['N8N_PORT', 'SANDBOX_PORT', 'SMTP_PORT', 'INBOX_PORT', 'SLACK_PAGE_PORT', 'SLACK_PROXY_PORT', 'N8N_RUNNERS_BROKER_PORT']) ports[name] = await freePort();
	const env = { ...process.env, N8N_BIN: bin, DEMO_DIR: dir, DEMO_FILES: files, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
	const child: ChildProcess = spawn(process.execPath, [join(__dirname, '..', 'e2e', 'demo.js')], { env, detached: true });
	let output = '';
	child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
	child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
	const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
	const stop = async () => {
		killTree(child, 'SIGINT');
		const killer = setTimeout(() => killTree(child, 'SIGKILL'), 60_000);
		await exited;
		clearTimeout(killer);
	};
	const deadline = Date.now() + 600_000;
	while (!output.includes('Surplus Lines demo is running.')) {
		if (child.exitCode !== null || Date.now() > deadline) {
			await stop();
			throw new Error(`the demo did not come up:\n${tail(output, 2000)}`);
		}
		await sleep(1000);
	}
	return { url: `http://127.0.0.1:${ports.N8N_PORT}`, output: () => output, stop };
}

/** The lead's sheet as a spreadsheet: the CSV's cells, amounts and codes as numbers. */
async function writeXlsx(file: string): Promise<void> {
	const workbook = new ExcelJS.Workbook();
	const sheet = workbook.addWorksheet('Bordereau');
	for (const line of OWN_SHEET) {
		const cells = line.match(/("[^"]*"|[^,]*)(,|$)/g)?.map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '')) ?? [];
		sheet.addRow(cells.slice(0, 9).map((cell) => (/^[$\d,.]+$/.test(cell) && /\d/.test(cell) ? Number(cell.replace(/[$,]/g, '')) : cell)));
	}
	await workbook.xlsx.writeFile(file);
}

/** Sets the example's one setting in its panel, as a user does, and saves the workflow. */
async function setSheet(editor: Editor, path: string): Promise<void> {
	await editor.openWorkflow(EXAMPLE);
	const ndv = await editor.openNode(SETTING);
	const fields = ndv.locator('input:visible, textarea:visible');
	const values = await fields.evaluateAll((els) => els.map((el) => (el as unknown as { value: string }).value));
	const at = values.findIndex((v) => /\.(csv|xlsx)$/.test(v));
	assert.ok(at >= 0, `the panel of ${SETTING} shows the sheet's path: ${JSON.stringify(values)}`);
	const field = fields.nth(at);
	await field.click();
	await field.fill(path);
	await field.press('Tab');
	await editor.shot(`your-sheet-${path.split('.').pop() ?? ''}`);
	await editor.closeNode();
	await editor.page.keyboard.press('Control+s');
	await editor.page.waitForTimeout(1500);
}

async function runExample(editor: Editor, files: string, sheetFile: string, before: number): Promise<string> {
	await editor.byTestId('execute-workflow-button').first().click();
	const deadline = Date.now() + 180_000;
	while (resultsWorkbooks(files, sheetFile).length <= before && Date.now() < deadline) await editor.page.waitForTimeout(1000);
	const books = resultsWorkbooks(files, sheetFile);
	assert.equal(books.length, before + 1, 'the run wrote a results workbook of its own beside the sheet');
	await editor.page.waitForTimeout(1000);
	return books[books.length - 1];
}

export async function checkFirstScreen(bin: string, browser: BrowserContext, screenshotDir: string): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'sl-first-screen-'));
	const files = join(dir, 'demo-files');
	let demo: Demo | undefined;
	try {
		demo = await startDemo(bin, join(dir, 'demo'), files);
		assert.ok(demo.output().includes(`YOUR SHEETS AND RESULTS: ${files}`), 'the banner names the folder to drop the sheet in');
		writeFileSync(join(files, 'my-bordereau.csv'), `${OWN_SHEET.join('\n')}\n`);
		await writeXlsx(join(files, 'my-bordereau.xlsx'));

		let page = await browser.newPage();
		let editor = new Editor(page, demo.url, screenshotDir);
		await editor.signIn(DEMO_OWNER.email, DEMO_OWNER.password);
		await setSheet(editor, join(files, 'my-bordereau.csv'));
		const first = await runExample(editor, files, 'my-bordereau.csv', 0);
		const csvRows = await readResultsWorkbook(first);
		assert.deepEqual(csvRows.map((r) => [r.Row, r['Policy Number'], r.Insured, r.Outcome]), OWN_SHEET_RESULTS);
		await editor.shot('first-screen-csv-run');

		await setSheet(editor, join(files, 'my-bordereau.xlsx'));
		const second = await runExample(editor, files, 'my-bordereau.csv', 1);
		const xlsxRows = await readResultsWorkbook(second);
		assert.deepEqual(
			xlsxRows.map((r) => [r.Row, r['Policy Number'], r.Outcome]),
			OWN_SHEET_RESULTS.map(([row, policy, , outcome]) => [row, policy, outcome === 'Filed' ? ALREADY_FILED : outcome]),
			'the XLSX copy: the same rows, already filed, nothing twice',
		);
		await editor.shot('first-screen-xlsx-run');
		await page.close();

		// Ctrl-C, then npm run demo again on the same folders.
		await demo.stop();
		demo = await startDemo(bin, join(dir, 'demo'), files);
		assert.match(demo.output(), /Brought back from the last run: "File a bordereau from disk as invoices/);
		for (const file of ['my-bordereau.csv', 'my-bordereau.xlsx', first, second]) assert.ok(existsSync(file.includes('/') ? file : join(files, file)), `${file} is still there`);
		page = await browser.newPage();
		editor = new Editor(page, demo.url, screenshotDir);
		await editor.signIn(DEMO_OWNER.email, DEMO_OWNER.password);
		const session = new RestSession(demo.url);
		await session.ownerSetupOrLogin(DEMO_OWNER);
		const kept = await session.request<{ data: { nodes: Array<{ name: string; parameters: unknown }> } }>('GET', `/rest/workflows/${EXAMPLE}`);
		const setting = kept.body.data.nodes.find((n) => n.name === SETTING);
		assert.ok(JSON.stringify(setting?.parameters).includes(join(files, 'my-bordereau.xlsx')), `the example keeps the lead's setting: ${JSON.stringify(setting?.parameters)}`);
		await editor.openWorkflow(EXAMPLE);
		const ndv = await editor.openNode(SETTING);
		await ndv.locator('input:visible, textarea:visible').first().waitFor({ timeout: TIMEOUT });
		await editor.shot('first-screen-after-restart');
		await page.close();
	} finally {
		await demo?.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}
