#!/usr/bin/env bash
# Queue-mode stage: the packed package in a real queue-mode n8n (a main and two workers sharing
# PostgreSQL, Redis and the encryption key), against the sandbox. See test/queue/run.ts. The n8n
# is the current one; N8N_TARGET chooses another (see scripts/ensure-n8n.sh).
#
# Redis and PostgreSQL come from Debian's packages (scripts/queue-deps.sh installs them when
# missing) and run as plain processes on loopback with their data in a temporary folder. Whatever
# happens (a failed check, a crash, Ctrl-C, the time limit), the trap stops every process the run
# started and removes the folder.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start)) s"; }

PG_BIN=$(bash scripts/queue-deps.sh | tail -1)
N8N_BIN=$(bash scripts/ensure-n8n.sh | tail -1)
# The Slack stand-in's HTTPS proxy (the watch-list step) makes its certificates with openssl.
bash scripts/ensure-openssl.sh
export PG_BIN N8N_BIN
echo "[queue] Redis, PostgreSQL and n8n ready ($(elapsed))"

if [ ! -f dist/credentials/SurplusLinesApi.credentials.js ]; then
	echo "[queue] dist/ missing: building"
	npx --no-install n8n-node build
fi
npx --no-install tsc -p test/queue/tsconfig.json
echo "[queue] driver compiled ($(elapsed))"

QUEUE_TMP=$(mktemp -d "${TMPDIR:-/tmp}/sl-queue-XXXXXX")
export QUEUE_TMP

cleanup() {
	local code=$?
	trap - EXIT INT TERM
	# Process groups the driver recorded (Redis, n8n main and workers with their task runners).
	if [ -f "${QUEUE_TMP}/pids" ]; then
		while read -r pid; do
			kill -KILL -- "-${pid}" 2>/dev/null || true
		done <"${QUEUE_TMP}/pids"
	fi
	# Postgres daemonizes: stop it by its data folder when it is still running.
	local data="${QUEUE_TMP}/pg/data"
	if [ -f "${data}/postmaster.pid" ]; then
		echo "[queue] stopping the leftover PostgreSQL"
		if [ "$(id -u)" -eq 0 ]; then
			runuser -u postgres -- "${PG_BIN}/pg_ctl" -D "${data}" -m immediate -w stop >/dev/null 2>&1 || true
		else
			"${PG_BIN}/pg_ctl" -D "${data}" -m immediate -w stop >/dev/null 2>&1 || true
		fi
	fi
	rm -rf "${QUEUE_TMP}"
	exit "${code}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The stage takes 2-4 minutes on 2 free cores; past 12 the driver is stopped and the trap cleans up.
timeout --kill-after=15 720 node .cache/queue/test/queue/run.js
