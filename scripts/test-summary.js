// The end of `npm test` (scripts/test.sh): each stage's time and status, the n8n stages' result
// lines, and one closing line, "tests: N passed, N failed", over jest's JSON results and the lines
// (`<set>: N passed, M failed`) the other stages print into their output files.
// Usage: node scripts/test-summary.js <stage log (.tsv)> <total seconds>
// A stage never vanishes from the count: one that failed without a failing test in its output,
// one that did not run (an earlier stage it needs failed), and one whose output file is missing
// or holds no result line each count as one failed. Exits 1 when anything failed.
const fs = require('fs');

const [stageLog, totalSeconds] = process.argv.slice(2);
const stages = fs
	.readFileSync(stageLog, 'utf8')
	.split('\n')
	.filter(Boolean)
	.map((line) => {
		const [name, status, seconds, kind, output, note] = line.split('\t');
		return { name, status, seconds: Number(seconds), kind, output, note };
	});

/** Tests counted from a stage's output: { passed, failed, line } or { problem } when there is none. */
function counts(stage) {
	if (stage.kind === 'plain') return { passed: 0, failed: 0 };
	if (stage.status === 'not run') return { problem: `not run (${stage.note})` };
	if (!fs.existsSync(stage.output)) return { problem: `no output (${stage.output} missing)` };
	const text = fs.readFileSync(stage.output, 'utf8');
	if (stage.kind === 'jest') {
		try {
			const jest = JSON.parse(text);
			// A suite that fails to load has no failed test but is a failure.
			const brokenSuites = jest.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
			return { passed: jest.numPassedTests, failed: jest.numFailedTests + brokenSuites, line: `jest: ${jest.numPassedTests} passed, ${jest.numFailedTests} failed${brokenSuites ? `, ${brokenSuites} suites did not load` : ''}` };
		} catch (error) {
			return { problem: `unreadable results in ${stage.output}: ${error.message}` };
		}
	}
	const lines = [...text.matchAll(/^(\w+): (\d+) passed, (\d+) failed.*$/gm)];
	if (!lines.length) return { problem: `no result line in ${stage.output}` };
	const last = lines[lines.length - 1];
	return { passed: Number(last[2]), failed: Number(last[3]), line: last[0] };
}

let passed = 0;
let failed = 0;
const problems = [];
const n8nLines = [];
console.log('\n=== stage times');
for (const stage of stages) {
	const found = counts(stage);
	let stageFailed = found.problem ? 1 : found.failed;
	// A stage that exited non-zero with no failed test counted (a crash, a compile error, lint).
	if (stage.status === 'failed' && stageFailed === 0) stageFailed = 1;
	if (!found.problem) passed += found.passed;
	failed += stageFailed;
	if (stage.status === 'not run') console.log(`  ${stage.name}: NOT RUN (${stage.note})`);
	else console.log(`  ${stage.name}: ${stage.seconds} s${stage.status === 'passed' ? '' : `  FAILED (${stage.note})`}`);
	if (found.problem && stage.status !== 'not run') problems.push(`${stage.name}: ${found.problem}`);
	if (stage.kind === 'n8n') n8nLines.push(found.line ?? `${stage.name}: ${found.problem}`);
}
console.log(`  total: ${totalSeconds} s`);
if (n8nLines.length) {
	console.log('\n=== n8n stages: result and the n8n each ran');
	for (const line of n8nLines) console.log(`  ${line}`);
}
for (const problem of problems) console.error(problem);
const notPassed = stages.filter((s) => s.status !== 'passed').map((s) => s.name);
if (notPassed.length) console.log(`\nstages failed or not run: ${notPassed.join('; ')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 && notPassed.length === 0 ? 0 : 1);
