#!/usr/bin/env bash
# npm run bench: the package in a real n8n (the current one; N8N_TARGET=oldest for 2.8.4, see
# scripts/ensure-n8n.sh) against n8n's HTTP Request node (inN8n.ts), then
# the in-process faults bench (faults.ts: exactly-once under lost replies and 500s, which the
# real run does not inject), then the watch list at 1,000 open invoices (watchList.ts). Prints
# figures; asserts nothing. BENCH_ONLY=reads,creates,window,createMany, or BENCH_ONLY=watch.
set -euo pipefail
cd "$(dirname "$0")/../.."

N8N_BIN=$(bash scripts/ensure-n8n.sh | tail -1)
export N8N_BIN
npx --no-install n8n-node build >/dev/null
npx --no-install tsc -p scripts/bench/tsconfig.json
if [ "${BENCH_ONLY:-}" != watch ]; then
	node .cache/bench/scripts/bench/inN8n.js
fi
if [ -z "${BENCH_ONLY:-}" ]; then
	echo
	node .cache/bench/scripts/bench/faults.js
fi
# The watch list at 1,000 open invoices (watchList.ts, about 10 minutes): BENCH_ONLY=watch alone.
if [ -z "${BENCH_ONLY:-}" ] || [ "${BENCH_ONLY}" = watch ]; then
	echo
	node .cache/bench/scripts/bench/watchList.js
fi
