#!/usr/bin/env bash
# End-to-end tests: the packed package inside a real n8n (installed by scripts/ensure-n8n.sh when
# missing), running the workflows of test/e2e/workflows against the sandbox.
# See test/e2e/README.md. Env: E2E_ONLY=name,name  E2E_KEEP=1 (keep the temp n8n user folder).
set -euo pipefail
cd "$(dirname "$0")/.."

start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start)) s"; }

# Node >= 20.19 is what n8n 2.8.4 needs; this machine's Node 20 qualifies.
N8N_BIN=$(bash scripts/ensure-n8n.sh | tail -1)
bash scripts/ensure-openssl.sh
export N8N_BIN
echo "[e2e] n8n ready ($(elapsed))"

# test.sh builds before this; on its own, build when dist/ is missing.
if [ ! -f dist/credentials/SurplusLinesApi.credentials.js ]; then
	echo "[e2e] dist/ missing: building"
	npx --no-install n8n-node build
fi

npx --no-install tsc -p test/e2e/tsconfig.json
echo "[e2e] driver compiled ($(elapsed))"

node .cache/e2e/test/e2e/run.js
