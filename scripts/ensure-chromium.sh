#!/usr/bin/env bash
# Debian's Chromium for the browser test (test/browser), installed when missing. Playwright's own
# browser downloads are not used: the browser comes from the distribution's packages.
# Prints the browser's path as the last line of output.
set -euo pipefail

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "${CHROMIUM}" ]; then
	echo "[chromium] ${CHROMIUM} missing: installing Debian's chromium package" >&2
	if [ "$(id -u)" -ne 0 ]; then
		echo "[chromium] installing needs root (apt-get install -y chromium)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update >&2
	apt-get install -y --no-install-recommends chromium >&2
fi
echo "${CHROMIUM}"
