/**
 * The Slack example in the real n8n: its trigger activated, n8n's own Slack node posting through
 * the local HTTPS proxy to the stand-in of Slack's Web API (slack.ts). Status changes made in the
 * sandbox give one message each, with the text people read; changes the trigger's filters leave
 * out give none; a restart of n8n sends nothing again. A transaction filed on a watched policy
 * after the trigger's baseline and rejected before the trigger first reads it gives one message
 * too (the trigger reports it as first seen). The Slack credential's test runs against the
 * stand-in too.
 *
 * Polls come from n8n's activation poll as n8n starts (n8n polls once whenever it activates a
 * workflow), so the scenario waits for no schedule: the example's every-minute poll is what any
 * n8n accepts (2.41 refuses polls under a minute), and a scheduled poll in between changes nothing.
 */
import assert from 'node:assert/strict';

import type { IDataObject } from 'n8n-workflow';

import { api, control, invoiceBody, type Context, type Scenario, type ServerControl } from './context';
import { sleep } from './n8n';
import { json, unflatten, type Run } from './runData';
import type { SlackStandIn } from './slack';
import { fileDemoPolicies } from './scenarios-examples';
import { listExecutions, waitForBaseline } from './serverRun';

const WORKFLOW_ID = 'slExampleSlack01';
const CHANNEL = '#surplus-lines-filings';
const SLACK_CREDENTIAL = { id: 'slDemoSlack', name: 'Demo Slack (local stand-in)', type: 'slackApi' };

/** The messages the example must post, in the order the changes are made. */
const NEXT_RESEND = (id: number) =>
	`*Next step:* Correct what the reason names, then send the invoice again from n8n with Surplus Lines Invoice → Update (Invoice ID ${id}); a form the state asks for goes on with Surplus Lines Document → Attach. Reminders come until it is settled.`;
const SEEN = /\n_Seen \w{3} \d+ \w{3} 20\d\d, \d\d:\d\d \S+_$/;
const AFTER_FIRST_RESTART = [
	':rotating_light: Invoice status: Invoice 1002 (policy DEMO-POL-2, insured Acme Roofing LLC) failed at the service (new → error). Reason: Missing SL-2 form.\n*Next step:* Open it with Surplus Lines Invoice → Get (Invoice ID 1002) to read the error, correct it with Surplus Lines Invoice → Update, and it is sent again. Reminders come until it is settled.',
	`:rotating_light: State filing: Invoice 1002 (policy DEMO-POL-2, insured Acme Roofing LLC) was REJECTED by the state (not_sent → rejected). Reason: Missing SL-2 form.\n${NEXT_RESEND(1002)}`,
];
const AFTER_SECOND_RESTART = [
	':white_check_mark: Invoice status: Invoice 1001 (policy DEMO-POL-1, insured Acme Roofing LLC) was completed by the service (sent → success).\n*Next step:* No action needed.',
	':white_check_mark: State filing: Invoice 1001 (policy DEMO-POL-1, insured Acme Roofing LLC) was confirmed by the state (sent → confirmed). Confirmation number: TX-CONF-1001.\n*Next step:* No action needed.',
	// Filed and rejected while n8n was down: first seen at the restart, already rejected. The
	// state's text is escaped for Slack's mrkdwn: no @channel ping, no disguised link.
	`:rotating_light: State filing: Invoice 1003 (policy DEMO-POL-2, insured Acme Roofing LLC) was REJECTED by the state. Reason: Broker signature missing &lt;!channel&gt; &amp; &lt;https://evil.example/|see form&gt;.\n${NEXT_RESEND(1003)}`,
];

function standIn(ctx: Context): SlackStandIn {
	if (!ctx.slack) throw new Error('this scenario needs the Slack stand-in (the e2e run starts it)');
	return ctx.slack;
}

/** The editor's credential Test button (POST /rest/credentials/test) with this token. */
async function testCredential(n8n: ServerControl, accessToken: string): Promise<{ status: string; message: string }> {
	const res = await n8n.session.request<{ data: { status: string; message: string } }>('POST', '/rest/credentials/test', {
		credentials: { ...SLACK_CREDENTIAL, data: { accessToken } },
	});
	assert.equal(res.status, 200, `POST /rest/credentials/test answered ${res.status}: ${JSON.stringify(res.body)}`);
	return res.body.data;
}

async function checkCredential(slack: SlackStandIn, n8n: ServerControl): Promise<void> {
	const working = await testCredential(n8n, slack.token);
	assert.equal(working.status, 'OK', `the Slack credential's test passes against the stand-in: ${working.message}`);
	const wrong = await testCredential(n8n, 'xoxb-not-the-token');
	assert.equal(wrong.status, 'Error', `a wrong token fails the test: ${wrong.message}`);
	assert.ok(slack.calls.length >= 2, `the credential test reached the stand-in (${slack.calls.join(', ')})`);
	console.log(`[e2e]         Slack credential test: OK "${working.message}", wrong token: Error "${wrong.message}" (${slack.calls.join(', ')})`);
	slack.clear();
}

