#!/usr/bin/env bash
# Installs the n8n runtime the end-to-end tests and the demo run, when it is missing.
#
# n8n is not a dependency of the package: it is 2+ GB and takes minutes to install, so it lives in
# a cache folder outside the checkout and is installed once per machine. 2.8.4 is pinned: it is
# the newest n8n that installs and runs on Node 20 from the npm registry alone.
#
# Every n8n version depends on `xlsx` from a URL outside the registry; the override below takes
# the registry's 0.18.5 instead. `npm ci` fails on an optional platform package, so this uses
# `npm install` of the exact version.
#
# Idempotent: a marker file is written only after a complete install and a check that the binary
# starts; an interrupted install is redone from a clean folder.
#
# Prints the folder's bin path as the last line of output (for callers: `N8N_BIN=$(... | tail -1)`).
set -euo pipefail

N8N_VERSION="2.8.4"
RUNTIME_DIR="${N8N_RUNTIME_DIR:-${HOME:-/tmp}/.cache/n8n-nodes-surplus-lines/n8n-${N8N_VERSION}}"
MARKER="${RUNTIME_DIR}/.install-complete"
BIN="${RUNTIME_DIR}/node_modules/.bin/n8n"

log() { echo "[ensure-n8n] $*" >&2; }

# n8n 2.8.4 declares engines ">=20.19 <=24.x".
node_version=$(node -p 'process.versions.node')
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit((a===20&&b>=19)||(a>20&&a<=24)?0:1)'; then
	log "Node ${node_version} cannot run n8n ${N8N_VERSION} (it needs >= 20.19 and <= 24.x)"
	exit 1
fi

# One install at a time (two test runs started together would otherwise both install).
mkdir -p "$(dirname "${RUNTIME_DIR}")"
exec 9>"${RUNTIME_DIR}.lock"
flock 9

if [ -f "${MARKER}" ] && [ -x "${BIN}" ]; then
	log "n8n ${N8N_VERSION} already installed in ${RUNTIME_DIR}"
	echo "${BIN}"
	exit 0
fi

start=$(date +%s)
log "installing n8n ${N8N_VERSION} into ${RUNTIME_DIR} (about 5 minutes and 2+ GB the first time)"

# A folder without the marker is an interrupted or failed install: start it again from nothing.
if [ -d "${RUNTIME_DIR}" ]; then
	log "removing an incomplete install"
	rm -rf "${RUNTIME_DIR}"
fi
mkdir -p "${RUNTIME_DIR}"

cat >"${RUNTIME_DIR}/package.json" <<EOF
{
  "name": "n8n-runtime-for-n8n-nodes-surplus-lines",
  "private": true,
  "description": "n8n runtime used by the end-to-end tests and the demo of n8n-nodes-surplus-lines",
  "dependencies": {
    "n8n": "${N8N_VERSION}"
  },
  "overrides": {
    "xlsx": "0.18.5"
  }
}
EOF

# npm_config_yes: some dependency scripts run npx, and this machine's npm config says yes=false.
(
	cd "${RUNTIME_DIR}"
	npm_config_yes=true npm install --no-audit --no-fund --loglevel=error --save-exact "n8n@${N8N_VERSION}" >&2
)

if ! "${BIN}" --version >/dev/null 2>&1; then
	log "n8n was installed but does not start: ${BIN} --version failed"
	exit 1
fi

version=$("${BIN}" --version 2>/dev/null | tail -1)
date -u +%Y-%m-%dT%H:%M:%SZ >"${MARKER}"
log "n8n ${version} installed in $(($(date +%s) - start)) s ($(du -sh "${RUNTIME_DIR}" 2>/dev/null | cut -f1))"
echo "${BIN}"
