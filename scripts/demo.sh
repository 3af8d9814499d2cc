#!/usr/bin/env bash
# The demo: the sandbox (statuses move by themselves) and a real n8n with these nodes, a
# credential for the sandbox and the example workflows of examples/ loaded.
# Installs n8n 2.8.4 into a cache folder the first time (about 5 minutes). Ctrl-C stops everything.
# Env: N8N_PORT (5678), SANDBOX_PORT (8787), SANDBOX_AUTO_ADVANCE_SECONDS (20), SLACK_PAGE_PORT (8026), DEMO_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$(date +%s)
N8N_BIN=$(bash scripts/ensure-n8n.sh | tail -1)
bash scripts/ensure-openssl.sh
export N8N_BIN
bash scripts/install-deps.sh
echo "[demo] building the package"
npx --no-install n8n-node build >/dev/null
npx --no-install tsc -p test/e2e/tsconfig.json
echo "[demo] starting the sandbox and n8n (set-up took $(($(date +%s) - start)) s so far)"
exec node .cache/e2e/test/e2e/demo.js
