#!/usr/bin/env bash
# The read endpoints at BENCH_USERS (default 1,000,000) subscribers, each next to the
# read ceiling of this machine measured in the same run.
#
#   make bench-reads           # or: Benchmarks/reads.sh [debug|release]
#   BENCH_USERS=100000 BENCH_SECONDS=10 Benchmarks/reads.sh
#   BENCH_REUSE_DATABASE=1 Benchmarks/reads.sh    # keep the loaded data of an earlier run
#   BENCH_PROFILE=1 Benchmarks/reads.sh           # perf record -g of every process during each endpoint
#   BENCH_REUSE_DATABASE=1 BENCH_USERS=10000000 Benchmarks/reads.sh   # grow a kept database
#
# 1. loads the subscribers with Benchmarks/load-subscribers.sql (the tables the pipeline
#    writes), the demo catalog, and pgbench's tables (scale 3 per 100,000 users: as many
#    pgbench_accounts rows as there are transactions) into the same database;
# 2. H = wrk -t2 -c16 on GET /health/live of the same subscriptiond, S = pgbench -S -c16 -j2
#    (select-only) on the same database; an HTTP request and a primary-key select both cost
#    CPU on the same cores, so the ceiling of a read that needs both is 1 / (1/H + 1/S);
# 3. wrk -t2 -c16 on GET /v1/subscriptions/{id}, GET /v1/subscribers/{id},
#    GET /v1/subscribers/{id}/entitlements and POST /v1/eligibility (four products), random
#    keys that exist (Benchmarks/reads.lua),
#    with every stored answer stale (the catalog generation raised), so each read computes
#    its answer from the facts and stores it: what the first read after a change costs;
# 4. subscriptionctl answers rebuild: every subscription's and subscriber's stored answer
#    (docs/read-answers.md), as after a bulk load; then the same runs answered from
#    the stored answers;
# 5. one line per endpoint: rate, p99, errors (non-2xx and socket errors), ceiling, ratio;
#    then the CPU each request cost subscriptiond, PostgreSQL and the load generator, for H,
#    S and each endpoint: on two cores shared by all three, that says what bounds the rate.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
seconds="${BENCH_SECONDS:-15}"
users="${BENCH_USERS:-1000000}"
scale=$(( users * 3 / 100000 )); [ "$scale" -ge 1 ] || scale=1
out="${BENCH_OUT:-.local/bench-reads}"
export BENCH_USERS="$users" BENCH_TOKEN="bench-admin-token-0123456789"
. Benchmarks/lib.sh
trap bench_restore_scheduler EXIT  # until the full trap below takes over
bench_setup bench_reads "$config"
mkdir -p "$out"

