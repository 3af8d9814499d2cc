// Prints one closing line, "tests: N passed, N failed", over jest's JSON results and the e2e run.
const fs = require('fs');

const [jestFile, e2eFile] = process.argv.slice(2);
const jest = JSON.parse(fs.readFileSync(jestFile, 'utf8'));
const e2e = /e2e: (\d+) passed, (\d+) failed/.exec(fs.readFileSync(e2eFile, 'utf8'));
if (!e2e) {
	console.error('no e2e summary line found');
	process.exit(1);
}
const passed = jest.numPassedTests + Number(e2e[1]);
const failed = jest.numFailedTests + Number(e2e[2]);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
