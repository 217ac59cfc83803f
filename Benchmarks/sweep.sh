#!/usr/bin/env bash
# Time moves status (docs/lifecycle-events.md): 10,000 subscriptions end at the same moment
# with no notification, while intake takes signed v2 notifications that the worker processes.
#
#   make bench-sweep     # or: Benchmarks/sweep.sh [debug|release]
#
# 1. a throwaway cluster and database "sweep", migrated; BENCH_EXPIRING (10000) subscribers
#    whose subscription ends in an hour (Benchmarks/load-expiring.sql);
# 2. subscriptiond with its worker, status sweep and entitlement reviews (every 10 s, as shipped);
#    signed v2 bodies made by appstore-sim, whose root it trusts;
# 3. baseline: wrk -t2 -c32 for BENCH_SECONDS (20) with nothing due, then the worker drains;
#    events are written (WEBHOOK_URL is set) but the URL refuses connections, so delivering
#    them costs a refused connect each;
# 4. the same with every one of those subscriptions' ends moved to the same moment just
#    before it starts; the sweep's backlog (subscriptions and entitlement reviews due) is
#    sampled every 0.5 s until it is empty.
# The result: how long the backlog took to drain and at what rate (the sweep's bound is 200
# subscriptions and 200 reviews per 100 ms), whether every subscription moved once with one
# `expired` and one `entitlement_changed` each, and intake's p99 and rate during the drain
# as ratios to the baseline of the same run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
seconds="${BENCH_SECONDS:-20}"
expiring="${BENCH_EXPIRING:-10000}"
v2_customers="${BENCH_V2_CUSTOMERS:-16000}"
. Benchmarks/lib.sh
trap bench_restore_scheduler EXIT
bench_setup sweep "$config"
swift build -c "$config" --scratch-path "${BENCH_SCRATCH:-.build-bench}" --product appstore-sim >/dev/null
out=.local/bench-sweep
mkdir -p "$out"

"$bin/appstore-sim" ca --state-dir "$out/appstore-sim" --out "$out/sim-root.pem"
"$bin/appstore-sim" notifications --state-dir "$out/appstore-sim" --customers "$v2_customers" --notifications-version 2 \
    --seed 21 >"$out/v2-bodies.jsonl"
echo "== $(wc -l <"$out/v2-bodies.jsonl") distinct signed v2 bodies"
echo "== loading $expiring subscribers whose subscription ends in an hour"
psql -q -v ON_ERROR_STOP=1 -v count="$expiring" "$DATABASE_URL" -f Benchmarks/load-expiring.sql

port="$(Deploy/local/free-port.sh 18080 18999)"
# The simulator's customers buy from both of its apps: both are configured.
echo '{"apps": [{"bundle_id": "com.example.paidapp", "app_apple_id": 1234567891}]}' > "$out/config.json"
SUBSCRIPTIOND_CONFIG="$out/config.json" \
APPSTORE_BUNDLE_ID=com.example.app APPSTORE_APP_APPLE_ID=1234567890 APPSTORE_ROOT_CERTIFICATES="$out/sim-root.pem" \
    NOTIFICATION_MAX_AGE_DAYS=3650 SUBSCRIPTIOND_PORT=$port LOG_LEVEL=warning DATABASE_POOL_SIZE=32 \
    WEBHOOK_URL="http://127.0.0.1:9/hooks" WEBHOOK_SECRET=bench-webhook-secret-0123456789abcdef \
    "$bin/subscriptiond" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; Deploy/local/postgres.sh stop; bench_restore_scheduler' EXIT
bench_wait_ready "$port"

