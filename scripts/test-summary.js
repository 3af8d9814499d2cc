// Prints one closing line, "tests: N passed, N failed", over jest's JSON results and the summary
// lines (`<stage>: N passed, M failed`) that the other stages print into their output files.
const fs = require('fs');

const [jestFile, ...stageFiles] = process.argv.slice(2);
const jest = JSON.parse(fs.readFileSync(jestFile, 'utf8'));
let passed = jest.numPassedTests;
let failed = jest.numFailedTests;
for (const file of stageFiles) {
	const lines = [...fs.readFileSync(file, 'utf8').matchAll(/^(\w+): (\d+) passed, (\d+) failed/gm)];
	if (!lines.length) {
		console.error(`no summary line found in ${file}`);
		process.exit(1);
	}
	const [, , stagePassed, stageFailed] = lines[lines.length - 1];
	passed += Number(stagePassed);
	failed += Number(stageFailed);
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
