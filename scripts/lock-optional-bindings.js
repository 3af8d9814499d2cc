#!/usr/bin/env node
/*
 * Completes package-lock.json with the optional platform packages this registry does not serve.
 *
 * unrs-resolver (under @n8n/node-cli's eslint stack) lists one optional native binding per
 * platform. The registry these machines reach serves only the linux ones, so `npm install` leaves
 * the others out of the lockfile, and `npm ci` then calls the lock out of sync with package.json.
 * Each missing binding is added with its platform fields (read from its name) and marked optional:
 * npm ci skips it on any other platform, and on its own platform fetches it from the public
 * registry as usual. Run after `npm install` changes the lockfile; `--check` only reports.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const LOCK = join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

// <os>-<cpu>[-<abi>] as the binding packages name themselves.
function platformOf(suffix) {
	const [os, cpu, abi] = suffix.split('-');
	const entry = { os: [os], cpu: [cpu] };
	if (os === 'linux' && abi) entry.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
	return entry;
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
	for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
		const match = /^@unrs\/resolver-binding-(.+)$/.exec(name);
		if (!match || match[1].startsWith('wasm32')) continue;
		const target = `${path ? `${path}/` : ''}node_modules/${name}`;
		if (packages[target]) continue;
		packages[target] = { version, ...platformOf(match[1]), dev: true, license: 'MIT', optional: true };
		added++;
	}
}

if (process.argv.includes('--check')) {
	if (added) console.error(`[lock] ${added} optional bindings missing: run node scripts/lock-optional-bindings.js`);
	process.exit(added ? 1 : 0);
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))));
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`[lock] added ${added} optional platform bindings`);