q() { psql -qtA "$DATABASE_URL" -c "$1"; }
wait_drained() { # the worker has processed what intake stored
    for _ in $(seq 1 600); do
        [ "$(q "SELECT count(*) FROM notifications WHERE state = 'pending' OR (state = 'retrying' AND next_attempt_at <= now())")" = 0 ] && return 0
        sleep 0.5
    done
    echo "benchmark: the worker did not drain the inbox in 5 minutes" >&2
    return 1
}
# run_wrk NAME OFFSET [SETUP]: a 3 s warm-up, the worker drains, SETUP runs, then the measured
# run; the baseline's bodies start at 0, the other run's at OFFSET of the file (warm-ups near
# its end), so no run resends another's notifications (a duplicate is cheaper to take).
run_wrk() {
    echo "== intake $1: wrk -t2 -c32 -d${seconds}s ($config build, after a 3 s warm-up)"
    BENCH_THREADS=2 BENCH_BODIES="$out/v2-bodies.jsonl" BENCH_OFFSET=$(awk "BEGIN { print 0.9 + $2 / 10 }") \
        wrk -t2 -c32 -d3s -s Benchmarks/intake-bodies.lua "http://127.0.0.1:$port/notifications/appstore" >/dev/null
    wait_drained
    [ -z "${3:-}" ] || eval "$3"
    BENCH_THREADS=2 BENCH_BODIES="$out/v2-bodies.jsonl" BENCH_OFFSET="$2" \
        wrk -t2 -c32 -d"${seconds}s" --latency -s Benchmarks/intake-bodies.lua "http://127.0.0.1:$port/notifications/appstore" > "$out/$1.txt"
    cat "$out/$1.txt"
}
field() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" "$out/$1.txt"; }

run_wrk baseline 0
wait_drained

# Every end moves to the same moment, a second ago; the sampler records the backlog.
expire_all() {
    q "BEGIN;
       UPDATE transactions SET expires_date = now() - interval '1 second' WHERE original_transaction_id LIKE '6%' AND product_id = 'com.example.pro.monthly' AND transaction_id = original_transaction_id AND expires_date > now();
       UPDATE subscriptions SET expires_at = now() - interval '1 second', due_at = now() - interval '1 second' WHERE original_transaction_id LIKE '6%' AND status = 'active' AND due_at > now();
       UPDATE entitlement_reviews SET due_at = now() - interval '1 second' WHERE app_user_id LIKE 'expiring-user-%';
       COMMIT;" >/dev/null
    moved_at=$(date +%s.%N)
    ( while :; do
        echo "$(date +%s.%N) $(q "SELECT (SELECT count(*) FROM subscriptions WHERE due_at <= now()) + (SELECT count(*) FROM entitlement_reviews WHERE due_at <= now())")"
        sleep 0.5
      done ) > "$out/backlog.txt" &
    sampler=$!
}
run_wrk during-sweep 0.45 expire_all
for _ in $(seq 1 240); do
    [ "$(tail -n 1 "$out/backlog.txt" | cut -d' ' -f2)" = 0 ] && break
    sleep 0.5
done
kill "$sampler" 2>/dev/null || true
drained_at=$(awk '$2 == 0 { print $1; exit }' "$out/backlog.txt")
expired=$(q "SELECT count(*) FROM webhook_events WHERE type = 'expired' AND original_transaction_id LIKE '6%'")
distinct=$(q "SELECT count(DISTINCT original_transaction_id) FROM webhook_events WHERE type = 'expired' AND original_transaction_id LIKE '6%'")
ended=$(q "SELECT count(*) FROM webhook_events WHERE type = 'entitlement_changed' AND app_user_id LIKE 'expiring-user-%' AND entitlement->>'active' = 'false'")
stored=$(q "SELECT count(*) FROM subscriptions WHERE original_transaction_id LIKE '6%' AND status = 'expired'")
ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }

echo "== result ($expiring subscriptions ending at the same moment, $config build)"
if [ -n "$drained_at" ]; then
    took=$(awk "BEGIN { printf \"%.1f\", $drained_at - $moved_at }")
    echo "sweep drained $expiring subscriptions and $expiring entitlement reviews in ${took} s ($(awk "BEGIN { printf \"%.0f\", 2 * $expiring / $took }") per second; bound 4000/s); peak backlog $(sort -k2 -n "$out/backlog.txt" | tail -n 1 | cut -d' ' -f2)"
else
    echo "sweep did not drain within 2 minutes after the measurement: backlog $(tail -n 1 "$out/backlog.txt" | cut -d' ' -f2)"
fi
echo "stored expired: $stored; expired events: $expired ($distinct subscriptions); entitlement_changed (ended): $ended"
echo "intake during the sweep $(field during-sweep intake_rps) notifications/s (p99 $(field during-sweep p99_ms) ms, non-2xx $(field during-sweep non2xx)) vs baseline $(field baseline intake_rps)/s (p99 $(field baseline p99_ms) ms, non-2xx $(field baseline non2xx)): rate ratio $(ratio "$(field during-sweep intake_rps)" "$(field baseline intake_rps)"), p99 ratio $(ratio "$(field during-sweep p99_ms)" "$(field baseline p99_ms)")"
