#!/usr/bin/env bash
# p99 latency of POST /v1/eligibility with BENCH_USERS (default 100,000) subscribers loaded.
#
#   make bench-eligibility     # or: Benchmarks/eligibility-latency.sh [debug|release]
#
# Loads the subscribers with Benchmarks/load-subscribers.sql (straight into the tables the
# pipeline writes), imports the demo catalog, runs subscriptiond (intake/API only), then wrk
# with 16 connections asking about four products for random users.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
seconds="${BENCH_SECONDS:-15}"
users="${BENCH_USERS:-100000}"
export BENCH_USERS="$users" BENCH_TOKEN="bench-admin-token-0123456789"
. Benchmarks/lib.sh
bench_setup bench_eligibility "$config"
"$bin/subscriptionctl" products import Deploy/local/demo-catalog.json
start=$(date +%s)
psql -q "$DATABASE_URL" -v count="$users" -f Benchmarks/load-subscribers.sql
echo "loaded $users subscribers ($(psql -qtA "$DATABASE_URL" -c "SELECT count(*) FROM transactions") transactions) in $(( $(date +%s) - start ))s"

port="$(Deploy/local/free-port.sh 19080 19999)"
APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET=bench-shared-secret ADMIN_TOKEN="$BENCH_TOKEN" WORKER_CONCURRENCY=0 \
    SUBSCRIPTIOND_PORT=$port LOG_LEVEL=warning DATABASE_POOL_SIZE=16 "$bin/subscriptiond" &
server=$!
trap 'kill $server 2>/dev/null || true; Deploy/local/postgres.sh stop' EXIT
bench_wait_ready "$port"

echo "== sample answers"
# bench-user-3 used a trial (ineligible), -4 lapsed without one (eligible), -5 is subscribed now (ineligible).
for user in 3 4 5; do
    curl -s -H "Authorization: Bearer $BENCH_TOKEN" -H 'Content-Type: application/json' "http://127.0.0.1:$port/v1/eligibility" \
        -d "{\"app_user_id\":\"bench-user-$user\",\"product_ids\":[\"com.example.pro.monthly\",\"com.example.news.weekly\"]}"
    echo
done
echo "== wrk -t2 -c16 -d${seconds}s POST /v1/eligibility ($config build, $users subscribers)"
wrk -t2 -c16 -d"${seconds}s" --latency -s Benchmarks/eligibility.lua "http://127.0.0.1:$port/v1/eligibility"
