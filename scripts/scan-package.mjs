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
 * A third leg checks what the tarball holds: only what an installed package needs (the compiled
 * code and type declarations, the codex files, the icons, README, LICENSE, CHANGELOG and
 * package.json), each of those present, and prints the tarball's size. Anything else (screenshots
 * n8n-node build copies into dist/, source maps, build info) is a mistake in package.json "files".
 *
 * Prints `scan: N passed, M failed` (three legs) and exits 1 on any violation.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** What an installed package may hold: the top-level files and, under dist/, code, types, codex and icons. */
const ALLOWED = [/^(README\.md|LICENSE|CHANGELOG\.md|package\.json)$/, /^dist\/.+\.(js|d\.ts)$/, /^dist\/nodes\/[^/]+\/[^/]+\.node\.json$/, /^dist\/icons\/[^/]+\.svg$/, /^dist\/package\.json$/];

/** The files that must be there: the top-level four and every file package.json's `n8n` and `main` name. */
function requiredFiles() {
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	return ['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json', pkg.main, ...pkg.n8n.credentials, ...pkg.n8n.nodes];
}

/** `npm pack --dry-run`'s file list checked against ALLOWED and requiredFiles(); returns the problems. */
function checkContents() {
	const [pack] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--silent'], root));
	const paths = pack.files.map((file) => file.path);
	const extra = paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)));
	const missing = requiredFiles().filter((path) => !paths.includes(path));
	console.log(`[scan] package contents: ${pack.filename}, ${paths.length} files, ${(pack.size / 1024).toFixed(1)} kB packed, ${(pack.unpackedSize / 1024).toFixed(1)} kB unpacked`);
	return [...extra.map((path) => `packed but not needed: ${path}`), ...missing.map((path) => `needed but not packed: ${path}`)];
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
	const problems = checkContents();
	if (problems.length) {
		failed++;
		for (const problem of problems) console.log(`[scan] package contents: ${problem}`);
	} else {
		console.log('[scan] package contents: only what the package needs, nothing needed missing');
	}
	console.log(`scan: ${legs.length + 1 - failed} passed, ${failed} failed`);
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
