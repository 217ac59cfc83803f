#!/usr/bin/env bash
# The Get Retention Message endpoint (POST /retention/appstore) at BENCH_USERS (default
# 100,000) subscribers, at the App Store's concurrency and beyond (BENCH_RETENTION_CONNECTIONS,
# default "10 64"), beside GET /health/live measured at the same concurrency in the same run.
#
#   make bench-retention       # or: Benchmarks/retention.sh [debug|release]
#   BENCH_SECONDS=10 BENCH_RETENTION_CONNECTIONS="10" Benchmarks/retention.sh
#
# 1. loads the subscribers with Benchmarks/load-subscribers.sql and the demo catalog;
# 2. signs BENCH_RETENTION_BODIES (default 20,000) requests with appstore-sim's PKI
#    (`appstore-sim realtime-requests`): the main subscriptions of the loaded users that
#    load-subscribers.sql puts in the Sandbox (every fifth), signed now;
# 3. starts subscriptiond trusting that root, with retention rules of every kind (an
#    alternate plan for billing retry, a signed promotional offer for customers still eligible
#    for the news trial, a message for everyone else) and an In-App Purchase key made here;
# 4. per concurrency: wrk on GET /health/live (H), then on POST /retention/appstore;
# 5. one line per concurrency: rate, p50, p99, non-2xx, the share of answers that were
#    Apple's default because they missed the 250 ms deadline or failed, and rate / H.
# Goal (issue 42): p99 under 50 ms at the App Store's concurrency, no non-2xx, no late answer.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
seconds="${BENCH_SECONDS:-15}"
users="${BENCH_USERS:-100000}"
connections="${BENCH_RETENTION_CONNECTIONS:-10 64}"
count="${BENCH_RETENTION_BODIES:-20000}"
out="${BENCH_OUT:-.local/bench-retention}"
. Benchmarks/lib.sh
trap bench_restore_scheduler EXIT
bench_setup bench_retention "$config"
swift build -c "$config" --scratch-path "${BENCH_SCRATCH:-.build-bench}" --product appstore-sim >/dev/null
mkdir -p "$out"
rm -rf "$out/sim"

loaded=$(psql -qtA "$DATABASE_URL" -c "SELECT count(*) = 1 FROM subscribers WHERE app_user_id IN ('bench-user-$users', 'bench-user-$((users + 1))')")
if [ "$loaded" != t ]; then
    psql -q "$DATABASE_URL" -c "TRUNCATE transactions, renewal_info, subscriptions, subscribers, status_events, entitlement_grants"
    "$bin/subscriptionctl" products import Deploy/local/demo-catalog.json >/dev/null
    start=$(date +%s)
    psql -q "$DATABASE_URL" -v count="$users" -f Benchmarks/load-subscribers.sql
    echo "loaded $users subscribers in $(( $(date +%s) - start ))s"
fi
psql -q "$DATABASE_URL" -c "TRUNCATE retention_answers"

# The App Store's signing chain (appstore-sim's), and an In-App Purchase key for the offers.
"$bin/appstore-sim" ca --state-dir "$out/sim" --out "$out/root.pem"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/key.p8" 2>/dev/null
chmod 600 "$out/key.p8"
cat > "$out/config.json" <<JSON
{"apps": [{"bundle_id": "com.example.app", "app_apple_id": 1234,
  "issuer_id": "bench-issuer", "key_id": "BENCHKEY01", "private_key_file": "$root/$out/key.p8",
  "retention": [
    {"match": {"status": "billing_retry"},
     "alternate_product": {"message_identifier": "11111111-1111-4111-8111-111111111111", "product_id": "com.example.pro.yearly"}},
    {"match": {"eligibility": {"com.example.news.weekly": "eligible"}},
     "promotional_offer": {"message_identifier": "22222222-2222-4222-8222-222222222222", "product_id": "com.example.pro.monthly", "offer_id": "stay50"}},
    {"message": {"message_identifier": "33333333-3333-4333-8333-333333333333"}}
  ]}]}
JSON
# User n is loaded in the Sandbox when n % 5 == 0: main subscriptions 7000000000000005, ...10, ...
start=$(date +%s)
sandbox=$(( users / 5 ))
"$bin/appstore-sim" realtime-requests --state-dir "$out/sim" --count "$count" --first-id 7000000000000005 --step 5 \
    --distinct "$(( sandbox < count ? sandbox : count ))" --environment Sandbox --app-apple-id 1234 --out "$out/bodies.jsonl"
