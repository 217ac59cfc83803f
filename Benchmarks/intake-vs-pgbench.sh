#!/usr/bin/env bash
# Intake throughput against PostgreSQL's own single-row insert rate, in one run, on one machine.
#
#   make bench            # or: Benchmarks/intake-vs-pgbench.sh [debug|release]
#
# 1. a throwaway cluster (.local/postgres-bench), database "bench", migrated;
# 2. subscriptiond (intake only: WORKER_CONCURRENCY=0) and wrk, 32 connections, distinct bodies;
# 3. pgbench, 32 clients, a single-row INSERT of the same JSON into a table with a unique key;
# 4. the ratio of the two rates. Timings only mean something next to the baseline of the same run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
seconds="${BENCH_SECONDS:-10}"
. Benchmarks/lib.sh
bench_setup bench "$config"

port="$(Deploy/local/free-port.sh 18080 18999)"
APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET=bench-shared-secret WORKER_CONCURRENCY=0 \
    SUBSCRIPTIOND_PORT=$port LOG_LEVEL=warning DATABASE_POOL_SIZE=32 "$bin/subscriptiond" &
server=$!
trap 'kill $server 2>/dev/null || true; Deploy/local/postgres.sh stop' EXIT
bench_wait_ready "$port"

echo "== intake: wrk -t2 -c32 -d${seconds}s ($config build)"
wrk -t2 -c32 -d"${seconds}s" --latency -s Benchmarks/intake.lua "http://127.0.0.1:$port/notifications/appstore" | tee /tmp/bench-wrk.txt
stored=$(psql -qtA "$DATABASE_URL" -c "SELECT count(*) FROM notifications")
kill $server; wait $server 2>/dev/null || true

echo "== baseline: pgbench -c32 -j2 -T${seconds} single-row insert"
psql -q "$DATABASE_URL" -c "CREATE TABLE bench_inbox (id bigserial PRIMARY KEY, dedupe_key text NOT NULL UNIQUE, body jsonb NOT NULL, received_at timestamptz NOT NULL DEFAULT now())"
pgbench -n -c 32 -j 2 -T "$seconds" -f Benchmarks/pgbench-insert.sql "$DATABASE_URL" | tee /tmp/bench-pgbench.txt

intake=$(sed -n 's/.*intake_rps=\([0-9.]*\).*/\1/p' /tmp/bench-wrk.txt)
p99=$(sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p' /tmp/bench-wrk.txt)
baseline=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' /tmp/bench-pgbench.txt | head -n 1)
echo "== result"
echo "intake ${intake} notifications/s (p99 ${p99} ms, ${stored} rows stored) vs pgbench ${baseline} inserts/s: ratio $(awk "BEGIN { printf \"%.2f\", $intake / $baseline }")"
