#!/usr/bin/env bash
# How fast the worker drains a backlog of version 1 notifications when verifyReceipt answers
# after a fixed latency, and subscriptiond's peak RSS meanwhile.
#
#   make bench-drain     # or: Benchmarks/drain.sh [debug|release]
#
# 1. a throwaway cluster (.local/postgres-bench), a fresh database, migrated, the demo catalog;
# 2. appstore-sim serving verifyReceipt for BENCH_CUSTOMERS (5,000) simulated customers (all in
#    production, so one upstream call each), answering after BENCH_LATENCY_MS (200) ms;
# 3. the first BENCH_NOTIFICATIONS (10,000) of their v1 notifications posted through intake,
#    subscriptiond running with WORKER_CONCURRENCY=0;
# 4. subscriptiond restarted with WORKER_CONCURRENCY=BENCH_CONCURRENCY (256) and
#    DATABASE_POOL_SIZE=BENCH_POOL_SIZE (40: 256 answers arriving together queue for the
#    pool; on the 2-core machine, before the apply's custom plans, 20 drained at 211-213/s,
#    40 at 232-304/s, 80 at 284/s): the time from
#    the first claim to the last notification processed, VmRSS sampled every 200 ms and VmHWM;
# 5. unless BENCH_CEILING=0, steps 1-4 again with latency 0: the rate the rest of the
#    pipeline (database, CPU of this machine) allows, which bounds the first if lower;
# 6. BENCH_ROUNDS (2) rounds of both, in ABBA order, each side's rate the mean of its runs;
# 7. pgbench's single-row insert on the same cluster: its CPU (PostgreSQL and pgbench) is the
#    unit of the drain's CPU goal (a notification's whole processing, subscriptiond and
#    PostgreSQL, at most 4 inserts of CPU), printed beside the 200 ms / 0 ms ratio (goal 0.9).
# Upstream's own bound is BENCH_CONCURRENCY / latency; the goal is 0.8 of it. BENCH_PROFILE=1
# records every process during the first BENCH_PROFILE_SECONDS (8) of each drain.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
notifications="${BENCH_NOTIFICATIONS:-10000}"
concurrency="${BENCH_CONCURRENCY:-256}"
latency="${BENCH_LATENCY_MS:-200}"
customers="${BENCH_CUSTOMERS:-5000}"
timeout="${BENCH_TIMEOUT:-600}"
pool="${BENCH_POOL_SIZE:-40}"
secret="bench-shared-secret"
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    LOCAL_POSTGRES_NAME=postgres-bench Deploy/local/postgres.sh stop >/dev/null 2>&1 || true
    bench_restore_scheduler 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
. Benchmarks/lib.sh

# Arguments of every appstore-sim call: the same seed and end time give the same customers,
# so the server knows the receipts the notifications carry. A kept database
# (BENCH_REUSE_DATABASE=1, as Benchmarks/scale.sh runs it) already holds the customers of its
# earlier runs, so each run there simulates customers of a seed of its own.
end_ms="$(( $(date +%s) * 1000 ))"
seed=7
sim_args() {
    sim_args=(--secret "com.example.app=$secret" --seed "$seed" --customers "$customers" --sandbox-share 0
        --notifications-version 1 --end-ms "$end_ms" --state-dir "$work/sim-state-$seed")
}

