// Prints one closing line, "tests: N passed, N failed", over jest's JSON results, the e2e run
// and the browser test.
const fs = require('fs');

const [jestFile, e2eFile, browserFile] = process.argv.slice(2);
const jest = JSON.parse(fs.readFileSync(jestFile, 'utf8'));
const e2e = /e2e: (\d+) passed, (\d+) failed/.exec(fs.readFileSync(e2eFile, 'utf8'));
if (!e2e) {
	console.error('no e2e summary line found');
	process.exit(1);
}
// The browser stage (when given) ends with `browser: N passed, M failed`.
const browser = browserFile ? /browser: (\d+) passed, (\d+) failed/.exec(fs.readFileSync(browserFile, 'utf8')) : [0, 0, 0];
if (!browser) {
	console.error('no browser summary line found');
	process.exit(1);
}
const passed = jest.numPassedTests + Number(e2e[1]) + Number(browser[1]);
const failed = jest.numFailedTests + Number(e2e[2]) + Number(browser[2]);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
