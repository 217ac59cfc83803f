#!/usr/bin/env bash
# The reports at scale (docs/performance.md, "Reports"): every metric read from the rollups at
# BENCH_SUBSCRIBERS (1,000,000) purchase chains over the last 400 days, and what counting the
# rollups adds to the drain.
#
#   make bench-reports     # or: Benchmarks/reports.sh [debug|release]
#
# 1. a throwaway cluster and database "reports", migrated; the chains loaded straight into
#    `transactions` (Benchmarks/load-report-history.sql: trials, monthly and yearly plans,
#    churn, four currencies, prorated and full refunds, a tenth in Sandbox), the catalog and
#    exchange rates imported;
# 2. `subscriptionctl reports rebuild`: the rollups counted from nothing (timed);
# 3. subscriptiond started; each metric asked BENCH_REPEATS (20) times over the last 365 days
#    at day intervals, and once more at week and month intervals grouped by product:
#    p50 and p99 per metric, goal p99 < 1 s;
# 4. the drain: BENCH_V2_CUSTOMERS (2,000) appstore-sim customers' signed v2 notifications
#    posted through intake while a session holds the rollup job's lock (the job skips its
#    turns), processed by the worker: CPU per notification of subscriptiond and PostgreSQL;
#    then the lock is released and the job counts what the drain changed: its CPU per
#    notification on top, and the ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
subscribers="${BENCH_SUBSCRIBERS:-1000000}"
repeats="${BENCH_REPEATS:-20}"
v2_customers="${BENCH_V2_CUSTOMERS:-2000}"
. Benchmarks/lib.sh
out=.local/bench-reports
mkdir -p "$out"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    LOCAL_POSTGRES_NAME=postgres-bench Deploy/local/postgres.sh stop >/dev/null 2>&1 || true
    bench_restore_scheduler 2>/dev/null || true
}
trap cleanup EXIT
bench_setup reports "$config"
[ -n "${BENCH_BIN:-}" ] || swift build -c "$config" --scratch-path "${BENCH_SCRATCH:-.build-bench}" --product appstore-sim >/dev/null
q() { psql -qtA "$DATABASE_URL" -c "$1"; }

if [ "$(q "SELECT count(*) FROM report_chains")" = 0 ] || [ "${BENCH_REUSE_DATABASE:-0}" != 1 ]; then
    echo "== loading $subscribers purchase chains"
    start=$(date +%s.%N)
    psql -q -v ON_ERROR_STOP=1 -v count="$subscribers" "$DATABASE_URL" -f Benchmarks/load-report-history.sql
    echo "loaded $(q "SELECT count(*) FROM transactions") transactions in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s"
    "$bin/subscriptionctl" products import Benchmarks/report-catalog.json >/dev/null
    printf 'date,currency,rate\n2025-01-01,EUR,1.08\n2025-01-01,GBP,1.27\n2025-01-01,JPY,0.0066\n2026-06-01,EUR,1.12\n' > "$out/rates.csv"
    "$bin/subscriptionctl" rates import "$out/rates.csv" >/dev/null
    echo "== subscriptionctl reports rebuild"
    start=$(date +%s.%N)
    "$bin/subscriptionctl" reports rebuild
    rebuild_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "rebuild: ${rebuild_s} s"
fi
q "VACUUM ANALYZE report_daily" ; q "VACUUM ANALYZE report_spans"
echo "rollups: $(q "SELECT count(*) FROM report_daily") day sums, $(q "SELECT count(*) FROM report_spans") spans, $(q "SELECT pg_size_pretty(pg_total_relation_size('report_chains') + pg_total_relation_size('report_spans') + pg_total_relation_size('report_daily'))") on disk (transactions: $(q "SELECT pg_size_pretty(pg_total_relation_size('transactions'))"))"

port="$(Deploy/local/free-port.sh 18080 18999)"
"$bin/appstore-sim" ca --state-dir "$out/appstore-sim" --out "$out/sim-root.pem"
echo '{"apps": [{"bundle_id": "com.example.paidapp", "app_apple_id": 1234567891}]}' > "$out/config.json"
SUBSCRIPTIOND_CONFIG="$out/config.json" ADMIN_TOKEN=bench-admin-token-0123456789abcdef \
APPSTORE_BUNDLE_ID=com.example.app APPSTORE_APP_APPLE_ID=1234567890 APPSTORE_ROOT_CERTIFICATES="$out/sim-root.pem" \
    NOTIFICATION_MAX_AGE_DAYS=3650 SUBSCRIPTIOND_PORT=$port LOG_LEVEL=warning DATABASE_POOL_SIZE=16 \
    "$bin/subscriptiond" 2> "$out/subscriptiond.log" &
