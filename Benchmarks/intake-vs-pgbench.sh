#!/usr/bin/env bash
# Intake throughput against PostgreSQL's own single-row insert rate, in one run, on one machine.
#
#   make bench-intake     # or: Benchmarks/intake-vs-pgbench.sh [debug|release]
#
# 1. a throwaway cluster (.local/postgres-bench, fsync and synchronous_commit on), database
#    "bench", migrated;
# 2. subscriptiond (intake only: WORKER_CONCURRENCY=0) and wrk, 32 connections, distinct bodies:
#    v1 bodies (made up by the wrk script), then signed v2 bodies (made ahead of time by
#    appstore-sim, whose root subscriptiond trusts; every one verified at intake);
# 3. pgbench, 32 clients, a single-row INSERT of the same JSON into a table with a unique key;
# 4. 1,000,000 processed notifications loaded into the inbox, and v1 intake again;
# 5. H, the same subscriptiond's bodyless GET /health/live (wrk, the same 32 connections), and
#    E, P-256 verifications per second on one core (`openssl speed ecdsap256`, the fastest
#    implementation on the machine);
# 6. unless BENCH_SIM_RUN=0: v1 bodies appstore-sim made for BENCH_V1_CUSTOMERS (90,000)
#    customers, about 2.5 kB each with their unified receipt, on an emptied inbox: distinct
#    notifications, and the same rewritten to name one original transaction, each with
#    subscriptiond's default settings (pool of 20, LOG_LEVEL=info) and with the tuned ones
#    (pool of 32, LOG_LEVEL=warning);
# 7. unless BENCH_WORKER_RUN=0: step 6's distinct bodies, whose receipts appstore-sim answers
#    at verifyReceipt at once, taken with the worker off on an emptied inbox; then, with those
#    tens of thousands waiting, the worker on and draining them (WORKER_CONCURRENCY=BENCH_WORKER_CONCURRENCY, 64; WORKER_YIELD_LATENCY_MS as configured,
#    default 5: claim, verifyReceipt, apply, outcome) while intake takes step 2's load again;
# then each intake against the ceilings of issue 27: v1 against C = 1/(1/H + 1/P) (an HTTP
# request and a durable insert, P = pgbench), v2 against C2 = 1/(1/H + 1/P + 3/E) (three
# signatures at least per signed notification); and the CPU each notification cost
# subscriptiond, PostgreSQL and the load generator, next to what one pgbench insert cost.
# Timings only mean something next to the baseline of the same run.
#   BENCH_SECONDS (10), BENCH_PRELOAD_ROWS (1000000, 0 skips step 4), BENCH_V2_CUSTOMERS (12000),
#   BENCH_PROFILE (0; 1: perf record of every process during each intake run),
#   BENCH_SIM_RUN (1), BENCH_WORKER_RUN (1), BENCH_WORKER_CONCURRENCY (64), BENCH_V1_CUSTOMERS (90000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
seconds="${BENCH_SECONDS:-10}"
preload_rows="${BENCH_PRELOAD_ROWS:-1000000}"
v2_customers="${BENCH_V2_CUSTOMERS:-12000}"
. Benchmarks/lib.sh
trap bench_restore_scheduler EXIT  # until the full trap below takes over
bench_setup bench "$config"
empty_inbox() { psql -q "$DATABASE_URL" -c "TRUNCATE notifications, notification_keys CASCADE"; }
# An empty inbox for the first runs, also in a kept database (Benchmarks/scale.sh).
empty_inbox
[ -n "${BENCH_BIN:-}" ] || swift build -c "$config" --scratch-path "${BENCH_SCRATCH:-.build-bench}" --product appstore-sim >/dev/null
out=.local/bench-intake
mkdir -p "$out"

