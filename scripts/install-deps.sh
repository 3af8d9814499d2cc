#!/usr/bin/env bash
# Installs the project's locked dev dependencies with `npm ci` when they are missing (or always
# with --force, as CI does).
# @n8n/node-cli needs both settings: a dependency's preinstall runs `npx only-allow pnpm` (this
# machine's npm config says yes=false), and isolated-vm would compile for Node 24. No package here
# needs an install script. The lockfile carries every optional platform binding of unrs-resolver,
# including those this registry does not serve (scripts/lock-optional-bindings.js adds them after
# an `npm install`), which is what lets `npm ci` accept it.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--force" ] && [ -x node_modules/.bin/n8n-node ] && [ -d node_modules/n8n-core ]; then
	exit 0
fi
start=$(date +%s)
echo "[deps] installing the locked dev dependencies (npm ci)"
npm_config_yes=true npm ci --ignore-scripts --no-audit --no-fund
echo "[deps] installed in $(($(date +%s) - start)) s"