# bench_loaded records how many users this version of load-subscribers.sql loaded (user N
# exists, N + 1 does not, user 5 has a grant). A database holding fewer grows to $users, a
# million users a transaction; one holding more, or loaded otherwise, is loaded again.
psql -q "$DATABASE_URL" -c "CREATE TABLE IF NOT EXISTS bench_loaded (users bigint NOT NULL)"
have=$(psql -qtA "$DATABASE_URL" -c "SELECT coalesce(max(users), 0) FROM bench_loaded
    WHERE EXISTS (SELECT 1 FROM entitlement_grants WHERE app_user_id = 'bench-user-5')")
if [ "$have" = 0 ] || [ "$have" -gt "$users" ]; then
    psql -q "$DATABASE_URL" -c "TRUNCATE transactions, renewal_info, subscriptions, subscribers, status_events, entitlement_grants, bench_loaded"
    "$bin/subscriptionctl" products import Deploy/local/demo-catalog.json >/dev/null
    have=0
fi
if [ "$have" -lt "$users" ]; then
    start=$(date +%s)
    first=$((have + 1))
    while [ "$first" -le "$users" ]; do
        last=$((first + 999999)); [ "$last" -le "$users" ] || last=$users
        psql -q -v ON_ERROR_STOP=1 "$DATABASE_URL" -v first="$first" -v count="$last" -v vacuum=off -f Benchmarks/load-subscribers.sql
        psql -q "$DATABASE_URL" -c "DELETE FROM bench_loaded" -c "INSERT INTO bench_loaded VALUES ($last)"
        first=$((last + 1))
    done
    # The triggers left a version row per subscription and user in the answer tables.
    psql -q "$DATABASE_URL" -c "VACUUM (ANALYZE)" -c "CHECKPOINT"
    echo "loaded subscribers $((have + 1)) to $users in $(( $(date +%s) - start ))s; database $(psql -qtA "$DATABASE_URL" -c "SELECT pg_size_pretty(pg_database_size(current_database()))")"
    start=$(date +%s)
    pgbench -i -q -s "$scale" "$DATABASE_URL" 2>&1 | tail -n 1
    echo "pgbench -i -s $scale in $(( $(date +%s) - start ))s"
fi
echo "data: $(psql -qtA "$DATABASE_URL" -c "SELECT (SELECT count(*) FROM subscribers) || ' subscriber links, '
    || (SELECT count(*) FROM transactions) || ' transactions, ' || (SELECT count(*) FROM pgbench_accounts) || ' pgbench_accounts rows; '
    || 'shared_buffers ' || current_setting('shared_buffers')")"

port="$(Deploy/local/free-port.sh 19080 19999)"
APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET=bench-shared-secret ADMIN_TOKEN="$BENCH_TOKEN" WORKER_CONCURRENCY=0 \
    SUBSCRIPTIOND_PORT=$port LOG_LEVEL=warning DATABASE_POOL_SIZE=16 "$bin/subscriptiond" &
server=$!
trap 'kill $server 2>/dev/null || true; Deploy/local/postgres.sh stop; bench_restore_scheduler' EXIT
bench_wait_ready "$port"
url="http://127.0.0.1:$port"

echo "== sample answers"
curl -s -H "Authorization: Bearer $BENCH_TOKEN" "$url/v1/subscriptions/7000000000000005"; echo
curl -s -H "Authorization: Bearer $BENCH_TOKEN" "$url/v1/subscribers/bench-user-7"; echo
curl -s -H "Authorization: Bearer $BENCH_TOKEN" "$url/v1/subscribers/bench-user-7/entitlements"; echo
# bench-user-3 used a trial (ineligible), -4 lapsed without one (eligible), -5 is subscribed now (ineligible).
for user in 3 4 5; do
    curl -s -H "Authorization: Bearer $BENCH_TOKEN" -H 'Content-Type: application/json' "$url/v1/eligibility" \
        -d "{\"app_user_id\":\"bench-user-$user\",\"product_ids\":[\"com.example.pro.monthly\",\"com.example.news.weekly\"]}"
    echo
done

# Runs wrk on one endpoint; with BENCH_PROFILE=1 records every process's stacks meanwhile.
run_wrk() {
    local endpoint="$1" path="$2"
    bench_profile_start "$out/perf-$endpoint.data" "$seconds"
    READ_ENDPOINT="${endpoint%-computed}" bench_cpu_run "$out/cpu-$endpoint.txt" "$server" \
        wrk -t2 -c16 -d"${seconds}s" --latency -s Benchmarks/reads.lua "$url$path" > "$out/wrk-$endpoint.txt"
    bench_profile_wait
    grep '^BENCH' "$out/wrk-$endpoint.txt"
}
field() { sed -n "s/.* $2=\([0-9.]*\).*/\1/p" "$out/wrk-$1.txt"; }

echo "== warm-up (not counted)"
BENCH_SECONDS=5 READ_ENDPOINT=eligibility wrk -t2 -c16 -d5s -s Benchmarks/reads.lua "$url/v1/eligibility" >/dev/null
echo "== H: wrk -t2 -c16 -d${seconds}s GET /health/live"
run_wrk health /health/live
echo "== S: pgbench -S -n -c16 -j2 -T$seconds (scale $scale)"
bench_cpu_run "$out/cpu-pgbench.txt" "" pgbench -S -n -c 16 -j 2 -T "$seconds" "$DATABASE_URL" > "$out/pgbench.txt" 2>&1
grep -E '^(latency average|tps)' "$out/pgbench.txt"
health=$(field health rps)
select=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$out/pgbench.txt" | head -n 1)
ceiling=$(awk "BEGIN { printf \"%.0f\", 1 / (1 / $health + 1 / $select) }")

path_of() { case "$1" in eligibility) echo /v1/eligibility ;; entitlements) echo /v1/subscribers ;; *) echo "/v1/$1" ;; esac; }
# Every stored answer stale: each read computes (and stores) its answer; random keys over a
# million rarely repeat within a run.
psql -q "$DATABASE_URL" -c "UPDATE answer_catalog_generation SET generation = generation + 1"
for endpoint in subscriptions subscribers entitlements eligibility; do
    echo "== wrk -t2 -c16 -d${seconds}s $endpoint ($config build, $users subscribers, computed answers)"
    run_wrk "$endpoint-computed" "$(path_of "$endpoint")"
