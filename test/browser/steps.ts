/**
 * The browser test's steps, in order. Each is what a user does in the editor, checked on what the
 * editor then shows. Add a step by adding an entry (and, for a new panel, a helper in editor.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { CREDENTIAL_TEST_MESSAGES } from '../../credentials/SurplusLinesApi.credentials';
import { SurplusLinesCalculator } from '../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { checkApiKey, checkBaseUrl } from '../../nodes/shared/credentialRules';
import { FEE_TYPE_NAMES } from '../../nodes/shared/service';
import type { RunningSandbox } from '../sandbox';
import { keyByName } from '../sandbox';
import type { RestSession } from '../e2e/n8n';
import type { SlackStandIn } from '../e2e/slack';
import { OWN_SHEET, OWN_SHEET_REFUSAL, OWN_SHEET_RESULTS, readResultsWorkbook, resultsWorkbooks } from '../e2e/ownSheet';
import { TIMEOUT, type Editor } from './editor';

export interface BrowserWorld {
	owner: { email: string; password: string };
	sandbox: RunningSandbox;
	session: RestSession;
	/** The local stand-in of Slack's Web API the Slack example posts to. */
	slack: SlackStandIn;
	/** n8n's files folder, where the bordereau example reads its sample and writes its results. */
	filesDir: string;
	examples: Array<{ id: string; name: string; nodes: Array<{ name: string; type: string }> }>;
}

export interface Step {
	name: string;
	run(editor: Editor, world: BrowserWorld): Promise<void>;
}

const STICKY = 'n8n-nodes-base.stickyNote';
/** test/browser/workflows/invoice-v2-panel.json: Invoice version 2 panels no example shows. */
const V2_WORKFLOW = 'slBrowserInvV2';
const OURS = 'n8n-nodes-surplus-lines.';

/**
 * The options Create Many (version 2) offers under Add Option, read from the node's own
 * description, so a new option changes what is expected here without editing the step. `set`
 * holds the options already chosen (their values decide the options shown beside them).
 */
