#!/usr/bin/env bash
# CPU time per request of subscriptiond and of PostgreSQL (the bench cluster's processes),
# for 10 s of wrk on each read endpoint, against the data Benchmarks/reads.sh loaded:
#   Benchmarks/cpu-per-request.sh BIN_DIR     # a folder with a release subscriptiond
# Two cores shared with other work make rates noisy; CPU per request is steadier.
set -euo pipefail
cd "$(dirname "$0")/.."
export LOCAL_POSTGRES_NAME=postgres-bench
Deploy/local/postgres.sh start >/dev/null 2>&1
. .local/postgres-bench/env
export DATABASE_URL="${DATABASE_URL%/*}/bench_reads"
bin="${1:?usage: Benchmarks/cpu-per-request.sh BIN_DIR}"
port="$(Deploy/local/free-port.sh 19080 19999)"
APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET=bench-shared-secret ADMIN_TOKEN=bench-admin-token-0123456789 WORKER_CONCURRENCY=0 \
    SUBSCRIPTIOND_PORT=$port LOG_LEVEL=warning DATABASE_POOL_SIZE=16 "$bin/subscriptiond" &
server=$!
trap 'kill $server 2>/dev/null || true; Deploy/local/postgres.sh stop >/dev/null 2>&1' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health/ready" >/dev/null && break; sleep 0.1; done
postmaster=$(head -1 .local/postgres-bench/data/postmaster.pid)
ticks() { # utime+stime of the pids given, in clock ticks, including exited children's
    local total=0; for p in "$@"; do [ -r /proc/$p/stat ] && total=$((total + $(awk '{print $14+$15+$16+$17}' /proc/$p/stat))); done; echo $total; }
pgpids() { echo $postmaster $(pgrep -P $postmaster); }
BENCH_USERS=1000000 READ_ENDPOINT=eligibility wrk -t2 -c16 -d3s -s Benchmarks/reads.lua "http://127.0.0.1:$port/v1/eligibility" >/dev/null
for endpoint in subscriptions subscribers eligibility; do
    path="/v1/$endpoint"
    s0=$(ticks $server); p0=$(ticks $(pgpids))
    out=$(BENCH_USERS=1000000 READ_ENDPOINT=$endpoint wrk -t2 -c16 -d10s -s Benchmarks/reads.lua "http://127.0.0.1:$port$path" | grep ^BENCH)
    s1=$(ticks $server); p1=$(ticks $(pgpids))
    requests=$(echo "$out" | sed -n 's/.*requests=\([0-9]*\).*/\1/p')
    echo "$endpoint: $out"
    awk -v s=$((s1-s0)) -v p=$((p1-p0)) -v n=$requests 'BEGIN { printf "  CPU per request: subscriptiond %.0f us, PostgreSQL %.0f us\n", s*10000/n, p*10000/n }'
done
