/**
 * The MCP examples in a real `n8n start`: n8n's MCP Server Trigger serves the package's tool
 * variants, and the official MCP SDK client (no model) lists and calls them as an assistant's
 * host would. What a model would read is checked: each tool's name and description, the replies,
 * the errors; and what must not happen: a client without the token getting in, a retried filing
 * stored twice, a key or a signed link in a reply or a stored execution.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeTypeDescription } from 'n8n-workflow';
import { nodeNameToToolName } from 'n8n-workflow';

import { SurplusLinesCalculator } from '../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { SurplusLinesReference } from '../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import { LOBS } from '../sandbox/reference/catalog';
import { api, control, invoiceBody, type Context, type Scenario, type ServerControl } from './context';
import { connectMcp, MCP_TOKEN, type McpConnection, type ToolReply } from './mcp';
import { REPO_ROOT, sleep } from './n8n';
import { unflatten, type Run } from './runData';
import { readExecutionData, secretRuns } from './scenarios-results';
import { type ExecutionSummary, listExecutions } from './serverRun';

const PREFIX = 'n8n-nodes-surplus-lines.';
const NODE_TYPES: Record<string, INodeTypeDescription> = {
	surplusLinesCalculatorTool: new SurplusLinesCalculator().description,
	surplusLinesReferenceTool: new SurplusLinesReference().description,
	surplusLinesInvoiceTool: new SurplusLinesInvoice().description,
	surplusLinesDocumentTool: new SurplusLinesDocument().description,
};

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: IDataObject;
}

function workflowNodes(file: string, dir = 'examples'): ExampleNode[] {
	return (JSON.parse(readFileSync(join(REPO_ROOT, dir, file), 'utf8')) as { nodes: ExampleNode[] }).nodes;
}

/** Whether a property's `@version` condition (a list of versions or `{ _cnd: { gte } }`) holds. */
function shownAtVersion(wanted: unknown[] | undefined, version: number): boolean {
	if (!wanted) return true;
	return wanted.some((w) => w === version || (typeof w === 'object' && w !== null && version >= Number((w as { _cnd: { gte?: number } })._cnd.gte ?? Infinity)));
}

