#!/usr/bin/env bash
# The one test command (npm test): typecheck, lint, build, unit and sandbox tests, then the
# end-to-end runs in a real n8n. Prints how long each stage takes.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -a STAGES=()
total_start=$(date +%s)

stage() {
	local name="$1"
	shift
	local start end
	start=$(date +%s)
	echo
	echo "=== stage: ${name}"
	"$@"
	end=$(date +%s)
	STAGES+=("${name}: $((end - start)) s")
	echo "=== ${name} done in $((end - start)) s"
}

stage "dependencies (when missing)" bash scripts/install-deps.sh
stage "typecheck" npx --no-install tsc --noEmit -p test/tsconfig.json
stage "lint (n8n-node lint)" npx --no-install n8n-node lint
stage "build (n8n-node build)" npx --no-install n8n-node build
mkdir -p .cache
stage "community scanner rules (packed tarball)" bash -c 'set -o pipefail; node scripts/scan-package.mjs | tee .cache/scan-output.txt'
stage "jest (unit, sandbox, engine)" npx --no-install jest --ci --json --outputFile=.cache/jest-results.json
stage "end-to-end (real n8n + sandbox)" bash -c 'set -o pipefail; bash scripts/e2e.sh | tee .cache/e2e-output.txt'
stage "queue mode (n8n main + 2 workers, Redis, Postgres)" bash -c 'set -o pipefail; bash scripts/queue.sh | tee .cache/queue-output.txt'
stage "browser (n8n's editor in Chromium)" bash -c 'set -o pipefail; bash scripts/browser.sh | tee .cache/browser-output.txt'

echo
echo "=== stage times"
for line in "${STAGES[@]}"; do echo "  ${line}"; done
echo "  total: $(( $(date +%s) - total_start )) s"

# One closing line over both runners (jest's own summary is not in a form CI reads).
node scripts/test-summary.js .cache/jest-results.json .cache/scan-output.txt .cache/e2e-output.txt .cache/queue-output.txt .cache/browser-output.txt
