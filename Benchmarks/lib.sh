# Shared set-up of the benchmark scripts: a throwaway cluster (.local/postgres-bench), a
# fresh database, release binaries in a scratch folder of their own, migrated.
#   . Benchmarks/lib.sh; bench_setup DATABASE_NAME CONFIG
# Every benchmark gets the same memory for PostgreSQL (BENCH_SHARED_BUFFERS, default 1GB;
# PostgreSQL's own default, 128MB, is for a laptop): the inbox's dedupe index at 1,000,000
# notifications is about 120MB. The cluster is restarted so the setting takes effect.
# Leaves DATABASE_URL pointing at the new database and $bin at the binaries.
# BENCH_REUSE_DATABASE=1 keeps the database when it exists (re-running against data that
# took minutes to load); migrations still apply. BENCH_BIN=DIR uses the binaries in DIR
# instead of building (to compare two builds on the same data). BENCH_DATABASE=NAME uses that
# database instead of the script's own (Benchmarks/scale.sh runs every part on one).
# BENCH_POSTGRES_OPTIONS adds server settings (`-c name=value ...`) for the run.
bench_setup() {
    local database="${BENCH_DATABASE:-$1}" config="$2"
    export LOCAL_POSTGRES_NAME=postgres-bench LOCAL_POSTGRES_SHARED_BUFFERS="${BENCH_SHARED_BUFFERS:-1GB}" \
        LOCAL_POSTGRES_OPTIONS="${BENCH_POSTGRES_OPTIONS:-}"
    INSTALL_BENCH_TOOLS=1 Deploy/local/install-deps.sh
    bench_scheduler
    Deploy/local/postgres.sh stop >/dev/null 2>&1 || true
    Deploy/local/postgres.sh start
    . .local/postgres-bench/env
    local admin="${DATABASE_URL%/*}/postgres"
    if [ "${BENCH_REUSE_DATABASE:-0}" = 1 ] \
        && psql -qtA "$admin" -c "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
        echo "benchmark: reusing database $database" >&2
    else
        PGOPTIONS="-c client_min_messages=warning" psql -q "$admin" \
            -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" -c "CREATE DATABASE $database"
    fi
    export DATABASE_URL="${DATABASE_URL%/*}/$database"
    # A scratch folder of its own, so a benchmark build never waits on (or evicts) the debug build.
    local scratch="${BENCH_SCRATCH:-.build-bench}"
    if [ -n "${BENCH_BIN:-}" ]; then
        bin="$BENCH_BIN"
    else
        swift build -c "$config" --scratch-path "$scratch" --product subscriptiond >/dev/null
        swift build -c "$config" --scratch-path "$scratch" --product subscriptionctl >/dev/null
        bin="$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)"
    fi
    "$bin/subscriptionctl" migrate >/dev/null
}

# The kernel's autogroup scheduling (kernel.sched_autogroup_enabled, on by default) shares the
# CPU evenly between sessions rather than threads: here the cluster (pg_ctl starts it in a
# session of its own) against subscriptiond and the load generator. With both sides wanting
# about half of two saturated cores, that split stalls one of them for tens of milliseconds
# to seconds, about once a run (docs/performance.md, "Pauses"). So every benchmark runs with
# it off, as root can set it, unless BENCH_AUTOGROUP=keep; each script's EXIT trap calls
# bench_restore_scheduler to put the machine's setting back.
bench_autogroup_setting=/proc/sys/kernel/sched_autogroup_enabled
bench_autogroup_saved=""
bench_scheduler() {
    [ -r "$bench_autogroup_setting" ] || return 0
    local current
    current=$(cat "$bench_autogroup_setting")
    if [ "${BENCH_AUTOGROUP:-off}" = keep ] || [ "$current" = 0 ]; then
        echo "scheduler: kernel.sched_autogroup_enabled=$current (left as it is)" >&2
    elif [ -w "$bench_autogroup_setting" ] && echo 0 > "$bench_autogroup_setting" 2>/dev/null; then
        bench_autogroup_saved="$current"
        echo "scheduler: kernel.sched_autogroup_enabled=0 for this run (was $current; BENCH_AUTOGROUP=keep leaves it)" >&2
    else
        echo "scheduler: kernel.sched_autogroup_enabled=$current and not ours to change (needs root): expect pauses" >&2
    fi
}
bench_restore_scheduler() {
    [ -z "$bench_autogroup_saved" ] || echo "$bench_autogroup_saved" > "$bench_autogroup_setting" 2>/dev/null || true
}

# Waits until subscriptiond answers ready on $1 (port).
bench_wait_ready() {
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$1/health/ready" >/dev/null && return 0; sleep 0.1; done
    echo "benchmark: subscriptiond did not become ready on port $1" >&2
    return 1
}

# Waits until appstore-sim answers on $1 (port).
bench_wait_sim() {
    for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$1/control/stats" >/dev/null && return 0; sleep 0.1; done
    echo "benchmark: appstore-sim did not answer on port $1" >&2
    return 1
}

