#!/usr/bin/env bash
# The browser test: n8n's editor in Debian's Chromium, driven with playwright-core (test/browser).
# Needs dist/ (npm test builds first; on its own this builds when missing). Installs n8n and
# Chromium when missing. Env: BROWSER_ONLY=<step names>, BROWSER_KEEP=1, CHROMIUM.
set -euo pipefail
cd "$(dirname "$0")/.."

N8N_BIN=$(bash scripts/ensure-n8n.sh | tail -1)
bash scripts/ensure-openssl.sh
CHROMIUM=$(bash scripts/ensure-chromium.sh | tail -1)
export N8N_BIN CHROMIUM
if [ ! -f dist/credentials/SurplusLinesApi.credentials.js ]; then
	npx --no-install n8n-node build
fi
npx --no-install tsc -p test/browser/tsconfig.json
node .cache/browser/test/browser/run.js