/** The tools a workflow offers, as a client must see them: n8n's tool name and our Tool Description. */
export function expectedTools(file: string, dir?: string): Array<{ name: string; description: string }> {
	return workflowNodes(file, dir)
		.filter((node) => node.type.startsWith(PREFIX))
		.map((node) => {
			const { resource, operation } = node.parameters;
			const property = NODE_TYPES[node.type.slice(PREFIX.length)].properties.find(
				(p) =>
					p.name === 'toolDescription' &&
					p.displayOptions?.show?.resource?.includes(resource as string) &&
					p.displayOptions.show.operation?.includes(operation as string) &&
					shownAtVersion(p.displayOptions.show['@version'], node.typeVersion),
			);
			assert.ok(property, `${node.name}: a Tool Description for ${String(resource)} ${String(operation)}`);
			return { name: nodeNameToToolName(node.name), description: String(property.default) };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** A reply's JSON: n8n sends a tool's output items as a JSON array. */
function items(reply: ToolReply): IDataObject[] {
	const parsed = JSON.parse(reply.text) as unknown;
	assert.ok(Array.isArray(parsed), `a list of items: ${reply.text.slice(0, 300)}`);
	return parsed as IDataObject[];
}

function one(reply: ToolReply): IDataObject {
	const list = items(reply);
	assert.equal(list.length, 1, `one item: ${reply.text.slice(0, 300)}`);
	return list[0];
}

/** An error as the model reads it: what was wrong and what to send instead; no n8n error name, no advice for a person. */
function assertModelError(reply: ToolReply, code: string): IDataObject {
	const error = one(reply);
	assert.equal(error.code, code, reply.text);
	assert.equal(typeof error.error, 'string');
	assert.doesNotMatch(reply.text, /NodeOperationError|NodeApiError|\n\s+at /, 'no error class name and no stack trace');
	assert.doesNotMatch(reply.text, /run again|Fix the item|Request Options|click/i, 'no advice written for a person at the node');
	return error;
}

class Session {
	readonly replies: ToolReply[] = [];
	constructor(private readonly mcp: McpConnection) {}

	async call(tool: string, args: Record<string, unknown>): Promise<ToolReply> {
		const reply = await this.mcp.call(tool, args);
		this.replies.push(reply);
		return reply;
	}
}

async function activate(n8n: ServerControl, workflowId: string): Promise<void> {
	const workflow = await n8n.session.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${workflowId}`);
	const activated = await n8n.session.request('POST', `/rest/workflows/${workflowId}/activate`, { versionId: workflow.body.data.versionId });
	assert.equal(activated.status, 200, `activating ${workflowId}: ${JSON.stringify(activated.body)}`);
}

/**
 * Waits (up to 60 s: a loaded machine is slow) until n8n serves the trigger's URL: a newer n8n registers an activated
 * workflow's webhooks shortly after the activation call returns. Asks without the token.
 */
async function waitUntilServed(url: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
		if (res.status !== 404) {
			assert.ok(res.status === 401 || res.status === 403, `a request without the token is refused: HTTP ${res.status}`);
			return;
		}
		if (Date.now() > deadline) assert.fail(`n8n does not serve ${url} 60 s after the activation: ${await res.text()}`);
		await sleep(500);
	}
}

/** A client without the token, or with a wrong one, is refused before any tool is listed or run. */
async function assertRefused(url: string): Promise<void> {
	await waitUntilServed(url);
	for (const token of [undefined, `${MCP_TOKEN}x`]) {
		const what = token ? 'a wrong token' : 'no token';
		const outcome = await connectMcp(url, token).then(
			async (connection) => {
				await connection.close();
				return 'connected';
			},
			(error: Error) => error.message,
		);
		// n8n's webhook authorization refusal (403 "Authorization data is wrong!"), as the SDK words it.
		assert.match(outcome, /Authorization data is wrong|\b40[13]\b|Forbidden|Unauthorized/i, `a client with ${what} is refused; it got: ${outcome}`);
	}
}

/** The workflow's executions, read back; the stored rows of n8n's database hold no key and no signed link. */
async function storedRuns(ctx: Context, n8n: ServerControl, workflowId: string, replies: ToolReply[], mayHaveNone = 0): Promise<Run[]> {
	const fragments = secretRuns(ctx);
	for (const reply of replies) {
		assert.doesNotMatch(reply.text, /sig=/, 'no signed link in a reply');
		for (const fragment of fragments) assert.equal(reply.text.includes(fragment), false, 'no part of a key in a reply');
	}
	// n8n saves a tool call's execution as the reply goes out: wait (up to 60 s) for one per call,
	// less the calls that may have none, and then 3 s more for those to show if they do.
	const deadline = Date.now() + 60_000;
	const settled = (list: ExecutionSummary[]) => list.length >= replies.length - mayHaveNone && !list.some((s) => s.status === 'running' || s.status === 'new');
	let summaries = await listExecutions(n8n.session, workflowId);
	while (!settled(summaries) && Date.now() < deadline) {
		await sleep(500);
		summaries = await listExecutions(n8n.session, workflowId);
	}
	if (mayHaveNone > 0) {
		await sleep(3_000);
		summaries = await listExecutions(n8n.session, workflowId);
	}
	const runs: Run[] = [];
	for (const summary of summaries) {
		const res = await n8n.session.request<{ data: { status?: string; finished?: boolean; data: unknown } }>('GET', `/rest/executions/${summary.id}`);
		runs.push({ status: res.body.data.status, finished: res.body.data.finished, data: unflatten(n8n.bin, res.body.data.data) });
	}
	const rows = (await readExecutionData(ctx.userFolder)).filter((row) => row.workflowData.includes(workflowId));
	assert.equal(rows.length, runs.length, 'every execution is stored');
	for (const row of rows) {
		assert.doesNotMatch(row.data, /sig=/, `execution ${row.executionId}: no signed link stored`);
		for (const fragment of fragments) assert.equal(row.data.includes(fragment), false, `execution ${row.executionId}: no part of a key stored`);
	}
	return runs;
}

const READ_ONLY = 'surplus-lines-tools-for-ai-assistants.json';
const READ_ONLY_ID = 'slExampleMcpRead';
const FILING = 'surplus-lines-filing-tool-for-ai-assistants.json';
const FILING_ID = 'slExampleMcpFile';
const POLICY = 'E2E-MCP-1';
export const TX_2025 = { state: 'TX', premium: 12000, policy_fees: 0, effective_date: '2025-06-01' };

/** The read-only example's results, kept from `drive` for `check`. */
let readOnly: { tools: Awaited<ReturnType<McpConnection['tools']>>; replies: Record<string, ToolReply>; noFees: string; executions: number; calls: number; schemaRefusalRuns: number } | undefined;

/**
 * A call without `policy_fees`: the tool's schema requires it, so the call is refused naming it.
 * n8n 2.41.1 starts an execution for the call, in which the tool refuses the input ("Received tool
 * input did not match expected schema … policy_fees"), and answers with an error reply. n8n 2.8.4
 * refuses it before any execution (measured: 15 executions for 16 calls), so the execution count
 * allows for the version that stores none. A JSON-RPC error the
 * client throws instead is not counted as a call.
 */
async function callWithoutFees(session: Session): Promise<string> {
	return await session.call('Estimate_surplus_lines_tax', { state: TX_2025.state, premium: TX_2025.premium, effective_date: TX_2025.effective_date }).then(
		(reply) => `${reply.isError ? 'error reply' : 'answered'}: ${reply.text}`,
		(error: Error) => `refused: ${error.message}`,
	);
}

/** An execution started by the estimate call without `policy_fees` (its trigger item holds the arguments). */
function isCallWithoutFees(run: Run): boolean {
	const text = JSON.stringify(run.data);
	const call = /"mcpToolCall":\{"toolName":"Estimate_surplus_lines_tax","arguments":(\{[^}]*\})/.exec(text);
	return call !== null && !call[1].includes('"policy_fees"');
}

async function driveReadOnly(ctx: Context, n8n: ServerControl): Promise<Run[]> {
	await activate(n8n, READ_ONLY_ID);
	const url = `${n8n.session.url}/mcp/surplus-lines`;
	try {
		await assertRefused(url);
		const mcp = await connectMcp(url, MCP_TOKEN);
		const session = new Session(mcp);
		const replies: Record<string, ToolReply> = {};
		try {
			const tools = await mcp.tools();
			replies.estimate = await session.call('Estimate_surplus_lines_tax', TX_2025);
			replies.estimate2026 = await session.call('Estimate_surplus_lines_tax', { ...TX_2025, effective_date: '2026-01-01' });
			replies.estimateToday = await session.call('Estimate_surplus_lines_tax', { state: 'TX', premium: 12000, policy_fees: 0 });
			const noFees = await callWithoutFees(session);
			replies.badEstimate = await session.call('Estimate_surplus_lines_tax', { state: 'ZZ', premium: -5, policy_fees: 0, effective_date: '' });
			replies.states = await session.call('List_states', {});
			replies.feeTypes = await session.call('List_fee_types', {});
			replies.lobs = await session.call('List_lines_of_business', {});
			replies.companies = await session.call('Search_insurance_companies', { query: '90001' });
			replies.preview = await session.call('Preview_invoice', {
				policy_number: 'E2E-MCP-PREVIEW', transaction_type: 'NEW', insured_name: 'Acme Roofing LLC', state: 'TX', net_premium: 12000, effective_date: '2026-01-01', expiration_date: '2027-01-01',
			});
			replies.badPreview = await session.call('Preview_invoice', {
				policy_number: 'E2E-MCP-PREVIEW', transaction_type: 'NEW', insured_name: 'Acme Roofing LLC', state: 'TX', net_premium: 12000, effective_date: 'next Tuesday', expiration_date: '2027-01-01',
			});
			replies.invoice = await session.call('Get_invoice', { invoice_id: 1001 });
			replies.missing = await session.call('Get_invoice', { invoice_id: 99999 });
			replies.transactions = await session.call('List_policy_transactions', { policy_number: POLICY });
			// Last: the key's window is closed to one call for up to a minute. A node outside tool use
			// would wait for it (up to 60 s) and then succeed; the tool answers at once with the time.
			await control(ctx, '/rate-limit', { window_seconds: 60, limits: { t2: 1 } });
			for (let attempt = 0; attempt < 3; attempt++) {
				const reply = await session.call('List_states', {});
				if (reply.text.includes('RATE_LIMIT_EXCEEDED')) {
					replies.rateLimited = reply;
					break;
				}
			}
			readOnly = { tools, replies, noFees, executions: 0, calls: session.replies.length, schemaRefusalRuns: 0 };
		} finally {
			await mcp.close();
		}
		const runs = await storedRuns(ctx, n8n, READ_ONLY_ID, session.replies, readOnly.noFees.startsWith('refused:') ? 0 : 1);
		readOnly.executions = runs.length;
		readOnly.schemaRefusalRuns = runs.filter(isCallWithoutFees).length;
		return runs;
	} finally {
		await n8n.session.request('POST', `/rest/workflows/${READ_ONLY_ID}/deactivate`, {});
	}
}

function checkReadOnly(): void {
	assert.ok(readOnly, 'the tools were called');
	const { tools, replies } = readOnly;
	assert.deepEqual(
		tools.map((t) => ({ name: t.name, description: t.description })).sort((a, b) => a.name.localeCompare(b.name)),
		expectedTools(READ_ONLY),
		'each tool listed with its name and the Tool Description as written',
	);
	const estimateTool = tools.find((t) => t.name === 'Estimate_surplus_lines_tax');
	assert.deepEqual(Object.keys(estimateTool?.inputSchema.properties ?? {}).sort(), ['effective_date', 'policy_fees', 'premium', 'state']);
	// The model must say what the fees are (0 included); the date may be left out (today's rates).
	assert.deepEqual([...(estimateTool?.inputSchema.required ?? [])].sort(), ['policy_fees', 'premium', 'state'], 'policy_fees required, effective_date optional');
	assert.match(readOnly.noFees, /policy_fees/, `a call without policy_fees is refused naming it: ${readOnly.noFees}`);
	assert.doesNotMatch(readOnly.noFees, /total_due/, `a call without policy_fees gets no estimate: ${readOnly.noFees}`);
	assert.equal(one(replies.estimateToday).state, 'TX', `a call without effective_date is answered: ${replies.estimateToday.text.slice(0, 300)}`);
	assert.match(String(estimateTool?.inputSchema.properties?.premium.description), /US dollars as a plain number/);

	// TX on 2025-06-01: 4.85% surplus lines tax and 0.04% stamping fee on the premium.
	const estimate = one(replies.estimate);
	assert.equal(estimate.state, 'TX');
	assert.deepEqual((estimate.lines as IDataObject[]).map((l) => [l.code, l.amount]), [['sl_tax', 582], ['stamping_fee', 4.8]]);
	assert.ok((estimate.lines as IDataObject[]).every((l) => typeof l.rate === 'number'), 'each line with its rate');
	assert.equal(estimate.total_taxes_and_fees, 586.8);
	assert.equal(estimate.total_due, 12586.8);
	assert.match(String(estimate.disclaimer), /estimate/i, 'the disclaimer to pass on');

	const bad = assertModelError(replies.badEstimate, 'INVALID_INPUT');
	assert.deepEqual((bad.fields as string[]).map((f) => f.split(':')[0]), ['State', 'Premium'], 'both inputs at fault named');
	assert.match(String(bad.description), /Nothing was sent to the service\. Call the tool again with the fields named above corrected\./);

	const states = items(replies.states);
	assert.equal(states.length, 51);
	assert.deepEqual(states.filter((s) => s.code === 'TX').map((s) => [s.name, s.efile, typeof s.id]), [['Texas', true, 'number']]);
	assert.ok(items(replies.feeTypes).some((f) => f.code === 'sl_tax'));
	assert.equal(items(replies.lobs).length, LOBS.length);
	assert.deepEqual(items(replies.companies), [{ id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001' }]);

	// The preview bills what the calculator estimates for the same state, premium and date.
	const preview = one(replies.preview);
	assert.equal(preview.valid, true);
	assert.deepEqual(preview.errors, []);
	assert.deepEqual(preview.lines, one(replies.estimate2026).lines);
	assert.equal(preview.total_due, one(replies.estimate2026).total_due);
	assert.equal(preview.invoice, undefined, 'the invoice is not echoed back');
	const badDate = assertModelError(replies.badPreview, 'INVALID_INPUT');
	assert.match(String(badDate.error), /effective_date: Must be a valid date/, `the field named: ${String(badDate.error)}`);

	assert.deepEqual(one(replies.invoice), {
		id: 1001, policy_number: POLICY, type: 'New', status: 'sent', sent_to_state: true, state: 'TX', net_premium: 10000, fees_total: 0, warnings: [],
		filing_state: 'sent', confirmation_number: null, filing_message: null,
	});
	const missing = assertModelError(replies.missing, 'NOT_FOUND');
	assert.match(String(missing.description), /listing the policy’s transactions gives the invoice IDs/);
	assert.deepEqual(items(replies.transactions).map((i) => [i.id, i.status]), [[1001, 'sent']]);

	assert.ok(replies.rateLimited, 'a call refused for the rate limit within three calls');
	const limited = assertModelError(replies.rateLimited, 'RATE_LIMIT_EXCEEDED');
	assert.ok(Number(limited.retry_after_seconds) >= 1 && Number(limited.retry_after_seconds) <= 60, `retry_after_seconds within the window: ${String(limited.retry_after_seconds)}`);
	assert.ok(!Number.isNaN(Date.parse(String(limited.retry_at))), 'retry_at is a time');
	assert.match(String(limited.error), /answers at once instead of waiting/);

	console.log(`[e2e]         mcp: ${tools.length} tools listed; a bad estimate answers ${replies.badEstimate.text}`);
	console.log(`[e2e]         mcp: rate-limited call answers ${replies.rateLimited.text}`);
	// One execution per tool call; the refused clients and the listing ran nothing. The call the
	// schema refused has an execution (its trigger only) on some n8n versions and none on others.
	assert.ok(readOnly.schemaRefusalRuns <= 1, `at most one execution for the call without policy_fees: ${readOnly.schemaRefusalRuns}`);
	const noFeesCall = readOnly.noFees.startsWith('refused:') ? 0 : 1;
	assert.equal(readOnly.executions, readOnly.calls - noFeesCall + readOnly.schemaRefusalRuns, 'an execution for each tool call the schema let through, none for the refused clients');
}

const FILE_ARGS = {
	policy_number: 'E2E-MCP-FILE-1', transaction_type: 'NEW', insured_name: 'Harbor Marine Repair', state: 'TX', net_premium: 12000, effective_date: '2026-01-01', expiration_date: '2027-01-01',
};

let filing: { tools: Array<{ name: string; description?: string }>; creates: ToolReply[]; stored: IDataObject[]; cancellation: ToolReply; cancelled: IDataObject[]; executions: number; calls: number } | undefined;

/** A model asked to cancel a policy: the filing tool takes no cancellation and no returned premium. */
const CANCEL_ARGS = { ...FILE_ARGS, policy_number: 'E2E-MCP-CANCEL-1', transaction_type: 'CANCELLATION', net_premium: -12000 };

async function driveFiling(ctx: Context, n8n: ServerControl): Promise<Run[]> {
	await activate(n8n, FILING_ID);
	const url = `${n8n.session.url}/mcp/surplus-lines-filing`;
	try {
		await assertRefused(url);
		const mcp = await connectMcp(url, MCP_TOKEN);
		const session = new Session(mcp);
		try {
			const tools = await mcp.tools();
			// An assistant whose client timed out sends the same call again, twice.
			const creates = [];
			for (let attempt = 0; attempt < 3; attempt++) creates.push(await session.call('File_invoice', FILE_ARGS));
			const listed = await api(ctx, 'GET', `/invoices?policy_number=${FILE_ARGS.policy_number}`);
			const cancellation = await session.call('File_invoice', CANCEL_ARGS);
			const cancelled = await api(ctx, 'GET', `/invoices?policy_number=${CANCEL_ARGS.policy_number}`);
			filing = {
				tools,
				creates,
				stored: (listed.data.invoices as IDataObject[] | undefined) ?? [],
				cancellation,
				cancelled: (cancelled.data.invoices as IDataObject[] | undefined) ?? [],
				executions: 0,
				calls: session.replies.length,
			};
		} finally {
			await mcp.close();
		}
		const runs = await storedRuns(ctx, n8n, FILING_ID, session.replies);
		filing.executions = runs.length;
		return runs;
	} finally {
		await n8n.session.request('POST', `/rest/workflows/${FILING_ID}/deactivate`, {});
	}
}

function checkFiling(): void {
	assert.ok(filing, 'the filing tool was called');
	assert.deepEqual(
		filing.tools.map((t) => ({ name: t.name, description: t.description })).sort((a, b) => a.name.localeCompare(b.name)),
		expectedTools(FILING),
	);
	const [first, ...again] = filing.creates.map(one);
	assert.equal(first.outcome, 'filed');
	assert.equal(first.sent_to_state, false, 'filed with the service, not yet sent to the state (version 3)');
	assert.equal('filed' in first, false);
	assert.equal(first.id, 1002);
	for (const retry of again) {
		assert.equal(retry.id, first.id, 'the same invoice');
		assert.equal(retry.outcome, 'already_filed', 'found on its policy by its mark before anything was sent');
	}
	assert.deepEqual(filing.stored.map((i) => i.id), [1002], 'filed once');
	assert.match(filing.cancellation.text, /not offered to assistants|nothing was sent/, 'a cancellation is refused');
	assert.deepEqual(filing.cancelled, [], 'nothing filed for the cancellation');
	assert.equal(filing.executions, filing.calls);
}

const mcpTools: Scenario = {
	name: 'mcp-tools',
	workflow: READ_ONLY,
	example: true,
	compat: true,
	via: 'restart',
	async before(ctx) {
		assert.equal((await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: POLICY }))).status, 201);
		await control(ctx, '/invoices/1001/status', { status: 'sent', state_status: 'sent' });
	},
	restart: driveReadOnly,
	check: checkReadOnly,
};

const mcpFiling: Scenario = {
	name: 'mcp-filing',
	workflow: FILING,
	example: true,
	compat: true,
	via: 'restart',
	async before(ctx) {
		// Invoice 1001 on another policy: the filed one must be the only one on its own.
		assert.equal((await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: 'E2E-MCP-OTHER' }))).status, 201);
	},
	restart: driveFiling,
	check: checkFiling,
};

/** Last among the server scenarios: the read-only one ends with the key's window closed for up to a minute. */
export const MCP_SCENARIOS: Scenario[] = [mcpFiling, mcpTools];