function createManyV2Options(set: Record<string, string>): string[] {
	const options = new SurplusLinesInvoice().description.properties.find(
		(p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('createMany'),
	)?.options as Array<{ name: string; displayName: string; displayOptions?: { show?: Record<string, unknown[]> } }>;
	assert.ok(options, 'Create Many has an Options collection');
	const shown = (show: Record<string, unknown[]> = {}) =>
		Object.entries(show).every(([name, values]) =>
			name === '@version'
				? values.some((v) => v === 2 || (typeof v === 'object' && v !== null && ((v as { _cnd?: { gte?: number } })._cnd?.gte ?? 3) <= 2))
				: set[name] !== undefined && values.includes(set[name]),
		);
	return options.filter((o) => set[o.name] === undefined && shown(o.displayOptions?.show)).map((o) => o.displayName).sort();
}

async function openV2(editor: Editor, node: string) {
	await editor.openWorkflow(V2_WORKFLOW);
	return await editor.openNode(node);
}

function example(world: BrowserWorld, id: string): BrowserWorld['examples'][number] {
	const found = world.examples.find((e) => e.id === id);
	assert.ok(found, `example ${id} is loaded`);
	return found;
}

async function createInvoices(world: BrowserWorld, policies: string[]): Promise<void> {
	for (const policy of policies) {
		const res = await fetch(`${world.sandbox.baseUrl}/invoices`, {
			method: 'POST',
			headers: { authorization: `Bearer ${keyByName('t2').key}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				policy_number: policy,
				insured_name: 'Blue Ridge Storage Inc',
				state_code: 'TX',
				net_premium: 12000,
				effective_date: '2026-01-01',
				expiration_date: '2027-01-01',
				type_code: 'NEW',
			}),
		});
		assert.equal(res.status, 201, `setup: invoice for ${policy}`);
	}
}

/**
 * The warning over a run's output: "5 of 25 rows refused: rows 6 (item 4, policy …), …".
 * Each row listed must be the file's line: its item index plus two (the header is line 1).
 */
function refusedRowsOf(text: string): { count: number; text: string } {
	const head = /(\d+) of (\d+) rows refused: rows? /.exec(text);
	assert.ok(head, `the warning counts the refused rows: ${text}`);
	const rows = [...text.matchAll(/(\d+) \(item (\d+)/g)].map(([, row, item]) => [Number(row), Number(item)]);
	assert.equal(rows.length, Number(head[1]), `every refused row is listed: ${text}`);
	for (const [row, item] of rows) assert.equal(row, item + 2, `row ${row} is item ${item}: ${text}`);
	return { count: Number(head[1]), text };
}

/** The edge labels of the canvas after a run: each says how many items went along it. */
async function edgeLabelWith(editor: Editor, count: number): Promise<void> {
	const label = editor.byTestId('edge-label').filter({ hasText: new RegExp(`(^|\\D)${count} items?\\b`) }).first();
	await label.waitFor({ timeout: 120_000 });
}

/**
 * Runs the bordereau example from the canvas as a user does: the error branch counts the refused
 * rows, and the results workbook names every row by the file's line and its policy number.
 */
async function runBordereauExample(editor: Editor, world: BrowserWorld, expected: { filed: number; refused: number; shot: string }): Promise<IDataObject[]> {
	for (const old of resultsWorkbooks(world.filesDir)) rmSync(old, { force: true });
	await editor.openWorkflow('slExampleSheet01');
	await editor.byTestId('execute-workflow-button').first().click();
	// The workbook is written by the last node but one: once it is there, the run's counts are on the canvas.
	const deadline = Date.now() + 120_000;
	while (!resultsWorkbooks(world.filesDir).length && Date.now() < deadline) await editor.page.waitForTimeout(500);
	const [workbook] = resultsWorkbooks(world.filesDir);
	assert.ok(workbook && existsSync(workbook), 'the example wrote its results workbook');
	await edgeLabelWith(editor, expected.refused);
	await edgeLabelWith(editor, expected.filed);
	await editor.shot(expected.shot);
	return await readResultsWorkbook(world.filesDir);
}

function problem(checked: { ok: true } | { ok: false; problem: string }): string {
	if (checked.ok) throw new Error('expected a refusal');
	return checked.problem;
}

/** Credentials that are wrong in one way each, and what their test must say. */
export function credentialCases(sandboxBaseUrl: string): Array<{ id: string; name: string; data: { apiKey: string; baseUrl: string }; message: string }> {
	const key = keyByName('t2').key;
	const prefix = key.split('_').slice(0, -2).join('_');
	const port = new URL(sandboxBaseUrl).port;
	return [
		{ id: 'slBrowserBadKey', name: 'Malformed key', data: { apiKey: 'not-a-key', baseUrl: sandboxBaseUrl }, message: problem(checkApiKey('not-a-key')) },
		{ id: 'slBrowserUnknown', name: 'Unknown key', data: { apiKey: `${prefix}_t2_${'z'.repeat(32)}`, baseUrl: sandboxBaseUrl }, message: CREDENTIAL_TEST_MESSAGES.keyRefused },
		{ id: 'slBrowserHttp', name: 'Plain http, not loopback', data: { apiKey: key, baseUrl: `http://0.0.0.0:${port}/api/v1` }, message: problem(checkBaseUrl('http://0.0.0.0')) },
	];
}

function credentialSays(c: ReturnType<typeof credentialCases>[number]): Step {
	return {
		name: `credential test: ${c.name.toLowerCase()}`,
		async run(editor) {
			const modal = await editor.openCredential(c.name);
			// The banner says "Couldn't connect"; "More details" shows the test's own message.
			await modal.getByText('More details', { exact: true }).first().click();
			await modal.getByText(c.message.slice(0, 60), { exact: false }).first().waitFor({ timeout: TIMEOUT });
			await editor.shot(`credential-${c.id}`);
			await editor.closeModal(modal);
		},
	};
}

/** The t2 key's calls left this hour, as the sandbox counts them (this read costs one). */
async function callsLeft(world: BrowserWorld): Promise<number> {
	const res = await fetch(`${world.sandbox.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${keyByName('t2').key}` } });
	assert.equal(res.status, 200);
	return Number(res.headers.get('x-ratelimit-remaining'));
}

/** Opens every node's panel of one example: the panel shows the node and its parameters. */
function everyPanelOf(id: string): Step {
	return {
		name: `example ${id}: every node panel`,
		async run(editor, world) {
			const workflow = example(world, id);
			await editor.openWorkflow(id);
			const nodes = workflow.nodes.filter((n) => n.type !== STICKY);
			assert.equal(await editor.byTestId('canvas-node').count(), nodes.length, 'every node is on the canvas');
			await editor.shot(`${id}-canvas`);
			for (const node of nodes) {
				const ndv = await editor.openNode(node.name);
				await editor.nodeTitle(node.name).waitFor({ timeout: TIMEOUT });
				const issues = await ndv.locator('[data-test-id="parameter-issues"]').count();
				assert.equal(issues, 0, `${node.name}: the panel shows no parameter issues`);
				if (node.type.startsWith(OURS)) await editor.shot(`${id}-${node.name}`);
				await editor.closeNode();
			}
		},
	};
}

export const STEPS: Step[] = [
	{
		name: 'sign in',
		async run(editor, world) {
			await editor.signIn(world.owner.email, world.owner.password);
			await editor.page.getByText('File a bordereau from disk', { exact: false }).first().waitFor({ timeout: TIMEOUT });
			await editor.shot('workflows');
		},
	},
	everyPanelOf('slExampleSheet01'),
	everyPanelOf('slExampleTax0001'),
	everyPanelOf('slExampleDocs001'),
	everyPanelOf('slExampleNotify1'),
	everyPanelOf('slExampleSlack01'),
	everyPanelOf('slExampleMcpRead'),
	everyPanelOf('slExampleMcpFile'),
	{
		name: 'MCP example: the trigger asks for a token and each tool tells the model what it does',
		async run(editor) {
			await editor.openWorkflow('slExampleMcpRead');
			await editor.shot('mcp-tools-canvas');
			await editor.openNode('MCP Server Trigger');
			assert.equal(await editor.parameter('authentication').locator('input').first().inputValue(), 'Bearer Auth');
			await editor.closeNode();
			await editor.openNode('Estimate surplus lines tax');
			const written = new SurplusLinesCalculator().description.properties.find((p) => p.name === 'toolDescription')?.default;
			assert.equal(await editor.parameter('toolDescription').locator('textarea').first().inputValue(), written);
			assert.equal(await editor.parameter('descriptionType').count(), 0, 'no "Set Automatically" switch of n8n’s own');
			await editor.shot('mcp-tool-description');
			await editor.closeNode();
		},
	},
	{
		name: 'a dropdown loads from the sandbox',
		async run(editor) {
			await editor.openWorkflow('slExampleDocs001');
			await editor.openNode('Create Invoice');
			const states = await editor.dropdownOptions('stateCode');
			assert.ok(states.length >= 51, `the service's 50 states and DC, got ${states.length}`);
			assert.ok(states.some((s) => /Texas/.test(s)), `Texas among ${states.slice(0, 5).join(', ')}…`);
			await editor.shot('state-dropdown');
			await editor.page.keyboard.press('Escape');
		},
	},
	{
		name: 'invoice v2: idempotency in options',
		async run(editor) {
			const ndv = await openV2(editor, 'Create Invoice (Version 2)');
			assert.equal(await editor.parameter('idempotency').count(), 0, 'no Idempotency on the main panel');
			const key = editor.parameter('options.idempotencyKey');
			await editor.parameter('options.idempotency').getByRole('combobox').first().waitFor({ timeout: TIMEOUT });
			assert.equal(await editor.parameter('options.idempotency').locator('input').first().inputValue(), 'Own Key');
			assert.equal(await key.locator('input').first().inputValue(), 'ROW-1');
			await key.scrollIntoViewIfNeeded();
			assert.equal(await ndv.locator('[data-test-id="parameter-issues"]').count(), 0, 'the panel shows no parameter issues');
			await editor.shot('invoice-v2-create-options');
			await editor.closeNode();
		},
	},
	{
		name: 'invoice v2: the groups filled least are additional fields',
		async run(editor) {
			await openV2(editor, 'Create Invoice (Version 2)');
			for (const kept of ['coverages', 'insurers', 'fees']) await editor.byTestId(`fixed-collection-${kept}`).waitFor({ timeout: TIMEOUT });
			for (const folded of ['insuredAddress', 'documents', 'insurerGroups']) {
				assert.equal(await editor.byTestId(`fixed-collection-${folded}`).count(), 0, `${folded} is not a section of its own`);
			}
			const offered = await editor.optionsToAdd('Additional Fields');
			for (const name of ['Documents', 'Insured Address', 'Insurer Groups by Line of Business', 'Invoice Number']) {
				assert.ok(offered.includes(name), `Additional Fields offers ${name} (offered: ${offered.join(', ')})`);
			}
			await editor.shot('invoice-v2-additional-fields');
			await editor.page.keyboard.press('Escape');
		},
	},
	{
		name: 'invoice v2: the idempotency key is offered once own key is chosen',
		async run(editor) {
			await openV2(editor, 'Create Many (Version 2)');
			const before = createManyV2Options({});
			assert.ok(before.includes('Idempotency') && !before.includes('Idempotency Key'));
			assert.deepEqual((await editor.optionsToAdd()).sort(), before);
			await editor.choose('Idempotency');
			await editor.parameter('options.idempotency').click();
			await editor.choose('Own Key');
			const after = createManyV2Options({ idempotency: 'own' });
			assert.ok(after.includes('Idempotency Key'), 'the description offers Idempotency Key once Idempotency is Own Key');
			assert.deepEqual((await editor.optionsToAdd()).sort(), after, 'Idempotency Key is offered once Idempotency is Own Key');
			await editor.shot('invoice-v2-create-many-options');
			await editor.page.keyboard.press('Escape');
		},
	},
	{
		name: 'invoice v2: the effective date is a date picker',
		async run(editor) {
			await openV2(editor, 'Create Invoice (Version 2)');
			const input = editor.parameter('effectiveDate').locator('.el-date-editor--datetime input');
			assert.equal(await input.inputValue(), '2026-03-01 00:00:00');
			await input.click();
			const picker = editor.page.locator('.el-picker-panel:visible');
			await picker.waitFor({ timeout: TIMEOUT });
			await picker.locator('td.available').getByText('15', { exact: true }).click();
			await editor.shot('invoice-v2-date-picker');
			await picker.getByRole('button', { name: 'OK' }).click();
			assert.equal(await input.inputValue(), '2026-03-15 00:00:00', 'the day picked is the field’s value');
			await editor.closeNode();
		},
	},
	{
		name: 'invoice v2: fee types by name with the code beside',
		async run(editor) {
			await openV2(editor, 'Create Invoice (Version 2)');
			const feeType = editor.parameter('fees.fee[0].type');
			await feeType.scrollIntoViewIfNeeded();
			const types = await editor.dropdownOptions(feeType);
			for (const code of ['sl_tax', 'figa', 'stamping_fee']) {
				const label = `${FEE_TYPE_NAMES[code]} (${code})`;
				assert.ok(types.some((t) => t.split('\n')[0] === label), `${label} among ${types.slice(0, 4).join(' | ')}…`);
			}
			// Typing filters by name: the taxes, each with its code.
			await editor.page.keyboard.type('tax');
			const shown = editor.page.locator('.el-select-dropdown:visible .el-select-dropdown__item').filter({ visible: true });
			await shown.getByText(`${FEE_TYPE_NAMES.sl_tax} (sl_tax)`, { exact: true }).waitFor({ timeout: TIMEOUT });
			// The dropdown hides the other options a moment after the first match shows.
			const deadline = Date.now() + TIMEOUT;
			while ((await shown.count()) >= types.length && Date.now() < deadline) await editor.page.waitForTimeout(100);
			assert.ok((await shown.count()) < types.length, 'the list is filtered');
			await editor.shot('invoice-v2-fee-types');
			await editor.page.keyboard.press('Escape');
		},
	},
	{
		name: "the credential's test",
		async run(editor, world) {
			// n8n tests a saved credential when it is opened; Retry tests it again.
			const modal = await editor.openCredential('Surplus Lines sandbox (t2)');
			await modal.getByText('Connection tested successfully').first().waitFor({ timeout: TIMEOUT });
			const before = await callsLeft(world);
			await modal.getByRole('button', { name: 'Retry' }).click();
			// The success banner stays up while the test runs again: wait for the test's call (each of
			// our reads costs one, so the test's shows as one more than we made).
			let reads = 0;
			let after = before;
			const deadline = Date.now() + TIMEOUT;
			while (before - after < reads + 1 && Date.now() < deadline) {
				await editor.page.waitForTimeout(500);
				after = await callsLeft(world);
				reads += 1;
			}
			assert.ok(before - after >= reads + 1, `the Retry button called the sandbox (calls left ${before} → ${after} after ${reads} reads of ours)`);
			await modal.getByText('Connection tested successfully').first().waitFor({ timeout: TIMEOUT });
			await editor.shot('credential-tested');
			await editor.closeModal(modal);
		},
	},
	// The messages do not depend on the sandbox's port: any base URL gives the same cases.
	...credentialCases('http://127.0.0.1:1/api/v1').map(credentialSays),
	{
		name: 'execute a node (tax estimate)',
		async run(editor) {
			await editor.openWorkflow('slExampleTax0001');
			await editor.openNode('Estimate Surplus Lines Tax');
			const output = await editor.executeOpenNode();
			await output.getByText('3 items').first().waitFor({ timeout: TIMEOUT });
			await output.getByText('10698.78').first().waitFor({ timeout: TIMEOUT });
			await editor.shot('tax-estimate-output');
			await editor.closeNode();
		},
	},
	{
		name: 'error items of the bordereau',
		async run(editor) {
			await editor.openWorkflow('slExampleSheet01');
			await editor.openNode('Result per Refused Row');
			const output = await editor.executeOpenNode();
			await output.getByText('5 items').first().waitFor({ timeout: 60_000 });
			// A refused row's reason in the sheet's words (nodes/shared/refusals.ts).
			const reason = output.getByText(/Column "Insured Name" is .*insured_name field is required/).first();
			await reason.waitFor({ timeout: TIMEOUT });
			await reason.scrollIntoViewIfNeeded();
			await editor.shot('bordereau-refused-rows');
			await editor.closeNode();
		},
	},
	{
		// The bordereau example, unchanged, on a sheet with other headers (Policy No, Named Insured,
		// Risk State…). Before the run of the sample below: the mapper step reads the sample's columns
		// from the example's last run.
		name: 'the bordereau example on a sheet with other headers',
		async run(editor, world) {
			const file = join(world.filesDir, 'sample-bordereau.csv');
			const sample = readFileSync(file, 'utf8');
			writeFileSync(file, `${OWN_SHEET.join('\n')}\n`);
			try {
				const workbook = await runBordereauExample(editor, world, { filed: 5, refused: 2, shot: 'bordereau-other-headers-canvas' });
				assert.deepEqual(workbook.map((r) => [r.Row, r['Policy Number'], r.Insured, r.Outcome]), OWN_SHEET_RESULTS);
				assert.match(String(workbook[3].Reason), OWN_SHEET_REFUSAL);
				assert.ok(workbook.filter((r) => r.Outcome === 'Filed').every((r) => Number(r['Invoice ID']) > 0), 'each filed row has its invoice');
			} finally {
				writeFileSync(file, sample);
			}
		},
	},
	{
		// The example as shipped, run from the canvas (issue 46): 20 filed, 5 on the error branch.
		name: 'the bordereau example: the error branch on the canvas and the workbook in sheet order',
		async run(editor, world) {
			const sample = readFileSync(join(world.filesDir, 'sample-bordereau.csv'), 'utf8').trim().split('\n');
			const workbook = await runBordereauExample(editor, world, { filed: 20, refused: 5, shot: 'bordereau-example-canvas' });
			assert.deepEqual(
				workbook.map((r) => [r.Row, r['Policy Number']]),
				sample.slice(1).map((line, i) => [i + 2, line.split(',')[0]]),
				"every row by the file's line and its policy number",
			);
			assert.equal(workbook.filter((r) => r.Outcome === 'Refused: not filed').length, 5);
		},
	},
	{
		name: "the trigger's test event",
		async run(editor, world) {
			await createInvoices(world, ['DEMO-POL-1', 'DEMO-POL-2']);
			await editor.openWorkflow('slExampleNotify1');
			await editor.openNode('When a Filing Changes');
			const output = await editor.executeOpenNode();
			// The current state of both watched policies: status and filing state of each.
			await output.getByText('4 items').first().waitFor({ timeout: TIMEOUT });
			await editor.outputAsJson(output);
			// (the JSON view renders what is on screen: the first event)
			await output.getByText('"invoice_status_changed"').first().waitFor({ timeout: TIMEOUT });
			await output.getByText('"DEMO-POL-1"').first().waitFor({ timeout: TIMEOUT });
			await editor.shot('trigger-test-event');
			await editor.closeNode();
		},
	},
	{
		name: 'the Slack example posts through the Slack node',
		async run(editor, world) {
			const watched = await fetch(`${world.sandbox.baseUrl}/invoices?policy_number=DEMO-POL-2`, { headers: { authorization: `Bearer ${keyByName('t2').key}` } });
			// Run alone (BROWSER_ONLY), the watched policies are not filed yet.
			if (((await watched.json()) as { data: { invoices: unknown[] } }).data.invoices.length === 0) await createInvoices(world, ['DEMO-POL-1', 'DEMO-POL-2']);
			world.slack.clear();
			await editor.openWorkflow('slExampleSlack01');
			await editor.openNode('Post to Slack Channel');
			// Execute step runs the trigger's test event (the watched invoices' current state) and the Compose Message node first.
			const output = await editor.executeOpenNode();
			await output.getByText('4 items').first().waitFor({ timeout: 60_000 });
			await editor.outputAsJson(output);
			await output.getByText('"message_timestamp"').first().waitFor({ timeout: TIMEOUT });
			await editor.shot('slack-node-output');
			assert.equal(world.slack.messages.length, 4, 'the stand-in of Slack received one message per event');
			assert.ok(world.slack.messages.every((m) => m.channel === '#surplus-lines-filings' && !m.text.includes('n8n workflow')));
			await editor.closeNode();
		},
	},
	{
		// The bordereau wired with On Error = Continue (using error output)
		// (test/browser/workflows/bordereau-error-output.json), run from the canvas as a user runs it.
		name: 'refused rows of the bordereau on the canvas and over the output',
		async run(editor) {
			await editor.openWorkflow('slBrowserBdxErrOut');
			await editor.byTestId('execute-workflow-button').first().click();
			// The canvas: the error branch counts the refused rows.
			const labels = editor.byTestId('edge-label');
			await labels.filter({ hasText: '25 items' }).first().waitFor({ timeout: 120_000 });
			const ndv = await editor.openNode('Create Invoice');
			const hints = ndv.locator('[data-test-id="run-data-hints"]');
			const hint = hints.getByText(/rows refused: rows? \d/).first();
			await hint.waitFor({ timeout: TIMEOUT });
			const refused = refusedRowsOf(await hint.innerText());
			await editor.shot('bordereau-refused-rows-hint');
			await editor.closeNode();
			await labels.filter({ hasText: new RegExp(`(^|\\D)${refused.count} items?\\b`) }).first().waitFor({ timeout: TIMEOUT });
			await editor.shot('bordereau-refused-rows-canvas');
			assert.ok(refused.count > 0 && refused.count < 25, `some rows of 25 refused: ${refused.text}`);
		},
	},
	{
		// The bordereau with On Error = Stop (test/browser/workflows/bordereau-stop.json).
		name: 'a stop error of the bordereau names rows as the file numbers them',
		async run(editor) {
			await editor.openWorkflow('slBrowserBdxStop');
			await editor.byTestId('execute-workflow-button').first().click();
			const ndv = await editor.openNode('Create Invoice');
			// "Row 6 (item 4): …": the file's line beside n8n's own item index.
			const message = ndv.getByText(/Row (\d+) \(item (\d+)\): /).first();
			await message.waitFor({ timeout: 120_000 });
			const [, row, item] = /Row (\d+) \(item (\d+)\)/.exec(await message.innerText()) ?? [];
			assert.equal(Number(row), Number(item) + 2, "the row is the file's line: the item index plus two (header = 1)");
			await editor.shot('bordereau-stop-error');
			await editor.closeNode();
		},
	},
	{
		// Last: it changes the example's mapping mode (not saved).
		name: "the mapper on the CSV's columns",
		async run(editor) {
			await editor.openWorkflow('slExampleSheet01');
			const ndv = await editor.openNode('Create Invoice (Bill Taxes From Preview)');
			const mapper = ndv.locator('[data-test-id="resource-mapper-container"]');
			await mapper.waitFor({ timeout: TIMEOUT });
			// The CSV's columns as the node's input: from the last run, or by reading the file now.
			const column = ndv.getByText('Policy #', { exact: true }).first();
			// Two readers lead to the node (XLSX or CSV?): the input panel shows the CSV's rows once opened.
			const csvInput = ndv.getByText('Rows From CSV', { exact: true }).first();
			if (!(await column.isVisible()) && (await csvInput.isVisible())) await csvInput.click();
			if (!(await column.isVisible().catch(() => false))) await editor.page.waitForTimeout(1000);
			if (!(await column.isVisible())) await ndv.getByRole('button', { name: 'Execute previous nodes' }).first().click();
			await column.waitFor({ timeout: TIMEOUT });
			await editor.shot('mapper-automatic');
			// Map Each Column Manually lists the service's invoice fields, fee columns among them.
			await mapper.locator('[data-test-id="mapping-mode-select"]').click();
			await editor.page.locator('.el-select-dropdown:visible .el-select-dropdown__item').getByText('Map Each Column Manually').click();
			const fields = mapper.locator('[data-test-id="mapping-fields-container"]');
			for (const label of ['Policy Number', 'Insured Name', 'State']) {
				await fields.getByText(label, { exact: true }).first().waitFor({ timeout: TIMEOUT });
			}
			// Further down the list (rendered, below the fold).
			await fields.getByText('Effective Date', { exact: true }).first().waitFor({ state: 'attached', timeout: TIMEOUT });
			await editor.shot('mapper-manual');
		},
	},
];
