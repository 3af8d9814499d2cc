#!/usr/bin/env bash
# The demo: the sandbox (statuses move by themselves) and a real n8n with these nodes, a
# credential for the sandbox and the example workflows of examples/ loaded.
# Runs the current n8n (scripts/ensure-n8n.sh current; N8N_TARGET=oldest shows 2.8.4), installed
# into a cache folder the first time (5-10 minutes). Ctrl-C stops everything.
# n8n's database starts afresh every time (the sandbox keeps nothing between runs); the user's
# sheets and results (DEMO_FILES, demo-files/ in the checkout) stay, and their workflows and
# credentials are carried over (test/e2e/demo.ts, demoKeep.ts).
# Env (the README's table): the ports of scripts/demo-ports.js (N8N_PORT, SANDBOX_PORT, SMTP_PORT,
# INBOX_PORT, SLACK_PAGE_PORT, SLACK_PROXY_PORT, N8N_RUNNERS_BROKER_PORT), SANDBOX_AUTO_ADVANCE_SECONDS
# (20), DEMO_FILES, DEMO_DIR (.cache/demo-n8n-<version>, made again on each start), N8N_TARGET
# (current|oldest).
set -euo pipefail
cd "$(dirname "$0")/.."

# A taken port stops the demo here, before n8n is installed or the package built.
node scripts/demo-ports.js
start=$(date +%s)
echo "[demo] checking that n8n is installed (the first time it installs: 5-10 minutes)"
N8N_BIN=$(bash scripts/ensure-n8n.sh | tail -1)
bash scripts/ensure-openssl.sh
export N8N_BIN
bash scripts/install-deps.sh
echo "[demo] building the package (about 30 s)"
npx --no-install n8n-node build >/dev/null
echo "[demo] compiling the demo's own code (about 30 s)"
npx --no-install tsc -p test/e2e/tsconfig.json
echo "[demo] starting the sandbox and n8n (set-up took $(($(date +%s) - start)) s so far)"
exec node .cache/e2e/test/e2e/demo.js
