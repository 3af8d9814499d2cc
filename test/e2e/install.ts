/**
 * The README's install from the release file, run as written: the package packed as the release
 * workflow packs it (`npm pack`), the README's shell lines (section "From the release file") run
 * by bash in the folder holding the file, with HOME a fresh empty folder, so `~/.n8n` is a new
 * n8n user folder. Then `n8n export:nodes` on that folder (n8n finds `~/.n8n` by HOME, as a
 * default install does) must list every node the package registers.
 *
 * The one thing changed in the README's lines is the version in the file's name: the README shows
 * the current release's; the packed file carries package.json's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { n8nEnv, packPackage, PACKAGE_NAME, REPO_ROOT, runCli, tail } from './n8n';

export const INSTALL_CHECK = 'install the release file as the README says';
const SECTION = '### From the release file (self-hosted n8n)';

/** The first ```sh block under the README's section on the release file. */
export function readmeInstallLines(readme: string): string {
	const from = readme.indexOf(SECTION);
	if (from < 0) throw new Error(`the README has no section "${SECTION}"`);
	const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from));
	if (!block) throw new Error(`no sh block under "${SECTION}"`);
	return block[1];
}

function packageJson(): { version: string; n8n: { nodes: string[] } } {
	return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; n8n: { nodes: string[] } };
}

export async function checkReadmeInstall(bin: string): Promise<{ name: string; status: 'passed' | 'failed'; ms: number; detail?: string }> {
	const start = Date.now();
	const work = mkdtempSync(join(tmpdir(), 'sl-install-'));
	try {
		const file = basename(packPackage(work));
		if (file !== `${PACKAGE_NAME}-${packageJson().version}.tgz`) throw new Error(`npm pack made ${file}`);

		const fileName = `${PACKAGE_NAME}-\\d+\\.\\d+\\.\\d+(?:-[\\w.]+)?\\.tgz`;
		const lines = readmeInstallLines(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
		if (!new RegExp(fileName).test(lines)) throw new Error(`the README's lines name no ${PACKAGE_NAME}-<version>.tgz:\n${lines}`);
		const home = join(work, 'home');
		mkdirSync(home);
		const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, npm_config_cache: join(work, 'npm-cache') };
		delete env.N8N_USER_FOLDER;
		const install = spawnSync('bash', ['-euo', 'pipefail', '-c', lines.replace(new RegExp(fileName, 'g'), file)], { cwd: work, env, encoding: 'utf8', timeout: 300_000 });
		if (install.status !== 0) throw new Error(`the README's lines failed (exit ${install.status}):\n${tail(install.stdout + install.stderr, 2000)}`);

		// n8n's own settings for a run here (sqlite, a free broker port, no telemetry), but no
		// N8N_USER_FOLDER: n8n takes HOME's `.n8n`, where the README's lines installed.
		const n8n = await n8nEnv(bin, home);
		n8n.env = { ...n8n.env, HOME: home };
		delete n8n.env.N8N_USER_FOLDER;
		const exported = join(work, 'nodes.json');
		const result = await runCli(n8n, ['export:nodes', `--output=${exported}`], 180_000);
		if (result.code !== 0) throw new Error(`n8n export:nodes exited ${result.code}\n${tail(result.stdout + result.stderr, 2000)}`);
		const listed = new Set((JSON.parse(readFileSync(exported, 'utf8')) as Array<{ name: string }>).map((n) => n.name));
		const expected = packageJson().n8n.nodes.map((f) => {
			const folder = f.split('/')[2]; // dist/nodes/<Folder>/<Folder>.node.js
			return `${PACKAGE_NAME}.${folder.charAt(0).toLowerCase()}${folder.slice(1)}`;
		});
		const absent = expected.filter((t) => !listed.has(t));
		if (absent.length) throw new Error(`n8n does not list ${absent.join(', ')} after the README's install`);
		// Only the package itself: the peer dependency n8n-workflow is left to n8n, as its installer does.
		const installed = readdirSync(join(home, '.n8n', 'nodes', 'node_modules')).filter((name) => !name.startsWith('.'));
		if (installed.join(',') !== PACKAGE_NAME) throw new Error(`~/.n8n/nodes/node_modules holds ${installed.join(', ')}`);
		console.log(`[e2e] passed  ${INSTALL_CHECK}: ${file} into a fresh ~/.n8n; n8n lists ${expected.length} nodes`);
		return { name: INSTALL_CHECK, status: 'passed', ms: Date.now() - start };
	} catch (error) {
		console.log(`[e2e] FAILED  ${INSTALL_CHECK}\n${(error as Error).message}`);
		return { name: INSTALL_CHECK, status: 'failed', ms: Date.now() - start, detail: (error as Error).message.split('\n').slice(0, 12).join('\n') };
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
