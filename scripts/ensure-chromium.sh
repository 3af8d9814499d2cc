#!/usr/bin/env bash
# Debian's Chromium for the browser test (test/browser), installed when missing. Playwright's own
# browser downloads are not used: the browser comes from the distribution's packages.
# Prints the browser's path as the last line of output.
set -euo pipefail

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "${CHROMIUM}" ]; then
	echo "[chromium] ${CHROMIUM} missing: installing Debian's chromium package" >&2
	if [ "$(id -u)" -eq 0 ]; then
		as_root=()
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		as_root=(sudo)
	else
		echo "[chromium] installing needs root: sudo apt-get install -y chromium" >&2
		exit 1
	fi
	"${as_root[@]}" apt-get update >&2
	"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >&2
fi
echo "${CHROMIUM}"
