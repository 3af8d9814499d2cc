/**
 * n8n's AI Agent with the package's tools and a stand-in chat model (no model runs here): the
 * agent must offer the model our tools as written, run the tool the model calls, and hand its
 * result back.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';

import type { Context, Scenario, ServerControl } from './context';
import { json, type Run } from './runData';
import { expectedTools, TX_2025 } from './scenarios-mcp';
import { runViaServer } from './serverRun';
import { startStandInModel, type StandInModel } from './standInModel';

const AGENT = 'ai-agent-tools.json';
const AGENT_DIR = join('test', 'e2e', 'workflows');
const AGENT_ID = 'slE2eAiAgent0001';
/** The chat model's credential (run.ts imports it; its Base URL is set when the stand-in runs). */
export const STAND_IN_CREDENTIAL = { id: 'slE2eStandInModel', name: 'Stand-in model', type: 'openAiApi' };
let agent: { model: StandInModel; run: Run } | undefined;

async function driveAgent(_ctx: Context, n8n: ServerControl): Promise<Run[]> {
	const model = await startStandInModel('Estimate_surplus_lines_tax', TX_2025);
	try {
		// The stand-in's address is known only now: set as the credential's Base URL, as a user would.
		const saved = await n8n.session.request('PATCH', `/rest/credentials/${STAND_IN_CREDENTIAL.id}`, { ...STAND_IN_CREDENTIAL, data: { apiKey: 'sk-stand-in', url: model.url } });
		assert.equal(saved.status, 200, `saving the stand-in's address: ${JSON.stringify(saved.body).slice(0, 300)}`);
		const run = await runViaServer(n8n.session, AGENT_ID, n8n.bin);
		agent = { model, run };
		return [run];
	} finally {
		await model.close();
	}
}

function checkAgent(): void {
	assert.ok(agent, 'the agent ran');
	const { model, run } = agent;
	assert.equal(run.status, 'success', `${String(run.data.resultData.error?.message)}; the stand-in model was asked ${model.requests.length} times at ${model.url}`);
	assert.equal(model.requests.length, 2, 'asked once, then given the tool result');
	const offered = (model.requests[0].tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description })).sort((a, b) => a.name.localeCompare(b.name));
	assert.deepEqual(offered, expectedTools(AGENT, AGENT_DIR), 'the agent offered each tool with its Tool Description');
	const estimate = model.requests[0].tools?.find((t) => t.function.name === 'Estimate_surplus_lines_tax');
	assert.deepEqual(Object.keys(estimate?.function.parameters.properties ?? {}).sort(), ['effective_date', 'policy_fees', 'premium', 'state']);
	const toolResult = model.requests[1].messages.find((m) => m.role === 'tool');
	assert.match(String(toolResult?.content), /"total_due":12586\.8/, 'the tool ran against the sandbox and its result went back to the model');
	const [answer] = json(run, 'AI Agent');
	assert.match(String(answer.output), /^Answer: .*"total_taxes_and_fees":586\.8/);
}

const aiAgent: Scenario = {
	name: 'ai-agent-tools',
	workflow: AGENT,
	via: 'restart',
	restart: driveAgent,
	check: checkAgent,
};

export const AGENT_SCENARIOS: Scenario[] = [aiAgent];