done
start=$(date +%s)
"$bin/subscriptionctl" answers rebuild
psql -q "$DATABASE_URL" -c "VACUUM ANALYZE subscription_answers" -c "VACUUM ANALYZE subscriber_answers" -c "CHECKPOINT"
echo "answers rebuilt in $(( $(date +%s) - start ))s: $(psql -qtA "$DATABASE_URL" -c "SELECT
    pg_size_pretty(pg_total_relation_size('subscription_answers')) || ' subscription answers, '
    || pg_size_pretty(pg_total_relation_size('subscriber_answers')) || ' subscriber answers'")"
for endpoint in subscriptions subscribers entitlements eligibility; do
    echo "== wrk -t2 -c16 -d${seconds}s $endpoint ($config build, $users subscribers, stored answers)"
    run_wrk "$endpoint" "$(path_of "$endpoint")"
done

echo "== result ($users subscribers, $config build; H = $health/s, S = $select/s)"
for endpoint in subscriptions subscribers entitlements eligibility; do
    case "$endpoint" in
        subscriptions) label="GET /v1/subscriptions" ;;
        subscribers) label="GET /v1/subscribers" ;;
        entitlements) label="GET /v1/subscribers/{id}/entitlements" ;;
        eligibility) label="POST /v1/eligibility" ;;
    esac
    for run in "$endpoint" "$endpoint-computed"; do
        rate=$(field "$run" rps) p99=$(field "$run" p99_ms)
        errors=$(( $(field "$run" non2xx) + $(field "$run" socket_errors) ))
        answers="stored answers"; [ "$run" = "$endpoint" ] || answers="computed answers"
        awk -v label="$label ($answers)" -v rate="$rate" -v p99="$p99" -v errors="$errors" -v ceiling="$ceiling" 'BEGIN {
            printf "reads %s: %.0f/s p99 %.2f ms, %d errors, ceiling %d/s: ratio %.2f\n", label, rate, p99, errors, ceiling, rate / ceiling }'
    done
done
echo "== result, CPU per request (all processes on the $(nproc) cores: subscriptiond, the bench cluster, the load generator)"
echo "H, GET /health/live: $(bench_cpu_per_request "$out/cpu-health.txt" "$(field health requests)" subscriptiond wrk)"
echo "S, pgbench -S: $(bench_cpu_per_request "$out/cpu-pgbench.txt" "$(bench_pgbench_transactions "$out/pgbench.txt")" "" pgbench)"
for endpoint in subscriptions subscribers entitlements eligibility subscriptions-computed subscribers-computed entitlements-computed eligibility-computed; do
    echo "$endpoint: $(bench_cpu_per_request "$out/cpu-$endpoint.txt" "$(field "$endpoint" requests)" subscriptiond wrk)"
done
for endpoint in health subscriptions subscribers entitlements eligibility subscriptions-computed subscribers-computed entitlements-computed eligibility-computed; do
    bench_profile_report "$out/perf-$endpoint.data" "reads $endpoint"
done