# Signed v2 bodies, made once per run by the simulator with its own PKI.
"$bin/appstore-sim" ca --state-dir "$out/appstore-sim" --out "$out/sim-root.pem"
"$bin/appstore-sim" notifications --state-dir "$out/appstore-sim" --customers "$v2_customers" --notifications-version 2 \
    --sandbox-share 0.2 --seed 12 >"$out/v2-bodies.jsonl"
echo "== $(wc -l <"$out/v2-bodies.jsonl") distinct signed v2 bodies"
# appstore-sim's customers buy from both of its apps (about one body in eight is the paid
# app's): subscriptiond takes both, or it answers the second app's 401 and the intake
# figures measure refusals. (docs/performance.md: the 4,638 non-2xx of the round-3 run.)
cat > "$out/apps.json" <<JSON
{"apps": [{"bundle_id": "com.example.paidapp", "shared_secret": "bench-paidapp-shared-secret", "app_apple_id": 1234567891}]}
JSON

port="$(Deploy/local/free-port.sh 18080 18999)"
server=""
sim=""
# The worker is off unless worker_concurrency says otherwise (step 7).
worker_concurrency=0
# settings=tuned (the default here): DATABASE_POOL_SIZE=32 and LOG_LEVEL=warning; settings=default:
# subscriptiond's own defaults (a pool of 20, LOG_LEVEL=info: an access-log line per request,
# to a file as a journal would take it).
settings=tuned
start_server() {
    local tuned=(LOG_LEVEL=warning DATABASE_POOL_SIZE=32) log=/dev/stderr
    [ "$settings" = tuned ] || { tuned=(); log="$out/subscriptiond-default-settings.log"; }
    env APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET=bench-shared-secret APPSTORE_APP_APPLE_ID=1234567890 \
        APPSTORE_ROOT_CERTIFICATES="$out/sim-root.pem" SUBSCRIPTIOND_CONFIG="$out/apps.json" \
        WORKER_CONCURRENCY=$worker_concurrency NOTIFICATION_MAX_AGE_DAYS=3650 \
        SUBSCRIPTIOND_PORT=$port "${tuned[@]}" "$bin/subscriptiond" 2>>"$log" &
    server=$!
    bench_wait_ready "$port"
}
stop_server() {
    [ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
    server=""
}
stop_sim() {
    [ -n "$sim" ] && { kill "$sim" 2>/dev/null || true; wait "$sim" 2>/dev/null || true; }
    sim=""
}
trap 'stop_server; stop_sim; Deploy/local/postgres.sh stop; bench_restore_scheduler' EXIT

# run_wrk NAME SCRIPT: a 3 s warm-up, then 32 connections for $seconds; the result line
# goes to $out/NAME.txt. The warm-up's bodies are distinct from the measured ones.
wrk_runs=0
run_wrk() {
    wrk_runs=$((wrk_runs + 2))
    echo "== intake $1: wrk -t2 -c32 -d${seconds}s ($config build, after a 3 s warm-up)"
    BENCH_THREADS=2 BENCH_BODIES="${bodies:-$out/v2-bodies.jsonl}" BENCH_FIRST=0 BENCH_RUN=$((wrk_runs - 1)) \
        wrk -t2 -c32 -d3s -s "$2" "http://127.0.0.1:$port/notifications/appstore" >/dev/null
    bench_profile_start "$out/perf-$1.data" "$seconds"
    BENCH_THREADS=2 BENCH_BODIES="${bodies:-$out/v2-bodies.jsonl}" BENCH_FIRST=1 BENCH_RUN=$wrk_runs bench_cpu_run "$out/cpu-$1.txt" "$server" \
        wrk -t2 -c32 -d"${seconds}s" --latency -s "$2" "http://127.0.0.1:$port/notifications/appstore" > "$out/$1.txt"
    bench_profile_wait
    cat "$out/$1.txt"
}
field() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" "$out/$1.txt"; }
stored() { psql -qtA "$DATABASE_URL" -c "SELECT count(*) FROM notifications WHERE source = '$1'"; }

start_server
run_wrk v1 Benchmarks/intake.lua
run_wrk v2 Benchmarks/intake-bodies.lua
echo "== H: wrk -t2 -c32 -d${seconds}s GET /health/live"
READ_ENDPOINT=health wrk -t2 -c32 -d"${seconds}s" --latency -s Benchmarks/reads.lua "http://127.0.0.1:$port/health/live" > "$out/health.txt"
grep '^BENCH' "$out/health.txt"
stop_server
echo "== E: openssl speed -seconds $seconds ecdsap256 (one core)"
openssl speed -seconds "$seconds" -mr ecdsap256 2>/dev/null > "$out/openssl-ecdsa.txt"
# -mr prints "+F4:<n>:256:<signs per second>:<verifications per second>".
verify_per_second=$(awk -F: '/^\+F4:/ { printf "%.0f", $5 }' "$out/openssl-ecdsa.txt")
echo "openssl P-256 verify: ${verify_per_second}/s"
v1_stored=$(stored v1)
v2_stored=$(stored v2)

echo "== baseline: pgbench -c32 -j2 -T${seconds} single-row insert"
bench_insert_baseline "$out/cpu-pgbench.txt" "$out/pgbench.txt" "$seconds"
cat "$out/pgbench.txt"
baseline=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$out/pgbench.txt" | head -n 1)
ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }

