/**
 * What the README tells an operations lead agrees with what the package and the demo do:
 *
 * - the node counts: the nodes it lists are the node types package.json registers that n8n's
 *   panel shows, every "N nodes" says that many, and every "N node types" says how many
 *   package.json registers (the same in the developer pages that count them);
 * - the number of example workflows;
 * - the demo's ports: the table's variables and defaults are the demo's (scripts/demo-ports.js),
 *   and a taken port stops the demo at once: scripts/demo.sh checks the ports before it installs
 *   or builds anything, and the check names the variable;
 * - the demo's folder: "emptied on each start" holds for everything a start leaves there, the
 *   results workbook the bordereau examples write included, and a folder the user chose that
 *   holds an n8n or files of their own is refused, never emptied.
 */
import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer, type Server } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { DEMO_MADE, DEMO_MARKER, DEMO_PORTS, demoPorts, startClean } from '../e2e/demoSetup';
import { EXAMPLE_FILES_DIR } from '../e2e/n8n';

const ROOT = resolve(__dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** A README section: from its heading to the next heading of the same level or higher. */
function section(markdown: string, heading: string): string {
	const from = markdown.indexOf(`\n${heading}\n`);
	if (from < 0) throw new Error(`no section "${heading}"`);
	const level = heading.indexOf(' ');
	const rest = markdown.slice(from + heading.length + 2);
	const end = rest.search(new RegExp(`\\n#{1,${level}} `));
	return end < 0 ? rest : rest.slice(0, end);
}

/** The body rows of the first table under a header row that starts with `firstHeader`. */
function tableRows(text: string, firstHeader: string): string[][] {
	const lines = text.split('\n');
	const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader} |`));
	if (start < 0) throw new Error(`no table headed "${firstHeader}"`);
	const rows: string[][] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith('|')) break;
		rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
	}
	return rows;
}

/** Every "<number word> <noun>" in the text (line breaks and case aside), as numbers. */
function countsSaid(text: string, noun: string): number[] {
	const words = text.replace(/\s+/g, ' ');
	return [...words.matchAll(new RegExp(`\\b(${NUMBERS.join('|')}) ${noun}\\b`, 'gi'))].map((m) => NUMBERS.indexOf(m[1].toLowerCase()));
}

interface Registered {
	file: string;
	description: INodeTypeDescription;
}

/** Each node type package.json registers, with the description n8n reads from its class. */
function registeredNodes(): Registered[] {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	return pkg.n8n.nodes.map((file) => {
		const folder = file.split('/')[2]; // dist/nodes/<Folder>/<Folder>.node.js
		const loaded = require(join(ROOT, 'nodes', folder, `${folder}.node`)) as Record<string, new () => { description: INodeTypeDescription }>;
		return { file, description: new loaded[folder]().description };
	});
}

describe('README: the nodes', () => {
	const registered = registeredNodes();
	const shown = registered.filter((node) => !node.description.hidden);
	const actions = shown.filter((node) => !node.description.group.includes('trigger'));

	it('lists the nodes n8n shows, by name, and no other', () => {
		const listed = tableRows(section(README, '## Nodes'), 'Node').map(([name]) => name.replace(/\*/g, ''));
		expect(listed.sort()).toEqual(shown.map((node) => node.description.displayName).sort());
	});

	it.each([
		['README.md', true],
		['docs/development.md', false],
		['docs/nodes.md', false],
		['test/e2e/README.md', false],
	])('%s: every count of nodes and node types is what package.json registers', (page, mustCount) => {
		const text = readFileSync(join(ROOT, page), 'utf8');
		const said = { nodes: countsSaid(text, 'nodes'), actions: countsSaid(text, 'action nodes'), types: countsSaid(text, 'node types') };
		if (mustCount) {
			expect(said.nodes.length).toBeGreaterThan(0);
			expect(said.types.length).toBeGreaterThan(0);
		}
		expect(said.nodes.filter((n) => n !== shown.length)).toEqual([]);
		expect(said.actions.filter((n) => n !== actions.length)).toEqual([]);
		expect(said.types.filter((n) => n !== registered.length)).toEqual([]);
	});

	it('names the trigger type that is hidden and kept for saved workflows', () => {
		const hidden = registered.filter((node) => node.description.hidden).map((node) => node.description.name);
		expect(hidden.length).toBeGreaterThan(0);
		for (const name of hidden) expect(section(README, '## Nodes')).toContain(`\`${name}\``);
	});
});