/** Every finished execution of the example, oldest first. */
async function executions(n8n: ServerControl): Promise<Run[]> {
	const runs: Array<[number, Run]> = [];
	for (const summary of await listExecutions(n8n.session, WORKFLOW_ID)) {
		if (summary.status === 'running' || summary.status === 'new') continue;
		const res = await n8n.session.request<{ data: { status?: string; finished?: boolean; data: unknown } }>('GET', `/rest/executions/${summary.id}`);
		const execution = res.body.data;
		runs.push([Number(summary.id), { status: execution.status, finished: execution.finished, data: unflatten(n8n.bin, execution.data) }]);
	}
	return runs.sort((a, b) => a[0] - b[0]).map(([, run]) => run);
}

/** Waits for `count` messages in all, then `quietMs` more in which no other arrives. */
async function expectMessages(slack: SlackStandIn, count: number, quietMs: number): Promise<void> {
	await slack.waitFor(count, 60_000);
	await sleep(quietMs);
	assert.equal(slack.messages.length, count, `exactly ${count} Slack messages: ${JSON.stringify(slack.messages.map((m) => m.text))}`);
}

async function drive(ctx: Context, n8n: ServerControl): Promise<Run[]> {
	const slack = standIn(ctx);
	await checkCredential(slack, n8n);
	const workflow = await n8n.session.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${WORKFLOW_ID}`);
	const activated = await n8n.session.request('POST', `/rest/workflows/${WORKFLOW_ID}/activate`, { versionId: workflow.body.data.versionId });
	if (activated.status !== 200) throw new Error(`activating ${WORKFLOW_ID}: ${activated.status} ${JSON.stringify(activated.body)}`);
	try {
		// Activation polls once: the baseline, no message. (n8n 2.8.4 polls before the activate call
		// returns, 2.41 may poll just after it: a change made before the baseline would be part of it.)
		await waitForBaseline(n8n.session, WORKFLOW_ID);
		assert.equal(slack.messages.length, 0, 'the activation poll is a baseline: no message');
		// Left out by the trigger's filters: invoice sent, filing sent.
		await control(ctx, '/invoices/1001/status', { status: 'sent', state_status: 'sent' });
		// Two messages: the invoice in error, the filing rejected with the state's message.
		await control(ctx, '/invoices/1002/status', { status: 'error', state_status: 'rejected', message: 'Missing SL-2 form' });
		await n8n.stop();
		await n8n.start();
		await expectMessages(slack, 2, 3000);

		// While n8n is down 1001 succeeds and the state confirms it, and an endorsement is filed on
		// DEMO-POL-2 and rejected before the trigger has ever read it; after the restart only those come.
		await n8n.stop();
		await control(ctx, '/invoices/1001/status', { status: 'success', state_status: 'confirmed', confirmation_number: 'TX-CONF-1001' });
		const endorsement = await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: 'DEMO-POL-2', type_code: 'ENDORSEMENT', net_premium: 500, transaction_effective_date: '2026-06-01' }));
		assert.equal(endorsement.status, 201);
		assert.equal(endorsement.data.id, 1003);
		await control(ctx, '/invoices/1003/status', { status: 'sent', state_status: 'rejected', message: 'Broker signature missing <!channel> & <https://evil.example/|see form>' });
		await n8n.start();
		await expectMessages(slack, 5, 5000);
		const refused = slack.proxy.refused;
		console.log(`[e2e]         the HTTPS proxy refused ${refused.length} CONNECT(s) to other hosts${refused.length ? `: ${[...new Set(refused)].join(', ')}` : ''}`);
		return await executions(n8n);
	} finally {
		await n8n.session.request('POST', `/rest/workflows/${WORKFLOW_ID}/deactivate`, {});
	}
}

const exampleSlack: Scenario = {
	name: 'example: slack activated',
	workflow: 'post-filing-changes-to-slack.json',
	example: true,
	compat: true,
	via: 'restart',
	before: fileDemoPolicies,
	restart: drive,
	check(_run, ctx, runs) {
		const messages = standIn(ctx).messages;
		for (const message of messages) assert.match(message.text, SEEN, 'each message says when, in the workflow\'s time zone');
		assert.deepEqual(
			messages.map((m) => m.text.replace(SEEN, '')),
			[...AFTER_FIRST_RESTART, ...AFTER_SECOND_RESTART],
			'one message per change the filters keep, in order, with nothing appended; none again after a restart',
		);
		for (const message of messages) {
			assert.equal(message.channel, CHANNEL);
			assert.doesNotMatch(message.text, /n8n workflow|Automated with/, 'the workflow link is off');
		}
		// The Slack node's output in n8n's executions: Slack's answer (ok, the message's timestamp).
		const posted = runs.flatMap((run) => json(run, 'Post to Slack Channel'));
		assert.equal(posted.length, 5, 'the Slack node ran once per message across the executions');
		assert.deepEqual(
			posted.map((p) => [p.ok, p.message_timestamp]),
			messages.map((m) => [true, m.ts]),
		);
		const events = runs.flatMap((run) => json(run, 'When a Filing Settles or Fails'));
		assert.equal(new Set(events.map((e: IDataObject) => e.event_id)).size, 5, 'five distinct events');
		assert.deepEqual(
			events.filter((e: IDataObject) => e.first_seen === true).map((e: IDataObject) => [e.invoice_id, e.previous, e.current]),
			[[1003, null, 'rejected']],
			'the endorsement rejected before its first read is the one first-seen event',
		);
	},
};

export const SLACK_SCENARIOS: Scenario[] = [exampleSlack];