if [ "$preload_rows" -gt 0 ]; then
    echo "== loading $preload_rows processed notifications"
    empty_inbox
    started_loading=$(date +%s)
    psql -q -v ON_ERROR_STOP=1 -v rows="$preload_rows" "$DATABASE_URL" -f Benchmarks/preload-inbox.sql
    echo "loaded $preload_rows notifications in $(( $(date +%s) - started_loading ))s; the inbox takes $(psql -qtA "$DATABASE_URL" -c "SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) FROM pg_class c WHERE c.relkind = 'r' AND (c.relname LIKE 'notifications%' OR c.relname = 'notification_keys')")"
    start_server
    run_wrk v1-preloaded Benchmarks/intake.lua
    run_wrk v2-preloaded Benchmarks/intake-bodies.lua
    stop_server
fi

# Step 6: bodies like Apple's (appstore-sim's, a few kB each with their unified receipt), on
# an emptied inbox each run: distinct notifications, and the same notifications rewritten to
# name one original transaction (a burst of one subscription's notifications, as retries or a
# replay send them), with subscriptiond's default settings and with the tuned ones.
if [ "${BENCH_SIM_RUN:-1}" != 0 ] || [ "${BENCH_WORKER_RUN:-1}" != 0 ]; then
    sim_v1=(--secret "com.example.app=bench-shared-secret" --seed 13 --customers "${BENCH_V1_CUSTOMERS:-90000}" --sandbox-share 0
        --notifications-version 1 --end-ms "$(( $(date +%s) * 1000 ))" --state-dir "$out/appstore-sim-v1")
    "$bin/appstore-sim" notifications "${sim_v1[@]}" | bench_app_notifications > "$out/v1-bodies.jsonl"
    sed -E 's/"original_transaction_id":"[0-9]+"/"original_transaction_id":"1000000000000001"/g' "$out/v1-bodies.jsonl" > "$out/v1-one-subscription.jsonl"
    echo "$(wc -l < "$out/v1-bodies.jsonl") distinct v1 bodies of appstore-sim, $(awk '{ s += length($0) } END { printf "%.0f", s / NR }' "$out/v1-bodies.jsonl") bytes each"
fi
if [ "${BENCH_SIM_RUN:-1}" != 0 ]; then
    for settings in default tuned; do
        start_server
        empty_inbox; bodies="$out/v1-bodies.jsonl" run_wrk "v1-sim-$settings" Benchmarks/intake-bodies.lua
        empty_inbox; bodies="$out/v1-one-subscription.jsonl" run_wrk "v1-sim-one-$settings" Benchmarks/intake-bodies.lua
        stop_server
    done
    settings=tuned