echo "signed $count requests in $(( $(date +%s) - start ))s"

port="$(Deploy/local/free-port.sh 19080 19999)"
SUBSCRIPTIOND_CONFIG="$root/$out/config.json" APPSTORE_ROOT_CERTIFICATES="$root/$out/root.pem" WORKER_CONCURRENCY=0 \
    SUBSCRIPTIOND_PORT=$port LOG_LEVEL=error DATABASE_POOL_SIZE=16 "$bin/subscriptiond" &
server=$!
trap 'kill $server 2>/dev/null || true; Deploy/local/postgres.sh stop; bench_restore_scheduler' EXIT
bench_wait_ready "$port"
url="http://127.0.0.1:$port"
echo "== sample answers"
for line in 1 2 5; do
    sed -n "${line}p" "$out/bodies.jsonl" | curl -s -H 'Content-Type: application/json' --data-binary @- "$url/retention/appstore" | cut -c1-160
    echo
done

field() { sed -n "s/.* $2=\([0-9.]*\).*/\1/p" "$out/wrk-$1.txt"; }
echo "== warm-up (not counted)"
RETENTION_BODIES="$out/bodies.jsonl" wrk -t2 -c10 -d3s -s Benchmarks/retention.lua "$url" >/dev/null
for c in $connections; do
    echo "== H: wrk -t2 -c$c -d${seconds}s GET /health/live"
    bench_cpu_run "$out/cpu-health-$c.txt" "$server" \
        wrk -t2 -c"$c" -d"${seconds}s" --latency -s Benchmarks/reads.lua "$url/health/live" > "$out/wrk-health-$c.txt"
    grep '^BENCH' "$out/wrk-health-$c.txt"
    psql -q "$DATABASE_URL" -c "TRUNCATE retention_answers"
    echo "== wrk -t2 -c$c -d${seconds}s POST /retention/appstore ($config build, $users subscribers)"
    RETENTION_BODIES="$out/bodies.jsonl" bench_cpu_run "$out/cpu-retention-$c.txt" "$server" \
        wrk -t2 -c"$c" -d"${seconds}s" --latency -s Benchmarks/retention.lua "$url" > "$out/wrk-retention-$c.txt"
    grep '^BENCH' "$out/wrk-retention-$c.txt"
    sleep 1  # the recorder's last batch
    psql -qtA "$DATABASE_URL" -c "SELECT answer || '/' || reason || ': ' || n FROM (
        SELECT answer, reason, count(*) AS n FROM retention_answers GROUP BY answer, reason) AS a ORDER BY 1" \
        > "$out/answers-$c.txt"
    sed 's/^/  recorded /' "$out/answers-$c.txt"
done

echo "== result ($users subscribers, $config build)"
for c in $connections; do
    health=$(field "health-$c" rps) rate=$(field "retention-$c" rps) p50=$(field "retention-$c" p50_ms) p99=$(field "retention-$c" p99_ms)
    errors=$(( $(field "retention-$c" non2xx) + $(field "retention-$c" socket_errors) ))
    late=$(awk -F': ' '$1 ~ /\/(deadline|failed)$/ { s += $2 } END { print s + 0 }' "$out/answers-$c.txt")
    met="met"; awk -v p99="$p99" -v e="$errors" -v l="$late" 'BEGIN { exit !(p99 < 50 && e == 0 && l == 0) }' || met="not met"
    awk -v c="$c" -v rate="$rate" -v p50="$p50" -v p99="$p99" -v errors="$errors" -v late="$late" -v health="$health" -v met="$met" 'BEGIN {
        printf "retention c=%d: %.0f/s p50 %.2f ms p99 %.2f ms, %d non-2xx, %d late or failed (Apple default), %.2f of H (%.0f/s); p99 < 50 ms goal %s\n",
            c, rate, p50, p99, errors, late, rate / health, health, met }'
done
echo "== result, CPU per request (subscriptiond, the bench cluster, wrk)"
for c in $connections; do
    echo "c=$c: $(bench_cpu_per_request "$out/cpu-retention-$c.txt" "$(field "retention-$c" requests)" subscriptiond wrk)"
done