# The lines of `appstore-sim notifications` (stdin) for com.example.app, the first $1 of them
# when given: the simulated population includes the demo's paid-up-front app, whose shared
# secret the benchmarks do not configure.
bench_app_notifications() {
    awk -v n="${1:-0}" 'index($0, "\"bid\":\"com.example.app\"") && (n == 0 || taken++ < n)'
}

# pgbench's durable single-row insert of a notification-sized body (Benchmarks/pgbench-insert.sql),
# 32 clients for $3 seconds, its output to $2 and its CPU to the record $1 (bench_cpu_run):
# the unit the intake and drain goals are measured in.
bench_insert_baseline() {
    psql -q "$DATABASE_URL" -c "CREATE TABLE IF NOT EXISTS bench_inbox (id bigserial PRIMARY KEY, dedupe_key text NOT NULL UNIQUE,
        body jsonb NOT NULL, received_at timestamptz NOT NULL DEFAULT now())"
    bench_cpu_run "$1" "" pgbench -n -c 32 -j 2 -T "$3" -f Benchmarks/pgbench-insert.sql "$DATABASE_URL" > "$2"
}

# The transactions a pgbench run ($1: its output) processed.
bench_pgbench_transactions() {
    sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$1"
}

# CPU accounting. On two shared cores a rate moves with everything else running; the CPU
# each process spends per request is what says which one bounds it.
#   bench_cpu_run RECORD SERVER_PID COMMAND...   # runs COMMAND (the load generator), its
#       stdout to ours, and writes the CPU seconds spent meanwhile by SERVER_PID (may be
#       empty), by the bench cluster (postmaster, its backends and the ones that exited)
#       and by COMMAND itself to the file RECORD;
#   bench_cpu_per_request RECORD REQUESTS SERVER CLIENT   # one line of µs per request.
bench_ticks() { # utime + stime of the pids given, and of the children they reaped, in clock ticks
    local total=0 pid
    for pid in "$@"; do
        [ -r "/proc/$pid/stat" ] && total=$((total + $(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}
bench_postgres_pids() {
    local postmaster
    postmaster=$(head -n 1 .local/postgres-bench/data/postmaster.pid)
    echo "$postmaster" $(pgrep -P "$postmaster")
}
bench_cpu_run() {
    local record="$1" server="$2"; shift 2
    local hz s0 p0 s1 p1 client
    hz=$(getconf CLK_TCK)
    s0=$(bench_ticks $server); p0=$(bench_ticks $(bench_postgres_pids))
    # `times` in the subshell: its second line is the CPU of the subshell's children.
    { client=$( ( "$@" >&4; times ) | tail -n 1 ); } 4>&1
    # Backends whose client just disconnected are exiting now: once the postmaster has reaped
    # them their CPU is in its own children's total, but read mid-exit it is in neither.
    sleep 1
    s1=$(bench_ticks $server); p1=$(bench_ticks $(bench_postgres_pids))
    echo "$client" | awk -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v hz="$hz" '
        function seconds(t,  m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return m * 60 + t }
        { printf "server_s=%.2f postgres_s=%.2f client_s=%.2f\n", s / hz, p / hz, seconds($1) + seconds($2) }' > "$record"
}
bench_cpu_per_request() {
    local record="$1" requests="$2" server="$3" client="$4"
    awk -v n="$requests" -v server="$server" -v client="$client" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        s = v["server_s"] * 1e6 / n; p = v["postgres_s"] * 1e6 / n; c = v["client_s"] * 1e6 / n
        line = ""
        if (server != "") line = sprintf("%s %.0f µs, ", server, s)
        printf "%sPostgreSQL %.0f µs, %s %.0f µs: %.0f µs of CPU per request\n", line, p, client, c, s + p + c }' "$record"
}

# Profiles, with BENCH_PROFILE=1 (make bench sets it where perf can record): what bounds a
# figure, named by function. perf samples at 499 Hz with call chains, a cost of about 1% of
# the cores, so the figures are measured with the profiler on.
#   bench_profile_start FILE SECONDS       # every process, in the background; sets bench_profiler
#   bench_profile_wait                     # waits for it to finish writing
#   bench_profile_report FILE TITLE        # the top functions, by process
bench_profiler=""
bench_profile_start() {
    bench_profiler=""
    [ "${BENCH_PROFILE:-0}" = 1 ] || return 0
    perf record -g -F 499 -a -o "$1" -- sleep "$2" >/dev/null 2>&1 &
    bench_profiler=$!
}
bench_profile_wait() {
    [ -z "$bench_profiler" ] || wait "$bench_profiler" || true
    bench_profiler=""
}
bench_profile_report() {
    [ "${BENCH_PROFILE:-0}" = 1 ] && [ -s "$1" ] || return 0
    echo "== profile: $2 (perf report --no-children --sort comm,dso,sym, top 40)"
    # Swift's symbols demangled (swift demangle comes with the toolchain), generic arguments left out.
    local demangle=(cat); command -v swift >/dev/null && demangle=(swift demangle --simplified)
    perf report -i "$1" --no-children --sort comm,dso,sym --stdio --percent-limit 0.5 2>/dev/null \
        | grep -E '^ +[0-9.]+%' | head -n 40 | "${demangle[@]}" | cut -c 1-200 || true  # head closes the pipe early
}
