/**
 * The watch-list examples in a real n8n with real data tables: the filing example files the
 * sample bordereau and records what it filed; the Slack example, run four times (as its
 * schedule would; two of the runs at once, as when a slow look overlaps the next), posts each
 * change people act on once, none on a look with nothing new, and the settled invoice leaves the
 * table. Manual runs in `n8n start` stand in for the schedule.
 */
import assert from 'node:assert/strict';

import { control, type Context, type Scenario, type ServerControl } from './context';
import { json, type Run } from './runData';
import { runViaServer } from './serverRun';
import { fileWithExample, freshWatchTable, runExample } from './watchList';

const NOTIFY_ID = 'slExampleWatchSlack';

async function drive(ctx: Context, n8n: ServerControl): Promise<Run[]> {
	const slack = ctx.slack;
	assert.ok(slack, 'the e2e run has a Slack stand-in');
	slack.clear();
	const table = await freshWatchTable(n8n.session);
	const rows = () => table.rows(n8n.session);

	const { filing, recorded } = await fileWithExample(n8n.session, n8n.bin, table);
	// The sample's 5 bad rows leave by the error branch, counted on the canvas; only filed rows are recorded.
	assert.equal(json(filing, 'Refused Rows').length, 5, 'the refused rows reach the error branch');
	assert.equal(recorded.length, 20);
	// One summary of the run in the channel, counting what people act on.
	assert.deepEqual(slack.messages.map((m) => m.text.replace(/ at .*?: 25 rows/, ' at …: 25 rows')), [
		':clipboard: Filing run of sample-bordereau.csv at …: 25 rows. 20 filed, 0 already filed, 5 refused (rows 6, 10, 15, 20, 24: correct them in the sheet and run again), 0 with taxes off from the sheet. Every invoice of the sheet is watched: what the state answers comes in this channel.',
	]);
	slack.clear();

	const first = await runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000);
	assert.equal(slack.messages.length, 0, `nothing changed, nothing posted: ${JSON.stringify(slack.messages.map((m) => m.text))}`);

	const [rejected, settled, sent] = recorded.map((r) => r.invoice_id as number);
	// The state's text reaches Slack escaped for mrkdwn: no @channel ping, no disguised link.
	await control(ctx, `/invoices/${rejected}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2 form <!channel> <https://evil.example/|form>' });
	await control(ctx, `/invoices/${settled}/status`, { status: 'success', state_status: 'confirmed' });
	await control(ctx, `/invoices/${sent}/status`, { status: 'sent', state_status: 'sent' });
	// Two looks at once (a slow look overlapping the next): each change is still posted once.
	const [second, overlapping] = await Promise.all([
		runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000),
		runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000),
	]);
	const third = await runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000);

	const texts = slack.messages.map((m) => m.text).sort();
	assert.equal(texts.length, 2, `two messages (the rejection and the settled one; "sent" is not acted on): ${JSON.stringify(texts)}`);
	// What happened (insured, policy, the state's reason) and what to do, when, in words.
	assert.match(
		texts.find((t) => t.includes(`Invoice ${rejected} `)) ?? '',
		/^:rotating_light: State filing: Invoice \d+ \(policy BDX-26-\d+, insured [^)]+\) was REJECTED by the state \(not_sent → rejected\)\. Reason: Missing SL-2 form &lt;!channel&gt; &lt;https:\/\/evil\.example\/\|form&gt;\. Also: invoice status failed at the service \(new → error\)\. Next step: Correct what the reason names, then send the invoice again from n8n with Surplus Lines Invoice → Update \(Invoice ID \d+\).*\n_Seen \w{3} \d+ \w{3} 20\d\d, \d\d:\d\d \S+_$/,
	);
	assert.match(texts.find((t) => t.includes(`Invoice ${settled} `)) ?? '', /^:white_check_mark: State filing: Invoice \d+ .* was confirmed by the state \(not_sent → confirmed\)\. Confirmation number: .*Also: invoice status was completed by the service \(new → success\)\. Next step: No action needed\./);
	const left = await rows();
	assert.equal(left.length, recorded.length - 1, 'the settled invoice left the watch list');
	assert.ok(!left.some((r) => r.invoice_id === settled));
	// Whether the two looks really overlapped (both read the change before either stored it) is up to
	// n8n's scheduling: said, not asserted.
	const sawRejection = [second, overlapping].filter((run) =>
		json(run, 'Look for Changes').some((row) => row.invoice_id === rejected && row.changed === true),
	).length;
	console.log(`[e2e]         watch list: the rejection was seen by ${sawRejection} of the 2 looks run at once, posted once`);

	// Posted on the change, not on where the invoice stands: a status moving to success is posted
	// (with the state's confirmation number once there is one); a filing moving to accepted on
	// an invoice in success, and error → re-submitted while the filing stays rejected, are not.
	await control(ctx, `/invoices/${sent}/status`, { status: 'success' });
	await runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000);
	await control(ctx, `/invoices/${sent}/status`, { state_status: 'accepted' });
	await control(ctx, `/invoices/${rejected}/status`, { status: 're-submitted' });
	const quiet = await runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000);
	const changed = json(quiet, 'Look for Changes').filter((row) => row.changed === true).map((row) => row.invoice_id);
	assert.deepEqual(changed.sort(), [rejected, sent].sort(), 'the look saw both changes nobody acts on');
	const onChange = slack.messages.map((m) => m.text).filter((t) => !texts.includes(t));
	assert.equal(onChange.length, 1, `one more message (the status moving to success), none for accepted or re-submitted: ${JSON.stringify(onChange)}`);
	assert.match(onChange[0], new RegExp(`^:white_check_mark: Invoice status: Invoice ${sent} \\(.*\\) was completed by the service \\(sent → success\\)\\. Next step: No action needed\\.\n_Seen `));
	const confirmed = slack.messages.find((m) => m.text.includes(`Invoice ${settled} `))?.text ?? '';
	const number = json(second, 'Look for Changes').concat(json(overlapping, 'Look for Changes')).find((row) => row.invoice_id === settled && row.changed)?.invoice as { confirmation_number?: string } | undefined;
	assert.ok(number?.confirmation_number, 'the sandbox gives a confirmed filing its confirmation number');
	assert.ok(confirmed.includes(`Confirmation number: ${number.confirmation_number}.`), `the confirmed filing's message carries its number: ${JSON.stringify(confirmed)}`);
	console.log(`[e2e]         watch list: ${recorded.length} rows recorded, ${texts.length} messages, ${left.length} rows left; looks: ${JSON.stringify(json(second, 'Look for Changes')[0]?.look ?? null)}`);
	return [filing, first, second, overlapping, third];
}

