#!/usr/bin/env bash
# The one test command (npm test): typecheck, lint, build, unit and sandbox tests, then the
# end-to-end runs in a real n8n: the current n8n for the end-to-end, queue and browser stages, and
# the oldest supported one (2.8.4) for the compatibility stage (scripts/ensure-n8n.sh installs both
# when missing). Prints how long each stage takes and, beside each n8n stage, the version it ran.
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
stage "community scanner rules and package contents (packed tarball)" bash -c 'set -o pipefail; node scripts/scan-package.mjs | tee .cache/scan-output.txt'
stage "jest (unit, sandbox, engine)" npx --no-install jest --ci --json --outputFile=.cache/jest-results.json
# The compatibility stage runs on the oldest supported n8n; N8N_COMPAT_TARGETS adds others
# (e.g. "oldest last-1x", see scripts/ensure-n8n.sh).
COMPAT_TARGETS=(${N8N_COMPAT_TARGETS:-oldest})
stage "n8n runtimes: current and ${COMPAT_TARGETS[*]} (when missing)" bash -c 'for target in current "$@"; do bash scripts/ensure-n8n.sh "${target}" || exit 1; done' _ "${COMPAT_TARGETS[@]}"
stage "end-to-end (current n8n + sandbox)" bash -c 'set -o pipefail; N8N_TARGET=current bash scripts/e2e.sh | tee .cache/e2e-output.txt'
COMPAT_OUTPUTS=()
for target in "${COMPAT_TARGETS[@]}"; do
	stage "compatibility (core scenarios on n8n ${target})" bash -c 'set -o pipefail; N8N_TARGET="$1" E2E_SET=compat bash scripts/e2e.sh | tee ".cache/compat-$1-output.txt"' _ "${target}"
	COMPAT_OUTPUTS+=(".cache/compat-${target}-output.txt")
done
stage "queue mode (current n8n main + 2 workers, Redis, Postgres)" bash -c 'set -o pipefail; N8N_TARGET=current bash scripts/queue.sh | tee .cache/queue-output.txt'
stage "browser (current n8n's editor in Chromium)" bash -c 'set -o pipefail; N8N_TARGET=current bash scripts/browser.sh | tee .cache/browser-output.txt'

echo
echo "=== stage times"
for line in "${STAGES[@]}"; do echo "  ${line}"; done
echo "  total: $(( $(date +%s) - total_start )) s"
echo
echo "=== n8n stages: result and the n8n each ran"
for file in .cache/e2e-output.txt "${COMPAT_OUTPUTS[@]}" .cache/queue-output.txt .cache/browser-output.txt; do
	echo "  $(grep -E '^\w+: [0-9]+ passed' "${file}" | tail -1)"
done

# One closing line over both runners (jest's own summary is not in a form CI reads).
node scripts/test-summary.js .cache/jest-results.json .cache/scan-output.txt .cache/e2e-output.txt "${COMPAT_OUTPUTS[@]}" .cache/queue-output.txt .cache/browser-output.txt
