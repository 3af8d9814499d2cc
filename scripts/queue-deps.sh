#!/usr/bin/env bash
# Installs Redis and PostgreSQL from Debian's packages when they are missing, for the queue-mode
# stage (scripts/queue.sh). The stage runs its own Redis and Postgres as plain processes on
# loopback with their data in a temporary folder; it never starts or uses the system services.
#
# Prints the PostgreSQL bin folder (initdb, pg_ctl) as the last line of output.
set -euo pipefail

log() { echo "[queue-deps] $*" >&2; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

if ! command -v redis-server >/dev/null 2>&1 || [ -z "$(pg_bin)" ] || ! command -v psql >/dev/null 2>&1; then
	start=$(date +%s)
	log "installing redis-server and postgresql from Debian's packages"
	if [ "$(id -u)" -eq 0 ]; then
		as_root=()
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		as_root=(sudo)
	else
		log "redis-server and postgresql are missing and this user cannot install packages:"
		log "  sudo apt-get update && sudo apt-get install -y redis-server postgresql"
		exit 1
	fi
	"${as_root[@]}" apt-get update -q >&2
	"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q redis-server postgresql >&2
	log "installed in $(($(date +%s) - start)) s"
fi

dir=$(pg_bin)
if [ ! -x "${dir}/initdb" ] || [ ! -x "${dir}/pg_ctl" ]; then
	log "no initdb/pg_ctl under /usr/lib/postgresql/*/bin after the install"
	exit 1
fi
log "$(redis-server --version | cut -d' ' -f1-3), PostgreSQL $("${dir}/pg_ctl" --version | awk '{print $3}')"
echo "${dir}"
