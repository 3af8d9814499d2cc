/**
 * The demo (`npm run demo`, scripts/demo.sh): the sandbox with statuses moving by themselves, and
 * a real n8n with this package installed as n8n's installer would, a credential pointing at the
 * sandbox and the example workflows of examples/ loaded. Ctrl-C stops both.
 *
 * Beside them a local SMTP server (loopback) receives the notification examples' emails: each is
 * kept as a .eml file and listed on a small inbox page. The notification examples are activated,
 * so mails arrive as the sandbox moves statuses. The Slack notification example is activated too:
 * n8n's Slack node posts through a local HTTPS proxy to a stand-in of Slack's Web API (slack.ts),
 * whose channel page lists the messages. The watch list's data table is created, so the watch-list
 * examples run as loaded.
 *
 * n8n starts clean every time: the sandbox keeps nothing between runs (it starts again at invoice
 * 1001), so n8n's database is made again too (demoSetup.ts); kept, the triggers' state of the
 * last run would meet the fresh sandbox and mail "moved from success to new". What the user made
 * is kept apart (demoKeep.ts): their sheets and every results workbook in the files folder
 * (DEMO_FILES, <repo>/demo-files, never emptied; the examples read and write there), and their
 * workflows and credentials, exported from the last run's database before the reset and imported
 * again. The demo's folder holds a marker file; a DEMO_DIR without it that holds an n8n or files
 * of your own is refused, never emptied.
 *
 * Env: DEMO_DIR (n8n user folder, default <repo>/.cache/demo-n8n-<n8n version>), DEMO_FILES (the
 * files folder, default <repo>/demo-files),
 * SANDBOX_AUTO_ADVANCE_SECONDS (20), and the ports of scripts/demo-ports.js (N8N_PORT,
 * SANDBOX_PORT, SMTP_PORT, INBOX_PORT, SLACK_PAGE_PORT, SLACK_PROXY_PORT,
 * N8N_RUNNERS_BROKER_PORT), checked free by scripts/demo.sh before it builds, and again here
 * before anything starts.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { keyByName, startSandbox } from '../sandbox';
import { serveInbox, startMailbox } from './mailbox';
import { mcpCredential, MCP_TOKEN } from './mcp';
import { DEMO_MARKER, demoPorts, startClean, takenPorts } from './demoSetup';
import { pointAtFiles, recordLoaded, saveUserWork, type Kept } from './demoKeep';
import { installPackedPackage, killAllChildren, n8nEnv, n8nVersion, REPO_ROOT, RestSession, runCliOk, startServer } from './n8n';
import { waitForBaseline } from './serverRun';
import { serveChannel, startSlackStandIn } from './slack';
import { freshWatchTable, WATCH_TABLE } from './watchList';

export const DEMO_OWNER = { email: 'demo@example.com', password: 'Demo-Password-1', firstName: 'Demo', lastName: 'User' };
const CREDENTIAL = { id: 'slDemoSandboxT2', name: 'Surplus Lines sandbox (t2)' };
const SMTP_CREDENTIAL = { id: 'slDemoSmtp', name: 'Demo mailbox (local SMTP)' };
const SLACK_CREDENTIAL = { id: 'slDemoSlack', name: 'Demo Slack (local stand-in)' };
/**
 * Activated as the demo starts: the email and the Slack notification examples, and the read-only
 * MCP example so an MCP client can connect (the filing one is left off). The watch list's email
 * and Slack examples are not: both read and update the one table, so each change would go to
 * whichever looked first; the user runs one (Execute) or activates one.
 */
const TRIGGER_EXAMPLES = ['slExampleNotify1', 'slExampleSlack01'];
export const WATCH_EXAMPLES = { file: 'slExampleWatchFile', slack: 'slExampleWatchSlack', mail: 'slExampleWatchMail' };
const ACTIVE_EXAMPLES = [...TRIGGER_EXAMPLES, 'slExampleMcpRead'];

function numberFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const n = Number(raw);
	if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got '${raw}'`);
	return n;
}

/** A few invoices so the trigger and document examples have something to show from the start. */
async function seed(baseUrl: string): Promise<void> {
	const key = keyByName('t2').key;
	const invoices = [
		{ policy_number: 'DEMO-POL-1', insured_name: 'Blue Ridge Storage Inc', state_code: 'TX', net_premium: 12000 },
		{ policy_number: 'DEMO-POL-2', insured_name: 'Harbor Marine Repair', state_code: 'CA', net_premium: 8500 },
	];
	for (const invoice of invoices) {
		const res = await fetch(`${baseUrl}/invoices`, {
			method: 'POST',
			headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ ...invoice, effective_date: '2026-01-01', expiration_date: '2027-01-01', type_code: 'NEW' }),
		});
		if (res.status !== 201) throw new Error(`seeding ${invoice.policy_number} failed: ${res.status} ${await res.text()}`);
	}
}

async function main(): Promise<void> {
	const bin = process.env.N8N_BIN;
	if (!bin || !existsSync(bin)) throw new Error('N8N_BIN must point at the n8n binary (scripts/demo.sh sets it)');
	const userFolder = process.env.DEMO_DIR || join(REPO_ROOT, '.cache', `demo-n8n-${n8nVersion(bin).n8n}`);
	const advance = numberFromEnv('SANDBOX_AUTO_ADVANCE_SECONDS', 20);
	const ports = demoPorts(process.env);
	const taken = await takenPorts(process.env);
	if (taken.length) throw new Error(taken.join('\n'));
	// 0 (a free port) where a variable is set to 0; the last two pick a free port when unset too.
	const n8nPort = ports.N8N_PORT;
	const sandboxPort = ports.SANDBOX_PORT ?? 0;
	const smtpPort = ports.SMTP_PORT ?? 0;
	const inboxPort = ports.INBOX_PORT ?? 0;
	const slackPagePort = ports.SLACK_PAGE_PORT ?? 0;
	const slackProxyPort = ports.SLACK_PROXY_PORT;
	const brokerPort = ports.N8N_RUNNERS_BROKER_PORT;
	const filesDir = process.env.DEMO_FILES || join(REPO_ROOT, 'demo-files');
	mkdirSync(userFolder, { recursive: true });
	mkdirSync(filesDir, { recursive: true });
	const n8n = await n8nEnv(bin, userFolder, n8nPort, brokerPort);
	// The examples read and write in the files folder (their `.n8n-files/` paths point there).
	n8n.env.N8N_RESTRICT_FILE_ACCESS_TO = `${n8n.env.N8N_RESTRICT_FILE_ACCESS_TO};${filesDir}`;
	const demoCredentialIds = [CREDENTIAL.id, SMTP_CREDENTIAL.id, SLACK_CREDENTIAL.id, mcpCredential().id];
	// What the user made in the last run, read before its database goes (only a demo's own n8n).
	const kept: Kept = existsSync(join(userFolder, '.n8n', DEMO_MARKER))
		? await saveUserWork(n8n, filesDir, demoCredentialIds, (line) => console.log(line))
		: { workflows: [], credentials: [] };
	startClean(userFolder, Boolean(process.env.DEMO_DIR));

	const sandbox = await startSandbox({ port: sandboxPort, autoAdvanceSeconds: advance });
	const mailDir = join(userFolder, 'mailbox');
	const mailbox = await startMailbox({ port: smtpPort, dir: mailDir });
	const inbox = await serveInbox(mailbox, inboxPort);
	const slack = await startSlackStandIn({ dir: join(userFolder, 'slack-ca'), proxyPort: slackProxyPort });
	const channel = await serveChannel(slack, slackPagePort);
	console.log('[demo] installing the package into the demo\'s n8n (npm pack, about 10 s)');
	installPackedPackage(userFolder);
	// n8n's HTTPS goes through the local proxy: slack.com reaches the stand-in, nothing else leaves.
	Object.assign(n8n.env, slack.proxy.env());
	// The samples again (a file of the user's, results included, is never touched).
	cpSync(join(REPO_ROOT, 'examples', 'files'), filesDir, { recursive: true });

	// Credentials and examples go into the fresh n8n (fixed ids: the examples name the credentials).
	const work = join(userFolder, 'demo-input');
	mkdirSync(join(work, 'workflows'), { recursive: true });
	writeFileSync(
		join(work, 'credentials.json'),
		JSON.stringify([
			{ ...CREDENTIAL, type: 'surplusLinesApi', data: { apiKey: keyByName('t2').key, baseUrl: sandbox.baseUrl } },
			{ ...SMTP_CREDENTIAL, type: 'smtp', data: mailbox.credentialData() },
			{ ...SLACK_CREDENTIAL, type: 'slackApi', data: slack.credentialData() },
			mcpCredential(),
			...kept.credentials,
		]),
	);
	console.log('[demo] importing the credentials and workflows into n8n (about 20-60 s)');
	await runCliOk(n8n, ['import:credentials', `--input=${join(work, 'credentials.json')}`]);
	const examples = readdirSync(join(REPO_ROOT, 'examples')).filter((f) => f.endsWith('.json'));
	const keptIds = new Set(kept.workflows.map((w) => w.id));
	const shipped: string[] = [];
	for (const file of examples) {
		const text = pointAtFiles(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8'), filesDir);
		const id = (JSON.parse(text) as { id: string }).id;
		// An example the user changed comes back as they left it.
		if (keptIds.has(id)) continue;
		shipped.push(id);
		writeFileSync(join(work, 'workflows', file), text);
	}
	for (const workflow of kept.workflows) writeFileSync(join(work, 'workflows', `kept-${workflow.id}.json`), readFileSync(workflow.file));
	await runCliOk(n8n, ['import:workflow', '--separate', `--input=${join(work, 'workflows')}`]);

	console.log('[demo] starting n8n (about 30 s; a few minutes on a busy machine)');
	const server = await startServer(n8n, { timeoutMs: 300_000 });
	const session = new RestSession(server.url);
	await session.ownerSetupOrLogin(DEMO_OWNER);
	// The examples as n8n holds them: next start, one that differs was changed by the user.
	const loaded = [];
	for (const id of shipped) {
		const got = await session.request<{ data: { id: string; nodes: unknown; connections: unknown } }>('GET', `/rest/workflows/${id}`);
		if (got.status === 200) loaded.push(got.body.data);
	}
	recordLoaded(userFolder, loaded);
	// The watch-list examples find their data table by name (a user creates it once by hand).
	await freshWatchTable(session);
	// Seeded once n8n is up and just before the triggers start watching: their first poll, at
	// activation, reads the invoices before the sandbox settles them (three steps of
	// SANDBOX_AUTO_ADVANCE_SECONDS), so the moves to success and confirmed become mails and Slack
	// messages. Seeded earlier, while n8n was starting, they would be settled at that first poll.
	await seed(sandbox.baseUrl);
	// The notification examples run by themselves (status changes become mails and Slack messages);
	// the MCP example answers MCP clients.
	for (const id of ACTIVE_EXAMPLES) {
		const workflow = await session.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${id}`);
		const activated = await session.request('POST', `/rest/workflows/${id}/activate`, { versionId: workflow.body.data.versionId });
		if (activated.status !== 200) throw new Error(`activating example ${id}: ${activated.status} ${JSON.stringify(activated.body)}`);
	}
	// The banner comes once the triggers watch (n8n 2.41 may take the first poll just after the
	// activate call returns).
	console.log('[demo] waiting for the notification examples\' first look at the sandbox (up to a minute)');
	for (const id of TRIGGER_EXAMPLES) await waitForBaseline(session, id);

	let stopping = false;
	const stop = async (): Promise<void> => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the sandbox…');
		await server.stop();
		await sandbox.close();
		await inbox.close();
		await mailbox.close();
		await channel.close();
		await slack.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
	server.child.on('close', (code) => {
		if (stopping) return;
		console.error(`n8n exited (${code}); its log is in ${join(userFolder, 'n8n.log')}`);
		writeFileSync(join(userFolder, 'n8n.log'), server.log());
		void sandbox.close().then(() => process.exit(1));
	});

	console.log(`
Surplus Lines demo is running.

  n8n:      ${server.url}  (n8n ${n8nVersion(bin).n8n} under Node ${n8nVersion(bin).node})
  login:    ${DEMO_OWNER.email} / ${DEMO_OWNER.password}
  sandbox:  ${sandbox.baseUrl}  (reference: ${sandbox.baseUrl}/docs)
            statuses move one step every ${advance} s; invoices 1001 (DEMO-POL-1) and 1002 (DEMO-POL-2) are seeded
  inbox:    ${inbox.url}  (SMTP server 127.0.0.1:${mailbox.port}; each mail also as a .eml file in ${mailDir})
  Slack:    ${channel.url}  (the channel's messages; n8n reaches the stand-in of slack.com through ${slack.proxy.url})
  credentials "${CREDENTIAL.name}" (t2 key), "${SMTP_CREDENTIAL.name}" and "${SLACK_CREDENTIAL.name}", and ${examples.length} example workflows are loaded:
${examples.map((f) => `    - ${(JSON.parse(readFileSync(join(REPO_ROOT, 'examples', f), 'utf8')) as { name: string }).name}`).join('\n')}
  "Notify when a filing changes" is active: a mail for each status change (polls every minute).
  "Post filing changes to Slack" is active: a message when a filing settles or fails (polls every minute).
  The data table "${WATCH_TABLE}" is made: run "File a bordereau and watch what was filed", then
            Execute "Post watched filing changes to Slack" or "Email watched filing changes" to post or
            mail its invoices' changes (both read the one table: activate one of them, not both).
  "Surplus lines tools for AI assistants" is active: MCP clients connect to ${server.url}/mcp/surplus-lines
            with the header "Authorization: Bearer ${MCP_TOKEN}" (credential "${mcpCredential().name}", new each start)

  YOUR SHEETS AND RESULTS: ${filesDir}
            Put your bordereau (CSV or XLSX) here, open "File a bordereau from disk as invoices",
            set "Your Sheet" to ${filesDir}/<your file>, and Execute; each run writes
            "<your file> results <date time>.xlsx" here. Nothing in this folder is ever deleted.
  Kept across restarts: this folder, and the workflows and credentials you made or changed (saved
            as JSON in ${join(filesDir, 'workflows')} at each start, then loaded again).
${kept.workflows.length ? `            Brought back from the last run: ${kept.workflows.map((w) => `"${w.name}"${w.active ? ' (was active: activate it again)' : ''}`).join(', ')}
` : ''}${kept.problem ? `            Note: ${kept.problem}
` : ''}  Made again on every start (the sandbox starts again empty): n8n's database in ${userFolder}
            (past executions, data table rows, the triggers' memory), the sandbox's invoices, the mails.

Press Ctrl-C to stop n8n and the sandbox.
`);
}

// Run as the demo (node demo.js); imported (the demo check reads its names), nothing starts.
if (require.main === module) {
	main().catch((error: Error) => {
		console.error(`demo: ${error.message}`);
		killAllChildren();
		process.exit(1);
	});
}