describe('README: the examples', () => {
	it('counts the workflows examples/ holds', () => {
		const shipped = readdirSync(join(ROOT, 'examples')).filter((file) => file.endsWith('.json')).length;
		expect(countsSaid(section(README, '## Examples'), 'workflows')).toEqual([shipped]);
	});
});

describe("README: the first screen files a lead's own sheet", () => {
	const first = README.slice(0, README.indexOf('\n## ', README.indexOf('\n## File your own sheet') + 1));
	const example = JSON.parse(readFileSync(join(ROOT, 'examples', 'file-spreadsheet-rows-as-invoices.json'), 'utf8')) as {
		name: string;
		nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	};
	const node = (name: string) => example.nodes.find((n) => n.name === name);

	it('reads in under five minutes: the heading, what the package does, and the five steps', () => {
		expect(first).toContain('## File your own sheet');
		expect(first.split(/\s+/).length).toBeLessThan(700);
	});

	it('gets the code from the repository package.json names, and starts the demo', () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } };
		expect(first).toContain(`git clone ${pkg.repository.url.replace(/^git\+/, '')}`);
		expect(first).toContain('npm run demo');
	});

	it('names the example, its one setting and its results step as the example has them', () => {
		expect(example.name.startsWith('File a bordereau from disk as invoices')).toBe(true);
		expect(first).toContain('*File a bordereau from disk as invoices*');
		const sheet = node('Your Sheet');
		expect(first).toContain('**Your Sheet**');
		expect(JSON.stringify(sheet?.parameters)).toContain('.n8n-files/sample-bordereau.csv');
		// The one setting: every step that reads the path reads it from Your Sheet.
		const mentions = example.nodes.filter((n) => JSON.stringify(n.parameters).includes('sample-bordereau') && n.type !== 'n8n-nodes-base.stickyNote');
		expect(mentions.map((n) => n.name)).toEqual(['Your Sheet']);
		expect(node('Write Results Next to the Sheet')).toBeDefined();
		expect(first).toContain('*Write Results Next to the Sheet*');
		// Node names that stay true whatever the file: a reader per kind.
		expect(node('Rows From CSV')?.parameters.operation).toBe('csv');
		expect(node('Rows From XLSX')?.parameters.operation).toBe('xlsx');
	});

	it('says no project history in the user pages', () => {
		const userPages = ['examples', 'nodes', 'reading-sheets', 'safe-reruns', 'guarantees', 'hostile-input', 'scaling', 'ai-assistants', 'compatibility'];
		for (const page of ['README.md', ...userPages.map((name) => `docs/${name}.md`)]) {
			expect(readFileSync(join(ROOT, page), 'utf8')).not.toMatch(/Until this stop|this stop|last turn|issue \d+|used to hold/i);
		}
	});
});

