#!/usr/bin/env bash
# RSS of subscriptiond while 64 connections hold 4 MiB intake uploads open, half sent
# (issue 37, item 5; INTAKE_MAX_INFLIGHT_BYTES). Extra arguments go to held-uploads.py
# (--connections, --declared, --sent). BENCH_BIN=DIR measures the binaries in DIR (e.g. a
# build of another commit) instead of building release ones.
#   Benchmarks/held-uploads.sh                      # this checkout, release
#   BENCH_BIN=.build/debug Benchmarks/held-uploads.sh --sent 1048576
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/lib.sh
trap 'bench_restore_scheduler; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; rm -f "${log:-}"' EXIT
export APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET=bench-shared-secret-0123456789
bench_setup bench_held_uploads release
log=$(mktemp)
SUBSCRIPTIOND_SCHEMA_DIR="$PWD/Schema" SUBSCRIPTIOND_PORT=0 WORKER_CONCURRENCY=0 HTTP_REQUEST_TIMEOUT_MS=60000 \
    HTTP_MAX_CONNECTIONS_PER_ADDRESS=0 VERIFY_RECEIPT_URL=http://127.0.0.1:9/v VERIFY_RECEIPT_SANDBOX_URL=http://127.0.0.1:9/s \
    "$bin/subscriptiond" 2>"$log" >/dev/null &
pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$log" | cut -d: -f2 || true)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat "$log" >&2; exit 1; }
# One 4 MiB body first (refused: no such secret), so the baseline has the intake path warm.
python3 -c 'import json,sys; sys.stdout.write(json.dumps({"password":"wrong","latest_receipt":"A"*(4*1024*1024-4096)}))' |
    curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary @- "http://127.0.0.1:$port/notifications/appstore"
sleep 0.5
Benchmarks/held-uploads.py --pid "$pid" --port "$port" "$@"
