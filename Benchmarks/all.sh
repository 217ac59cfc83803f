#!/usr/bin/env bash
# Every performance goal in one run, each as a ratio against a ceiling measured in the same
# run on this machine (docs/performance.md):
#   1. intake next to pgbench's single-row insert (v1, signed v2, and v1 with 1M stored);
#   2. the three read endpoints at BENCH_USERS (default 1,000,000) subscribers next to
#      1 / (1/H + 1/S), H = GET /health/live, S = pgbench -S;
#   3. the worker's drain of 10,000 notifications against a 200 ms upstream next to
#      0.8 × WORKER_CONCURRENCY / latency, with peak RSS;
#   4. 10,000 subscriptions ending at once: how long the status sweep takes under intake
#      load, and intake's rate and p99 meanwhile next to a baseline without it;
#   5. POST /retention/appstore at the App Store's concurrency (p50, p99);
#   6. every report at 1,000,000 purchase chains, and what the rollups add to the drain;
#   7. storing a v2 notification with its certificate chains and without them (pgbench, ABBA);
# then the goal table (Benchmarks/goals.py): each goal beside its ceiling, met or not, and
# what bounds it: the process that spent the most CPU per request and its costliest functions
# in a profile of the same run (perf, when it can record here; BENCH_PROFILE=0 turns it off).
#
#   make bench      # or: Benchmarks/all.sh [release|debug]
#   BENCH_PARTS="intake reads drain" make bench      # the parts the goal table reads
#
# Each part's full output goes to .local/bench-logs/; the ratios are printed at the end.
# Run it on an otherwise idle machine: the ceilings and our figures share the same cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
logs=.local/bench-logs
mkdir -p "$logs"
started=$(date +%s)
if [ -z "${BENCH_PROFILE:-}" ]; then
    BENCH_PROFILE=0
    perf record -q -o /dev/null -a -- true >/dev/null 2>&1 && BENCH_PROFILE=1
fi
export BENCH_PROFILE

run_part() {
    local name="$1"; shift
    echo "== $name: $* (log: $logs/$name.log)"
    if ! "$@" >"$logs/$name.log" 2>&1; then
        echo "benchmark $name failed; the end of its log:" >&2
        tail -n 30 "$logs/$name.log" >&2
        return 1
    fi
}

# BENCH_PARTS picks some of them, e.g. BENCH_PARTS="intake reads drain" for the goal table alone.
all_parts="intake reads drain sweep retention reports v2-storage"
parts="${BENCH_PARTS:-$all_parts}"
for name in $parts; do
    case " $all_parts " in
        *" $name "*) ;;
        *) echo "bench: no part named $name ($all_parts)" >&2; exit 2 ;;
    esac
done
# The goal table reads this run's logs only.
for name in $all_parts; do rm -f "$logs/$name.log"; done
status=0
for name in $parts; do
    script="Benchmarks/$name.sh"; [ "$name" = intake ] && script=Benchmarks/intake-vs-pgbench.sh
    run_part "$name" "$script" "$config" || status=1
done

echo
echo "== results ($(nproc) cores, $config build, $(( ($(date +%s) - started) / 60 )) min)"
for name in $parts; do
    [ -f "$logs/$name.log" ] || continue
    # Each script ends with a '== result' section: its measured figures, ceilings and ratios.
    sed -n '/^== result/,/^== [^r]/p' "$logs/$name.log" | grep -v '^== [^r]' || true
done
echo
echo "== goals (issues 27 and 45), each beside the ceiling of its own run"
python3 Benchmarks/goals.py "$logs"
exit $status