describe('README: the demo', () => {
	const demoSource = readFileSync(join(ROOT, 'test', 'e2e', 'demo.ts'), 'utf8');
	const demoScript = readFileSync(join(ROOT, 'scripts', 'demo.sh'), 'utf8');
	const commands = section(README, '## The demo in detail');
	/** The section's prose on one line, so a claim may wrap anywhere. */
	const said = commands.replace(/\s+/g, ' ');

	it("the port table's variables and defaults are the demo's", () => {
		const table = tableRows(commands, 'Variable').map(([variable, fallback]) => [variable.replace(/`/g, ''), fallback]);
		expect(table).toEqual(DEMO_PORTS.map((port) => [port.variable, port.fallback === undefined ? 'a free port' : String(port.fallback)]));
		// The addresses the text gives are those defaults.
		const ports = demoPorts({});
		expect(commands).toContain(`http://127.0.0.1:${ports.N8N_PORT}`);
		expect(commands).toContain(`http://127.0.0.1:${ports.INBOX_PORT}`);
		expect(commands).toContain(`http://127.0.0.1:${ports.SLACK_PAGE_PORT}`);
	});

	it('the other settings and the login are the demo\'s', () => {
		const advance = /numberFromEnv\('SANDBOX_AUTO_ADVANCE_SECONDS', (\d+)\)/.exec(demoSource)?.[1];
		expect(advance).toBeDefined();
		expect(said).toContain(`\`SANDBOX_AUTO_ADVANCE_SECONDS\` (${advance}:`);
		expect(said).toContain(`every ${advance} seconds`);
		const owner = /DEMO_OWNER = \{ email: '([^']+)', password: '([^']+)'/.exec(demoSource);
		expect(owner).not.toBeNull();
		expect(said).toContain(`login \`${owner?.[1]}\` / \`${owner?.[2]}\``);
		expect(demoSource).toContain("join(REPO_ROOT, '.cache', `demo-n8n-${");
		expect(said).toContain('`.cache/demo-n8n-<version>` in the checkout; made again on each start');
		// The files folder the first screen sends the sheet to is the demo's default, never emptied.
		expect(demoSource).toContain("process.env.DEMO_FILES || join(REPO_ROOT, 'demo-files')");
		expect(DEMO_MADE).not.toContain('demo-files');
		expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('/demo-files/');
	});

	it('says what each long wait is for: the n8n install (and another run holding its lock), the build, the compile', () => {
		const steps = demoScript.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
		for (const slow of [/ensure-n8n\.sh/, /n8n-node build/, /tsc -p/]) {
			const at = steps.findIndex((line) => slow.test(line));
			expect(at).toBeGreaterThan(0);
			expect(steps[at - 1]).toMatch(/^echo "\[demo\] /);
		}
		const ensure = readFileSync(join(ROOT, 'scripts', 'ensure-n8n.sh'), 'utf8');
		// Every lock is first tried without waiting; a wait says whose install it waits for.
		for (const wait of ensure.matchAll(/^\s*flock (\d)$/gm)) throw new Error(`ensure-n8n.sh waits on lock ${wait[1]} without a word`);
		expect(ensure.match(/flock -n \d \|\| \{ log "waiting for another run installing/g)?.length).toBe(2);
		expect(demoSource).toMatch(/console\.log\('\[demo\] starting n8n \(/);
		expect(demoSource).toMatch(/console\.log\('\[demo\] waiting for the notification examples/);
	});

	describe('a taken port stops it at once', () => {
		let server: Server | undefined;
		afterEach(async () => {
			await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
			server = undefined;
		});

		it('demo.sh checks the ports first, before n8n is installed or anything built', () => {
			expect(said).toContain('the demo stops at once, before it installs or builds anything');
			const steps = demoScript.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
			const check = steps.findIndex((line) => line.trim() === 'node scripts/demo-ports.js');
			const firstWork = steps.findIndex((line) => /ensure-n8n|install-deps|n8n-node build|tsc /.test(line));
			expect(check).toBeGreaterThanOrEqual(0);
			expect(check).toBeLessThan(firstWork);
			// demo.ts checks again with the same table just before its servers start.
			expect(demoSource).toMatch(/await takenPorts\(process\.env\)/);
		});

		it('the check names the variable of a taken port, and passes when every port is free', async () => {
			server = createServer();
			await new Promise<void>((listening) => server?.listen(0, '127.0.0.1', () => listening()));
			const address = server.address();
			const taken = typeof address === 'object' && address ? address.port : 0;
			const free = async (): Promise<number> => {
				const probe = createServer();
				await new Promise<void>((listening) => probe.listen(0, '127.0.0.1', () => listening()));
				const port = (probe.address() as { port: number }).port;
				await new Promise<void>((closed) => probe.close(() => closed()));
				return port;
			};
			const env: NodeJS.ProcessEnv = { ...process.env };
			for (const port of DEMO_PORTS) env[port.variable] = String(await free());
			const run = (extra: NodeJS.ProcessEnv) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo-ports.js')], { env: { ...env, ...extra }, encoding: 'utf8' });

			const allFree = run({});
			expect({ status: allFree.status, stderr: allFree.stderr }).toEqual({ status: 0, stderr: '' });
			const stopped = run({ INBOX_PORT: String(taken) });
			expect(stopped.status).toBe(1);
			expect(stopped.stderr.trim()).toBe(`demo: port ${taken} (inbox page) is in use: stop what runs there, or set INBOX_PORT`);
		});
	});

	describe('its folder is emptied on each start', () => {
		let folder: string;
		beforeEach(() => {
			folder = mkdtempSync(join(tmpdir(), 'sl-demo-folder-'));
		});
		afterEach(() => rmSync(folder, { recursive: true, force: true }));

		/** The folder as a start leaves it: n8n's data, the examples' files and results, mails, the CA, a log. */
		function leftByAStart(): void {
			mkdirSync(join(folder, '.n8n', 'nodes'), { recursive: true });
			writeFileSync(join(folder, '.n8n', DEMO_MARKER), '');
			writeFileSync(join(folder, '.n8n', 'database.sqlite'), 'the triggers\' state');
			mkdirSync(join(folder, EXAMPLE_FILES_DIR));
			writeFileSync(join(folder, EXAMPLE_FILES_DIR, 'sample-bordereau.csv'), 'Policy #\n');
			writeFileSync(join(folder, EXAMPLE_FILES_DIR, 'sample-bordereau-results.xlsx'), 'last run');
			for (const made of ['mailbox', 'demo-input', 'slack-ca']) {
				mkdirSync(join(folder, made));
				writeFileSync(join(folder, made, 'kept'), 'last run');
			}
			writeFileSync(join(folder, 'n8n.log'), 'n8n exited');
		}

		it.each([
			['the default folder', false],
			['a DEMO_DIR it made', true],
		])('%s: nothing of the last start survives, the results workbook included', (_, chosen) => {
			leftByAStart();
			startClean(folder, chosen);
			expect(readdirSync(folder)).toEqual(['.n8n']);
			expect(readdirSync(join(folder, '.n8n'))).toEqual([DEMO_MARKER]);
		});

		it('covers every folder and file the demo makes in it', () => {
			const made = [...demoSource.matchAll(/join\(userFolder, '([^']+)'\)/g)].map((m) => m[1]);
			expect(made.length).toBeGreaterThan(0);
			expect([...made, EXAMPLE_FILES_DIR].filter((name) => !DEMO_MADE.includes(name))).toEqual([]);
		});

		it.each([
			['an n8n of your own', '.n8n', 'database.sqlite'],
			["n8n's files folder of your own", EXAMPLE_FILES_DIR, 'my-bordereau.xlsx'],
		])('a DEMO_DIR holding %s is refused and left as it was', (_, dir, file) => {
			mkdirSync(join(folder, dir));
			writeFileSync(join(folder, dir, file), 'yours');
			expect(() => startClean(folder, true)).toThrow(`${folder} holds ${dir}, which the demo did not make: the demo empties these on every start, so set DEMO_DIR to an empty folder or leave it unset`);
			expect(readFileSync(join(folder, dir, file), 'utf8')).toBe('yours');
			expect(existsSync(join(folder, '.n8n', DEMO_MARKER))).toBe(false);
		});
	});
});
