#!/usr/bin/env bash
# How cost grows with the number of subscribers: reads, v1 and v2 intake and the drain at
# each size of BENCH_SCALE_SIZES (default 100,000, 1,000,000 and 10,000,000), each as a ratio
# to its own ceiling measured in the same run, in one database that grows from one size to
# the next (docs/scaling.md, "Measured").
#
#   make bench-scale     # or: Benchmarks/scale.sh [release|debug]
#   BENCH_SCALE_SIZES="100000 1000000" Benchmarks/scale.sh
#   BENCH_SCALE_KEEP=1 BENCH_SCALE_SIZES=5000000 Benchmarks/scale.sh   # grow the last run's database
#
# At each size, on the database bench_scale of the bench cluster:
# 1. Benchmarks/reads.sh grows the subscribers to the size (Benchmarks/load-subscribers.sql,
#    server-side INSERT … SELECT, a million users a transaction; the time and the database's
#    size are printed), then measures H, S and the four read endpoints, first reads and
#    stored answers (after `answers rebuild` of every answer);
# 2. Benchmarks/intake-vs-pgbench.sh with as many processed notifications in the inbox as
#    there are subscribers (a month of renewals at one a subscriber): v1 and v2 against C and
#    C2, on the emptied inbox and on the loaded one;
# 3. Benchmarks/drain.sh, one round: 10,000 v1 notifications of 5,000 new customers drained
#    at 200 ms and at 0 ms upstream latency, on top of the loaded facts and inbox.
# Each part's whole output goes to .local/bench-logs/scale-<size>-<part>.log; at the end one
# table gives every figure by size and the largest size's figure over the smallest's (goal:
# within 0.9). The whole run at the default sizes takes hours and about 90 GB of disk.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
sizes="${BENCH_SCALE_SIZES:-100000 1000000 10000000}"
logs=.local/bench-logs
mkdir -p "$logs"
export BENCH_DATABASE=bench_scale BENCH_REUSE_DATABASE=1
started=$(date +%s)

# The database starts empty (a kept bench_scale would hold the sizes of an earlier run), and
# so does the table. BENCH_SCALE_KEEP=1 goes on from an earlier run's database and logs
# instead: its sizes must be larger than the earlier run's.
. Benchmarks/lib.sh
if [ "${BENCH_SCALE_KEEP:-0}" != 1 ]; then
    export LOCAL_POSTGRES_NAME=postgres-bench
    Deploy/local/postgres.sh start >/dev/null
    . .local/postgres-bench/env
    PGOPTIONS="-c client_min_messages=warning" psql -q "${DATABASE_URL%/*}/postgres" -c "DROP DATABASE IF EXISTS bench_scale WITH (FORCE)"
    Deploy/local/postgres.sh stop >/dev/null
    rm -f "$logs"/scale-*.log
fi

run_part() {
    local log="$logs/scale-$1-$2.log"; shift 2
    echo "== $(date +%H:%M:%S) $*  (log: $log)"
    if ! "$@" >"$log" 2>&1; then
        echo "bench-scale: $* failed; the end of its log:" >&2
        tail -n 30 "$log" >&2
        exit 1
    fi
}
# Disk: a subscriber takes about 9 kB here (facts 4.4 GB and answers 3.4 GB a million, the
# inbox of as many notifications 1.1 GB, pgbench's tables): a size that would not fit in the
# free space of the bench cluster's file system stops the run before it starts loading.
measured() { ls "$logs" | sed -n 's/^scale-\([0-9]*\)-reads\.log$/\1/p' | sort -n; }
grown=$(measured | tail -n 1); grown=${grown:-0}
for size in $sizes; do
    free_kb=$(df --output=avail -k .local | tail -n 1)
    need_kb=$(( (size - grown) * 9 ))
    if [ "$need_kb" -gt "$free_kb" ]; then
        echo "bench-scale: $size subscribers need about $((need_kb / 1048576)) GB more disk, and $((free_kb / 1048576)) GB are free; the table below stops at the last size measured" >&2
        break
    fi
    grown=$size
    BENCH_USERS=$size run_part "$size" reads Benchmarks/reads.sh "$config"
    BENCH_PRELOAD_ROWS=$size BENCH_SIM_RUN=0 BENCH_WORKER_RUN=0 run_part "$size" intake Benchmarks/intake-vs-pgbench.sh "$config"
    BENCH_ROUNDS=1 run_part "$size" drain Benchmarks/drain.sh "$config"
done

# One row per figure, one column per size: the ratio to the ceiling of its own run.
echo
echo "== result: bench-scale ($(nproc) cores, $config build, $(( ($(date +%s) - started) / 60 )) min)"
# Every size measured into this database, this run's and (BENCH_SCALE_KEEP=1) the earlier ones.
python3 Benchmarks/scale-table.py "$logs" $(measured)
