#!/usr/bin/env bash
# Installs the project's locked dev dependencies when they are missing (or always with --force).
# @n8n/node-cli needs both settings: a dependency's preinstall runs `npx only-allow pnpm` (this
# machine's npm config says yes=false), and isolated-vm would compile for Node 24. No package here
# needs an install script. `npm ci` refuses this lockfile (npm 11 drops unresolved optional
# platform bindings of @unrs/resolver, then calls the lock out of sync); `npm install` takes the
# locked versions.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--force" ] && [ -x node_modules/.bin/n8n-node ] && [ -d node_modules/n8n-core ]; then
	exit 0
fi
start=$(date +%s)
echo "[deps] installing the locked dev dependencies"
npm_config_yes=true npm install --ignore-scripts --no-audit --no-fund
echo "[deps] installed in $(($(date +%s) - start)) s"
