# Shared set-up of the benchmark scripts: a throwaway cluster (.local/postgres-bench), a
# fresh database, release binaries in a scratch folder of their own, migrated.
#   . Benchmarks/lib.sh; bench_setup DATABASE_NAME CONFIG
# Leaves DATABASE_URL pointing at the new database and $bin at the binaries.
# BENCH_REUSE_DATABASE=1 keeps the database when it exists (re-running against data that
# took minutes to load); migrations still apply. BENCH_BIN=DIR uses the binaries in DIR
# instead of building (to compare two builds on the same data).
bench_setup() {
    local database="$1" config="$2"
    export LOCAL_POSTGRES_NAME=postgres-bench
    INSTALL_BENCH_TOOLS=1 Deploy/local/install-deps.sh
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

# Waits until subscriptiond answers ready on $1 (port).
bench_wait_ready() {
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$1/health/ready" >/dev/null && return 0; sleep 0.1; done
    echo "benchmark: subscriptiond did not become ready on port $1" >&2
    return 1
}