fi

if [ "${BENCH_WORKER_RUN:-1}" != 0 ]; then
    echo "== v1 intake with the worker on (WORKER_CONCURRENCY=${BENCH_WORKER_CONCURRENCY:-64}), verifyReceipt answered by appstore-sim"
    "$bin/appstore-sim" catalog > "$out/catalog.json"
    "$bin/subscriptionctl" products import "$out/catalog.json" >/dev/null
    simport="$(Deploy/local/free-port.sh 19400 19499)"
    "$bin/appstore-sim" serve "${sim_v1[@]}" --port "$simport" --latency-ms 0 2> "$out/appstore-sim.log" &
    sim=$!
    bench_wait_sim "$simport"
    # An empty inbox, as for the first v1 run; the made-up bodies' receipts exist nowhere.
    empty_inbox
    export VERIFY_RECEIPT_URL="http://127.0.0.1:$simport/verifyReceipt" VERIFY_RECEIPT_SANDBOX_URL="http://127.0.0.1:$simport/sandbox/verifyReceipt"
    start_server
    bodies="$out/v1-bodies.jsonl" run_wrk v1-sim Benchmarks/intake-bodies.lua
    stop_server
    # The worker on, with what the run above stored waiting, and step 2's load at intake.
    worker_concurrency="${BENCH_WORKER_CONCURRENCY:-64}"
    start_server
    run_wrk v1-worker Benchmarks/intake.lua
    worker_done=$(psql -qtA "$DATABASE_URL" -c "SELECT count(*) FILTER (WHERE state = 'processed') || ' processed, '
        || count(*) FILTER (WHERE state = 'dead') || ' dead, '
        || count(*) FILTER (WHERE state IN ('pending', 'retrying')) || ' waiting' FROM notifications")
    stop_server
    stop_sim
    worker_concurrency=0
fi

durability=$(psql -qtA "$DATABASE_URL" -c "SELECT current_setting('fsync') || '/' || current_setting('synchronous_commit') || ', shared_buffers ' || current_setting('shared_buffers')")
echo "== result (fsync/synchronous_commit: $durability)"
health=$(sed -n 's/.* rps=\([0-9.]*\).*/\1/p' "$out/health.txt")
ceiling_v1=$(awk "BEGIN { printf \"%.0f\", 1 / (1 / $health + 1 / $baseline) }")
ceiling_v2=$(awk "BEGIN { printf \"%.0f\", 1 / (1 / $health + 1 / $baseline + 3 / $verify_per_second) }")
echo "ceilings: H ${health}/s, P ${baseline}/s, E ${verify_per_second}/s; C = 1/(1/H + 1/P) = ${ceiling_v1}/s, C2 = 1/(1/H + 1/P + 3/E) = ${ceiling_v2}/s"
for version in v1 v2; do
    intake=$(field $version intake_rps)
    stored_rows=$([ $version = v1 ] && echo "$v1_stored" || echo "$v2_stored")
    ceiling=$([ $version = v1 ] && echo "$ceiling_v1" || echo "$ceiling_v2")
    name=$([ $version = v1 ] && echo C || echo C2)
    goal=$([ $version = v1 ] && echo 0.9 || echo 0.8)
    met=$(awk -v r="$(ratio "$intake" "$ceiling")" -v g="$goal" -v p="$(field $version p99_ms)" -v n="$(field $version non2xx)" \
        'BEGIN { print (r >= g && p <= 10 && n == 0) ? "met" : "not met" }')
    echo "intake $version ${intake} accepted notifications/s (2xx only; $(field $version sent_requests) sent, non-2xx $(field $version non2xx), socket errors $(field $version socket_errors); p99 $(field $version p99_ms) ms, ${stored_rows} rows stored): vs $name ${ceiling}/s ratio $(ratio "$intake" "$ceiling") (goal >= $goal, p99 <= 10 ms, no non-2xx: $met); vs pgbench ${baseline} inserts/s ratio $(ratio "$intake" "$baseline")"
done
if [ "${BENCH_SIM_RUN:-1}" != 0 ]; then
    for settings in default tuned; do
        for kind in sim sim-one; do
            run="v1-$kind-$settings"
            what=$([ $kind = sim ] && echo "distinct notifications" || echo "one subscription's notifications")
            intake=$(field "$run" intake_rps)
            met=$(awk -v r="$(ratio "$intake" "$ceiling_v1")" -v p="$(field "$run" p99_ms)" -v n="$(field "$run" non2xx)" \
                'BEGIN { print (r >= 0.9 && p <= 10 && n == 0) ? "met" : "not met" }')
            echo "intake v1, appstore-sim's bodies, $what, $settings settings: ${intake} notifications/s (p99 $(field "$run" p99_ms) ms, non-2xx $(field "$run" non2xx)): vs C ${ceiling_v1}/s ratio $(ratio "$intake" "$ceiling_v1") (goal >= 0.9, p99 <= 10 ms, no non-2xx: $met)"
        done
    done
fi
if [ -f "$out/v1-worker.txt" ] && [ "${BENCH_WORKER_RUN:-1}" != 0 ]; then
    echo "intake v1 with the worker on and draining $(field v1-sim intake_requests) of appstore-sim's: $(field v1-worker intake_rps) notifications/s (p99 $(field v1-worker p99_ms) ms, non-2xx $(field v1-worker non2xx); the inbox after: $worker_done): vs C ${ceiling_v1}/s ratio $(ratio "$(field v1-worker intake_rps)" "$ceiling_v1"), vs the worker off (step 2) ratio $(ratio "$(field v1-worker intake_rps)" "$(field v1 intake_rps)") (p99 goal <= 10 ms)"
fi
if [ "$preload_rows" -gt 0 ]; then
    for version in v1 v2; do
        empty=$(field $version intake_rps)
        full=$(field $version-preloaded intake_rps)
        ceiling=$([ $version = v1 ] && echo "$ceiling_v1" || echo "$ceiling_v2")
        echo "intake $version with $preload_rows stored ${full} notifications/s (p99 $(field $version-preloaded p99_ms) ms, non-2xx $(field $version-preloaded non2xx)): vs $([ $version = v1 ] && echo C || echo C2) ratio $(ratio "$full" "$ceiling"); $preload_rows stored / empty: ratio $(ratio "$full" "$empty")"
    done
fi
echo "== result, CPU per notification (all processes on the $(nproc) cores: subscriptiond, the bench cluster, the load generator)"
echo "pgbench insert: $(bench_cpu_per_request "$out/cpu-pgbench.txt" "$(bench_pgbench_transactions "$out/pgbench.txt")" "" pgbench)"
for version in v1 v2; do
    echo "intake $version: $(bench_cpu_per_request "$out/cpu-$version.txt" "$(field $version intake_requests)" subscriptiond wrk)"
done
if [ "${BENCH_SIM_RUN:-1}" != 0 ]; then
    for run in v1-sim-default v1-sim-one-default v1-sim-tuned v1-sim-one-tuned; do
        echo "intake $run: $(bench_cpu_per_request "$out/cpu-$run.txt" "$(field "$run" intake_requests)" subscriptiond wrk)"
    done
fi
if [ -f "$out/cpu-v1-worker.txt" ] && [ "${BENCH_WORKER_RUN:-1}" != 0 ]; then
    echo "intake v1 with the worker on (its draining included): $(bench_cpu_per_request "$out/cpu-v1-worker.txt" "$(field v1-worker intake_requests)" subscriptiond wrk)"
fi
for run in v1 v2 v1-sim-default v1-sim-one-default; do
    bench_profile_report "$out/perf-$run.data" "intake $run"
done