# Runs steps 1-4 with verifyReceipt answering after $1 ms; sets rate, peak_mb, summary.
drain_run() {
    local latency_ms="$1"
    # pg_stat_statements (about 1% of PostgreSQL's time): the statements a notification costs.
    BENCH_POSTGRES_OPTIONS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_utility=off" \
        bench_setup bench_drain "$config"
    psql -q "$DATABASE_URL" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
    if [ "${BENCH_REUSE_DATABASE:-0}" = 1 ]; then
        seed=$(( (RANDOM << 15 | RANDOM) + 1000 ))
        rm -f "$work/notifications.jsonl"
    fi
    sim_args
    # Once, on the cluster just started (after a drain its autovacuum would be counted too).
    [ -n "${insert_us:-}" ] || insert_cpu
    local scratch="${BENCH_SCRATCH:-.build-bench}"
    [ -n "${BENCH_BIN:-}" ] || swift build -c "$config" --scratch-path "$scratch" --product appstore-sim >/dev/null
    "$bin/appstore-sim" catalog > "$work/catalog.json"
    "$bin/subscriptionctl" products import "$work/catalog.json" >/dev/null
    if [ ! -s "$work/notifications.jsonl" ]; then
        "$bin/appstore-sim" notifications "${sim_args[@]}" > "$work/all.jsonl"
        bench_app_notifications "$notifications" < "$work/all.jsonl" > "$work/notifications.jsonl"
        local have; have=$(wc -l < "$work/notifications.jsonl")
        if [ "$have" -lt "$notifications" ]; then
            echo "drain: $customers customers have only $have notifications; raise BENCH_CUSTOMERS" >&2
            exit 1
        fi
    fi

    local simport sdport
    simport="$(Deploy/local/free-port.sh 19400 19499)"
    "$bin/appstore-sim" serve "${sim_args[@]}" --port "$simport" --latency-ms "$latency_ms" 2> "$work/appstore-sim.log" &
    local sim=$!
    pids+=("$sim")
    bench_wait_sim "$simport"

    sdport="$(Deploy/local/free-port.sh 19500 19599)"
    export APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET="$secret" LOG_LEVEL=warning SUBSCRIPTIOND_PORT="$sdport" \
        VERIFY_RECEIPT_URL="http://127.0.0.1:$simport/verifyReceipt" VERIFY_RECEIPT_SANDBOX_URL="http://127.0.0.1:$simport/sandbox/verifyReceipt"
    WORKER_CONCURRENCY=0 "$bin/subscriptiond" 2>> "$work/subscriptiond.log" &
    local server=$!
    pids+=("$server")
    bench_wait_ready "$sdport"
    # A kept database may hold notifications other benchmarks stored and left waiting (intake
    # runs with the worker off): marked processed, so the worker drains only this run's.
    [ "${BENCH_REUSE_DATABASE:-0}" != 1 ] || psql -q "$DATABASE_URL" \
        -c "UPDATE notifications SET state = 'processed', processed_at = now() WHERE state IN ('pending', 'retrying')"
    local loaded_at=$SECONDS since
    since=$(psql -qtA "$DATABASE_URL" -c "SELECT now()")
    python3 Benchmarks/post-notifications.py "http://127.0.0.1:$sdport/notifications/appstore" 16 < "$work/notifications.jsonl"
    kill "$server"; wait "$server" 2>/dev/null || true
    local pending
    pending=$(psql -qtA "$DATABASE_URL" -c "SELECT count(*) FROM notifications WHERE state = 'pending' AND received_at >= '$since'")
    echo "inbox: $pending pending v1 notifications of $customers customers (posted through intake in $(( SECONDS - loaded_at )) s)"
    curl -sf -X POST "http://127.0.0.1:$simport/control/stats/reset" >/dev/null

    psql -qtA "$DATABASE_URL" -c "SELECT pg_stat_statements_reset()" >/dev/null
    WORKER_CONCURRENCY="$concurrency" DATABASE_POOL_SIZE="$pool" "$bin/subscriptiond" 2>> "$work/subscriptiond.log" &
    server=$!
    pids+=("$server")
    # The first seconds of the drain, every process: what bounds it, by function.
    bench_profile_start "$work/perf-drain-$latency_ms.data" "${BENCH_PROFILE_SECONDS:-8}"
    local started=$SECONDS peak_kb=0 rss left hz s0 p0 m0 s1 p1 m1 wall0 wall1
    hz=$(getconf CLK_TCK)
    s0=$(bench_ticks "$server"); p0=$(bench_ticks $(bench_postgres_pids)); m0=$(bench_ticks "$sim"); wall0=$(date +%s.%N)
    while :; do
        rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$server/status" 2>/dev/null || echo 0)
        [ "${rss:-0}" -gt "$peak_kb" ] && peak_kb=$rss
        # EXISTS reads one entry of the due index; a count would scan the backlog five times
        # a second, on the cores being measured.
        left=$(psql -qtA "$DATABASE_URL" -c "SELECT EXISTS (SELECT 1 FROM notifications WHERE state IN ('pending', 'retrying'))")
        [ "$left" = "f" ] && break
        if [ $(( SECONDS - started )) -ge "$timeout" ]; then
            echo "drain: notifications still unprocessed after ${timeout}s" >&2
            break
        fi
        sleep 0.2
    done
    s1=$(bench_ticks "$server"); p1=$(bench_ticks $(bench_postgres_pids)); m1=$(bench_ticks "$sim"); wall1=$(date +%s.%N)
    bench_profile_wait
    local hwm_kb
    hwm_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$server/status" 2>/dev/null || echo 0)
    [ "${hwm_kb:-0}" -gt "$peak_kb" ] && peak_kb=$hwm_kb
    kill "$server"; wait "$server" 2>/dev/null || true
    local upstream
    upstream=$(curl -sf "http://127.0.0.1:$simport/control/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
    kill "$sim"; wait "$sim" 2>/dev/null || true

    # The window from the first claim to the last outcome, so start-up is not counted.
    local line
    line=$(psql -qtA -F' ' "$DATABASE_URL" -c "
        SELECT count(*) FILTER (WHERE state = 'processed'), count(*) FILTER (WHERE state = 'dead'),
               count(*) FILTER (WHERE state IN ('pending', 'retrying')),
               round(extract(epoch FROM max(updated_at) - min(claimed_at))::numeric, 2)
        FROM notifications WHERE received_at >= '$since'")
    local processed dead unfinished seconds
    read -r processed dead unfinished seconds <<< "$line"
    rate=$(awk "BEGIN { printf \"%.0f\", ($processed + $dead) / $seconds }")
    peak_mb=$(awk "BEGIN { printf \"%.1f\", $peak_kb / 1024 }")
    summary="$processed processed, $dead dead, $unfinished unfinished in ${seconds}s; $upstream verifyReceipt calls served; peak RSS $peak_mb MB"
    # CPU per notification while draining (the 0.2 s polling above included), and how busy the cores were.
    cpu=$(awk -v n=$((processed + dead)) -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v m=$((m1 - m0)) -v hz="$hz" \
        -v wall="$(awk -v a="$wall0" -v b="$wall1" 'BEGIN { print b - a }')" -v cores="$(nproc)" 'BEGIN {
        printf "subscriptiond %.0f µs, PostgreSQL %.0f µs, appstore-sim %.0f µs: %.0f µs of CPU per notification; the cores %.0f%% busy with these three",
            s / hz * 1e6 / n, p / hz * 1e6 / n, m / hz * 1e6 / n, (s + p + m) / hz * 1e6 / n, (s + p + m) / hz / (wall * cores) * 100 }')
    # subscriptiond's and PostgreSQL's CPU per notification: what processing one costs us
    # (appstore-sim stands in for Apple).
    own_us=$(awk -v n=$((processed + dead)) -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v hz="$hz" 'BEGIN { printf "%.0f", (s + p) / hz * 1e6 / n }')
    echo "latency ${latency_ms} ms: $summary"
    echo "latency ${latency_ms} ms: $cpu"
    # What PostgreSQL ran for the drain (the polling above and psql's own reads left out).
    local drained="FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
        AND query NOT LIKE 'SELECT EXISTS (SELECT % FROM notifications WHERE state IN%'" statements_per statements_us
    read -r statements_per statements_us <<< "$(psql -qtA -F' ' "$DATABASE_URL" -c "
        SELECT round(sum(calls)::numeric / $((processed + dead)), 1), round(sum(total_exec_time)::numeric * 1000 / $((processed + dead)))
        $drained")"
    statement_top=$(psql -qtA -F' | ' "$DATABASE_URL" -c "
        SELECT round(calls::numeric / $((processed + dead)), 2), round(total_exec_time::numeric * 1000 / $((processed + dead))),
               round(mean_exec_time::numeric * 1000), left(regexp_replace(query, '\s+', ' ', 'g'), 110)
        $drained ORDER BY total_exec_time DESC LIMIT 12")
    statement_line="latency ${latency_ms} ms: PostgreSQL ran $statements_per statements per notification, $statements_us µs of execution (pg_stat_statements; waits included)"
    echo "$statement_line"
}

# CPU of one pgbench single-row insert (PostgreSQL and pgbench) on the same cluster, the unit
# of the drain's CPU goal; sets insert_us.
insert_cpu() {
    local record="$work/cpu-pgbench.txt" seconds="${BENCH_PGBENCH_SECONDS:-10}"
    bench_insert_baseline "$record" "$work/pgbench.txt" "$seconds"
    local inserts
    inserts=$(bench_pgbench_transactions "$work/pgbench.txt")
    insert_us=$(awk -v n="$inserts" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "%.0f", (v["postgres_s"] + v["client_s"]) * 1e6 / n }' "$record")
    insert_line="pgbench insert (32 clients, ${seconds} s, same cluster): $(bench_cpu_per_request "$record" "$inserts" "" pgbench)"
    echo "$insert_line"
}

# Rounds of one run at the latency and one at 0 ms, in ABBA order (latency, 0, 0, latency,
# ...) so that neither side always runs first on a cold cluster; each side's rate is the mean
# of its runs. One pair alone varied by ±10% between runs (docs/performance.md, section 3).
rounds="${BENCH_ROUNDS:-2}"
target_rates=() ceiling_rates=() target_peak=0
run_target() {
    drain_run "$latency"
    target_rates+=("$rate"); target_summary=$summary; target_cpu=$cpu; target_own_us=$own_us
    target_peak=$(awk -v a="$target_peak" -v b="$peak_mb" 'BEGIN { print (b > a ? b : a) }')
}
run_ceiling() {
    drain_run 0
    ceiling_rates+=("$rate"); ceiling_cpu=$cpu; ceiling_own_us=$own_us
    ceiling_statements="$statement_top"; ceiling_statement_line="$statement_line"
}
for round in $(seq 1 "$rounds"); do
    if [ "${BENCH_CEILING:-1}" = "0" ]; then
        run_target
    elif [ $(( round % 2 )) = 1 ]; then
        run_target; run_ceiling
    else
        run_ceiling; run_target
    fi
done
mean() { printf '%s\n' "$@" | awk '{ s += $1; n++ } END { printf "%.0f", s / n }'; }
target_rate=$(mean "${target_rates[@]}")
[ "${#ceiling_rates[@]}" -gt 0 ] && ceiling_rate=$(mean "${ceiling_rates[@]}")

bound=$(awk "BEGIN { printf \"%.0f\", 0.8 * $concurrency * 1000 / $latency }")
echo "== result ($config build, WORKER_CONCURRENCY=$concurrency, DATABASE_POOL_SIZE=$pool, $notifications notifications, verify latency $latency ms)"
echo "latency $latency ms, last run: $target_summary"
echo "latency $latency ms, last run: $target_cpu"
echo "latency $latency ms: ${target_rates[*]} notifications/s, mean $target_rate/s; peak RSS $target_peak MB"
echo "$insert_line"
if [ -n "${ceiling_rate:-}" ]; then
    echo "pipeline ceiling (latency 0): ${ceiling_rates[*]} notifications/s, mean $ceiling_rate/s"
    echo "latency 0, last run: $ceiling_cpu"
    echo "$ceiling_statement_line"
fi
echo "drain $target_rate notifications/s vs ceiling 0.8×$concurrency/$(awk "BEGIN { print $latency / 1000 }") = $bound/s: ratio $(awk "BEGIN { printf \"%.2f\", $target_rate / $bound }") (target ≥ 1.0 of 0.8×), peak RSS $target_peak MB (limit 150)"
own_us=${ceiling_own_us:-$target_own_us}
echo "drain CPU per notification (subscriptiond and PostgreSQL, latency $([ -n "${ceiling_own_us:-}" ] && echo 0 || echo "$latency") ms): ${own_us} µs = $(awk "BEGIN { printf \"%.1f\", $own_us / $insert_us }") pgbench inserts of ${insert_us} µs (goal ≤ 4)"
if [ -n "${ceiling_rate:-}" ]; then
    echo "drain at $latency ms / drain at 0 ms: ratio $(awk "BEGIN { printf \"%.2f\", $target_rate / $ceiling_rate }") (goal ≥ 0.9)"
fi
if [ -n "${ceiling_rate:-}" ] && [ "$ceiling_rate" -lt "$bound" ]; then
    echo "bound by this machine's database/CPU, not upstream: $target_rate/s is $(awk "BEGIN { printf \"%.2f\", $target_rate / $ceiling_rate }") of the $ceiling_rate/s it drains with no upstream latency"
fi
if [ -n "${ceiling_statements:-}" ]; then
    echo "== statements of the drain at 0 ms latency (pg_stat_statements: calls and µs of execution per notification, mean µs a call; waits included)"
    echo "$ceiling_statements"
fi
bench_profile_report "$work/perf-drain-0.data" "drain at 0 ms latency, its first ${BENCH_PROFILE_SECONDS:-8} s"