server=$!
pids+=("$server")
bench_wait_ready "$port"

to=$(date -u +%F)
from=$(date -u -d '-364 days' +%F)
ask() { # prints the seconds one request took; fails on anything but 200
    curl -sf -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer bench-admin-token-0123456789abcdef" \
        "http://127.0.0.1:$port/v1/reports/$1"
}
echo "== result: every metric over $from..$to ($subscribers chains), $repeats times each"
printf '%-22s %8s %8s %8s %8s\n' metric "p50 ms" "p99 ms" "week ms" "month ms"
worst=0
for metric in active_subscriptions active_trials mrr arr new_subscriptions new_trials churn trial_conversion revenue proceeds refund_rate; do
    ask "$metric?from=$from&to=$to" >/dev/null  # warm
    for _ in $(seq 1 "$repeats"); do ask "$metric?from=$from&to=$to&interval=day"; done | sort -n > "$out/$metric.txt"
    week=$(ask "$metric?from=$from&to=$to&interval=week&group_by=product")
    month=$(ask "$metric?from=$from&to=$to&interval=month&group_by=product")
    p50=$(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] * 1000 }' "$out/$metric.txt")
    p99=$(awk '{ a[NR] = $1 } END { i = int(NR * 0.99 + 0.999); print a[i] * 1000 }' "$out/$metric.txt")
    printf '%-22s %8.1f %8.1f %8.1f %8.1f\n' "$metric" "$p50" "$p99" "$(awk -v s="$week" 'BEGIN { print s * 1000 }')" "$(awk -v s="$month" 'BEGIN { print s * 1000 }')"
    worst=$(awk -v a="$worst" -v b="$p99" 'BEGIN { print (b > a ? b : a) }')
done
echo "worst p99: ${worst} ms (goal < 1000)"
curl -sf -H "Authorization: Bearer bench-admin-token-0123456789abcdef" "http://127.0.0.1:$port/v1/reports/mrr?from=$(date -u -d '-6 days' +%F)&to=$to" \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); print("mrr, last 7 days:", [(p["date"], p["value"]) for p in d["points"]], "missing rates:", d["missing_rates"])'

echo "== result, the drain: $v2_customers customers' signed v2 notifications, first with the rollup job held off, then counting"
"$bin/appstore-sim" notifications --state-dir "$out/appstore-sim" --customers "$v2_customers" --notifications-version 2 \
    --seed 23 >"$out/v2-bodies.jsonl"
n=$(wc -l <"$out/v2-bodies.jsonl")
# A session holding the job's lock: every turn of the job finds it taken and skips.
PGAPPNAME=bench-rollup-lock psql -qtA "$DATABASE_URL" -c "SELECT pg_advisory_lock(hashtextextended('report_rollups', 0))" \
    -c "SELECT pg_sleep(3600)" >/dev/null 2>&1 &
holder=$!
pids+=("$holder")
sleep 1
hz=$(getconf CLK_TCK)
s0=$(bench_ticks "$server"); p0=$(bench_ticks $(bench_postgres_pids))
python3 Benchmarks/post-notifications.py "http://127.0.0.1:$port/notifications/appstore" 16 < "$out/v2-bodies.jsonl"
for _ in $(seq 1 1200); do
    [ "$(q "SELECT EXISTS (SELECT 1 FROM notifications WHERE state IN ('pending', 'retrying'))")" = f ] && break
    sleep 0.5
done
s1=$(bench_ticks "$server"); p1=$(bench_ticks $(bench_postgres_pids))
processed=$(q "SELECT count(*) FROM notifications WHERE state = 'processed'")
queued=$(q "SELECT count(*) FROM report_changes")
# Ending the client alone would leave its backend asleep, holding the lock.
q "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bench-rollup-lock'" >/dev/null
wait "$holder" 2>/dev/null || true
for _ in $(seq 1 1200); do
    [ "$(q "SELECT EXISTS (SELECT 1 FROM report_changes)")" = f ] && break
    sleep 0.5
done
s2=$(bench_ticks "$server"); p2=$(bench_ticks $(bench_postgres_pids))
awk -v n="$processed" -v q="$queued" -v hz="$hz" -v a=$((s1 - s0 + p1 - p0)) -v b=$((s2 - s1 + p2 - p1)) 'BEGIN {
    drain = a / hz * 1e6 / n; count = b / hz * 1e6 / n
    printf "drain without counting: %d notifications, %.0f µs of CPU each (subscriptiond and PostgreSQL)\n", n, drain
    printf "counting their %d changed chains afterwards: %.0f µs per notification on top\n", q, count
    printf "CPU per notification with the rollups / without: %.2f\n", (drain + count) / drain }'