const watchSlack: Scenario = {
	name: 'example: watch list to slack',
	workflow: 'post-watched-filing-changes-to-slack.json',
	example: true,
	compat: true,
	via: 'restart',
	restart: drive,
	check(_run, _ctx, runs) {
		assert.equal(runs.length, 5);
		// The third look found nothing new: every update took, none carried a change, Slack did not run.
		assert.ok(json(runs[4], 'Store What Was Seen').every((row) => row.last_event === ''));
		assert.equal(runs[4].data.resultData.runData['Post to Slack Channel'], undefined);
	},
};

/**
 * The examples in the README's order: the sheet filed by the bordereau example (no watch list);
 * the state answers meanwhile (two rejections, a refusal, a confirmation); then the watch-list
 * filing example on the same sheet, every row already filed; then the Slack look. Each answer is
 * posted once (the rows start from the invoices as filed, not as read by the re-run), and a
 * second look posts nothing more.
 */
async function readmeOrder(ctx: Context, n8n: ServerControl): Promise<Run[]> {
	const slack = ctx.slack;
	assert.ok(slack, 'the e2e run has a Slack stand-in');
	const table = await freshWatchTable(n8n.session);
	const first = await runExample(n8n.session, n8n.bin, 'file-spreadsheet-rows-as-invoices.json');
	const filed = json(first, 'Create Invoice (Bill Taxes From Preview)').map((item) => Number(item.id));
	assert.equal(filed.length, 20, 'the bordereau example filed the 20 good rows');
	const [rejectedA, rejectedB, refused, confirmed] = filed;
	await control(ctx, `/invoices/${rejectedA}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2 form' });
	await control(ctx, `/invoices/${rejectedB}/status`, { status: 'sent', state_status: 'rejected', message: 'Wrong county code' });
	await control(ctx, `/invoices/${refused}/status`, { status: 'error', state_status: 'refused', message: 'Filed after the deadline' });
	await control(ctx, `/invoices/${confirmed}/status`, { status: 'success', state_status: 'confirmed' });

	const { recorded } = await fileWithExample(n8n.session, n8n.bin, table);
	assert.equal(recorded.length, 20, 'the watch-list example records every invoice of the sheet, also those filed before');
	assert.ok(recorded.every((row) => String(row.state).startsWith('new|not_sent|')), 'each from the invoice as filed');
	slack.clear();
	const look = await runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000);
	const again = await runViaServer(n8n.session, NOTIFY_ID, n8n.bin, 120_000);
	const texts = slack.messages.map((m) => m.text);
	const about = (id: number) => texts.filter((t) => t.includes(`Invoice ${id} (`));
	assert.equal(texts.length, 4, `one message per answer people act on: ${JSON.stringify(texts)}`);
	assert.match(about(rejectedA).join(), /^:rotating_light: State filing: .* was REJECTED by the state \(not_sent → rejected\)\. Reason: Missing SL-2 form\./);
	assert.match(about(rejectedB).join(), /^:rotating_light: State filing: .* was REJECTED by the state \(not_sent → rejected\)\. Reason: Wrong county code\./);
	assert.match(about(refused).join(), /^:rotating_light: State filing: .* was REFUSED by the state for good \(not_sent → refused\)\. Reason: Filed after the deadline\./);
	assert.match(about(confirmed).join(), /^:white_check_mark: State filing: .* was confirmed by the state \(not_sent → confirmed\)/);
	assert.equal(again.data.resultData.runData['Post to Slack Channel'], undefined, 'the next look posts nothing again');
	return [first, look, again];
}

const watchReadmeOrder: Scenario = {
	name: 'examples in the README order: every rejection posted once',
	workflow: 'post-watched-filing-changes-to-slack.json',
	example: true,
	via: 'restart',
	restart: readmeOrder,
	check(_run, _ctx, runs) {
		assert.equal(runs.length, 3);
	},
};

export const WATCH_SCENARIOS: Scenario[] = [watchSlack, watchReadmeOrder];
