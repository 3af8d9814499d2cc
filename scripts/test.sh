#!/usr/bin/env bash
# The one test command (npm test): typecheck, lint, build, unit and sandbox tests, then the
# end-to-end runs in a real n8n: the current n8n for the end-to-end, queue and browser stages, and
# the oldest supported one (2.8.4) for the compatibility stage (scripts/ensure-n8n.sh installs both
# when missing). Prints how long each stage takes and, beside each n8n stage, the version it ran.
#
# A failing stage does not stop the run: every stage that can still run does, so one run shows
# everything that is wrong, and the command exits 1 at the end. A stage that needs an earlier one
# that failed (everything after a failed build, the n8n stages after a failed n8n install) is not
# run and counts as failed; no stage reads output left from an earlier run.
set -uo pipefail
cd "$(dirname "$0")/.."

mkdir -p .cache
# One line per stage (name, status, seconds, kind, output file, note) for scripts/test-summary.js.
STAGE_LOG=.cache/test-stages.tsv
: >"${STAGE_LOG}"
rm -f .cache/jest-results.json .cache/scan-output.txt .cache/e2e-output.txt .cache/compat-*-output.txt \
	.cache/queue-output.txt .cache/browser-output.txt
declare -A PASSED=()
total_start=$(date +%s)

# stage <key> <name> <needs: keys of earlier stages, comma-separated, or -> <kind> <output file or -> <command...>
# kind: plain (no test counts), jest (jest's JSON results), counts (a `<set>: N passed, M failed`
# line in its output), n8n (the same, and its line is listed with the n8n it ran).
stage() {
	local key="$1" name="$2" needs="$3" kind="$4" output="$5"
	shift 5
	local need
	for need in ${needs//,/ }; do
		[ "${need}" = "-" ] && continue
		if [ -z "${PASSED[${need}]:-}" ]; then
			echo
			echo "=== stage: ${name}: not run (${need} failed or did not run)"
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${name}" "not run" "0" "${kind}" "${output}" "needs ${need}" >>"${STAGE_LOG}"
			return
		fi
	done
	local start end status
	start=$(date +%s)
	echo
	echo "=== stage: ${name}"
	"$@"
	local code=$?
	end=$(date +%s)
	if [ "${code}" -eq 0 ]; then
		status=passed
		PASSED[${key}]=1
		echo "=== ${name} done in $((end - start)) s"
	else
		status=failed
		echo "=== ${name} FAILED (exit ${code}) after $((end - start)) s"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${name}" "${status}" "$((end - start))" "${kind}" "${output}" "exit ${code}" >>"${STAGE_LOG}"
}

stage deps "dependencies (when missing)" - plain - bash scripts/install-deps.sh
stage typecheck "typecheck" deps plain - npx --no-install tsc --noEmit -p test/tsconfig.json
stage lint "lint (n8n-node lint)" deps plain - npx --no-install n8n-node lint
stage build "build (n8n-node build)" deps plain - npx --no-install n8n-node build
stage scan "community scanner rules and package contents (packed tarball)" build counts .cache/scan-output.txt \
	bash -c 'set -o pipefail; node scripts/scan-package.mjs | tee .cache/scan-output.txt'
# Jest runs the TypeScript sources (ts-jest), not dist/: it needs only the dependencies.
stage jest "jest (unit, sandbox, engine)" deps jest .cache/jest-results.json \
	npx --no-install jest --ci --json --outputFile=.cache/jest-results.json
# The compatibility stage runs on the oldest supported n8n; N8N_COMPAT_TARGETS adds others
# (e.g. "oldest last-1x", see scripts/ensure-n8n.sh). Each runtime is its own stage, so a failed
# install stops only the stages that run on it.
COMPAT_TARGETS=(${N8N_COMPAT_TARGETS:-oldest})
for target in current "${COMPAT_TARGETS[@]}"; do
	stage "n8n-${target}" "n8n runtime: ${target} (when missing)" deps plain - bash scripts/ensure-n8n.sh "${target}"
done
stage e2e "end-to-end (current n8n + sandbox)" build,n8n-current n8n .cache/e2e-output.txt \
	bash -c 'set -o pipefail; N8N_TARGET=current bash scripts/e2e.sh | tee .cache/e2e-output.txt'
for target in "${COMPAT_TARGETS[@]}"; do
	stage "compat-${target}" "compatibility (core scenarios on n8n ${target})" "build,n8n-${target}" n8n ".cache/compat-${target}-output.txt" \
		bash -c 'set -o pipefail; N8N_TARGET="$1" E2E_SET=compat bash scripts/e2e.sh | tee ".cache/compat-$1-output.txt"' _ "${target}"
done
stage queue "queue mode (current n8n main + 2 workers, Redis, Postgres)" build,n8n-current n8n .cache/queue-output.txt \
	bash -c 'set -o pipefail; N8N_TARGET=current bash scripts/queue.sh | tee .cache/queue-output.txt'
stage browser "browser (current n8n's editor in Chromium)" build,n8n-current n8n .cache/browser-output.txt \
	bash -c 'set -o pipefail; N8N_TARGET=current bash scripts/browser.sh | tee .cache/browser-output.txt'

# Stage times, the n8n stages' result lines and one closing line over all runners; exits 1 when
# any stage failed or did not run.
node scripts/test-summary.js "${STAGE_LOG}" "$(($(date +%s) - total_start))"
