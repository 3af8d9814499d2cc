// Prints one closing line, "tests: N passed, N failed", over jest's JSON results, the e2e run and,
// when given, the queue-mode stage's output (its `queue: N passed, M failed` line).
const fs = require('fs');

const [jestFile, e2eFile, queueFile] = process.argv.slice(2);
const jest = JSON.parse(fs.readFileSync(jestFile, 'utf8'));
const summary = (label, file) => {
	const found = new RegExp(`${label}: (\\d+) passed, (\\d+) failed`).exec(fs.readFileSync(file, 'utf8'));
	if (!found) {
		console.error(`no ${label} summary line found in ${file}`);
		process.exit(1);
	}
	return [Number(found[1]), Number(found[2])];
};
const runs = [summary('e2e', e2eFile), ...(queueFile ? [summary('queue', queueFile)] : [])];
const passed = jest.numPassedTests + runs.reduce((sum, [p]) => sum + p, 0);
const failed = jest.numFailedTests + runs.reduce((sum, [, f]) => sum + f, 0);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
