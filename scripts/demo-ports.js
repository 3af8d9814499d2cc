// The demo's ports, in one table that scripts/demo.sh, test/e2e/demo.ts and the README's test
// (test/unit/readmeClaims.test.ts) read. scripts/demo.sh runs this file before it installs or
// builds anything, so a taken port stops the demo at once; demo.ts checks again just before its
// servers start (something may have taken a port during the build).
// Usage: node scripts/demo-ports.js   (exits 1 naming each taken port and its variable)
const net = require('net');

/** `fallback` undefined: a free port is picked when the server starts. */
const DEMO_PORTS = [
	{ variable: 'N8N_PORT', fallback: 5678, what: 'n8n' },
	{ variable: 'SANDBOX_PORT', fallback: 8787, what: 'sandbox' },
	{ variable: 'SMTP_PORT', fallback: 2525, what: 'SMTP server' },
	{ variable: 'INBOX_PORT', fallback: 8025, what: 'inbox page' },
	{ variable: 'SLACK_PAGE_PORT', fallback: 8026, what: 'Slack channel page' },
	{ variable: 'SLACK_PROXY_PORT', fallback: undefined, what: 'Slack proxy' },
	{ variable: 'N8N_RUNNERS_BROKER_PORT', fallback: undefined, what: "n8n's task broker" },
];

/** Each variable's port: its value, else the default (undefined: a free one, later). */
function demoPorts(env) {
	const ports = {};
	for (const { variable, fallback } of DEMO_PORTS) {
		const raw = env[variable];
		if (raw === undefined || raw === '') {
			ports[variable] = fallback;
			continue;
		}
		const port = Number(raw);
		if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${variable} must be a port number (0 to 65535), got '${raw}'`);
		ports[variable] = port === 0 ? undefined : port;
	}
	return ports;
}

/** Whether the demo's servers could not listen there (they all listen on 127.0.0.1). */
function inUse(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

/** One sentence for each port that is taken, naming the variable that moves it. */
async function takenPorts(env) {
	const ports = demoPorts(env);
	const taken = [];
	for (const { variable, what } of DEMO_PORTS) {
		const port = ports[variable];
		if (port !== undefined && (await inUse(port))) taken.push(`port ${port} (${what}) is in use: stop what runs there, or set ${variable}`);
	}
	return taken;
}

module.exports = { DEMO_PORTS, demoPorts, takenPorts };

if (require.main === module) {
	takenPorts(process.env).then(
		(taken) => {
			for (const line of taken) console.error(`demo: ${line}`);
			process.exit(taken.length ? 1 : 0);
		},
		(error) => {
			console.error(`demo: ${error.message}`);
			process.exit(1);
		},
	);
}
