#!/usr/bin/env node
/*
 * The checks n8n's community package scanner (@n8n/scan-community-package) makes before it
 * verifies a package, run here on what would be published, so a release cannot fail verification
 * for something the tests could see.
 *
 * The scanner itself downloads the published tarball and the source its provenance names, then
 * lints both with its own ESLint rule set and inline disable comments ignored. Here the same
 * exported `analyzePackage` and `SOURCE_FILE_PATTERNS` run on the tarball `npm pack` makes from
 * this checkout (its compiled .js and package.json, as the scanner's tarball leg) and on this
 * checkout as the source leg. Only the network steps (provenance, downloads) are left out: they
 * can run only against the registry after publishing.
 *
 * Prints `scan: N passed, M failed` (two legs) and exits 1 on any violation.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	'@n8n/scan-community-package/scanner/scanner.mjs'
);

function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
	return result.stdout;
}

if (!existsSync(join(root, 'dist', 'index.js'))) {
	console.error('[scan] dist/ is missing: build first (npx n8n-node build); the tarball ships dist/ only');
	process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'sl-scan-'));
let failed = 0;
try {
	run('npm', ['pack', '--silent', '--pack-destination', work], root);
	const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
	const unpacked = join(work, 'package');
	mkdirSync(unpacked);
	run('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'], work);

	const legs = [
		{ name: `tarball ${tarball}`, dir: unpacked, patterns: ['**/*.js', 'package.json'] },
		{ name: 'source (nodes/, credentials/, package.json)', dir: root, patterns: SOURCE_FILE_PATTERNS },
	];
	for (const leg of legs) {
		const result = await analyzePackage(leg.dir, leg.patterns);
		if (result.passed) {
			console.log(`[scan] ${leg.name}: clean`);
		} else {
			failed++;
			console.log(`[scan] ${leg.name}: ${result.message}`);
			if (result.details) console.log(result.details);
		}
	}
	console.log(`scan: ${legs.length - failed} passed, ${failed} failed`);
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
