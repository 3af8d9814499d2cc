#!/usr/bin/env bash
# Debian's openssl command, installed when missing: the Slack stand-in's local HTTPS proxy
# (test/e2e/tlsProxy.ts) makes its throwaway CA and slack.com certificate with it.
set -euo pipefail

if ! command -v openssl >/dev/null 2>&1; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "[openssl] missing; installing needs root: sudo apt-get install -y openssl" >&2
		exit 1
	fi
	echo "[openssl] missing: installing Debian's openssl package" >&2
	apt-get update >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends openssl >&2
fi
