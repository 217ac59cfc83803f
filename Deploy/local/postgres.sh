#!/usr/bin/env bash
# A throwaway PostgreSQL cluster inside the checkout (.local/postgres), for development and tests.
#
#   Deploy/local/postgres.sh start   # initdb on first use, start on a free port, create the database
#   Deploy/local/postgres.sh stop    # stop the cluster (data stays until `make clean`)
#   Deploy/local/postgres.sh env     # print `export DATABASE_URL=...` for the running cluster
#   Deploy/local/postgres.sh status
#   LOCAL_POSTGRES_PRIMARY=postgres Deploy/local/postgres.sh replica
#                                    # a streaming replica of that running cluster (pg_basebackup
#                                    # on first use), started like `start` on a port of its own
#
# LOCAL_POSTGRES_NAME picks the cluster (default "postgres"): `make test` uses its own
# ("postgres-test"), so running the tests never stops the cluster `make run` uses.
# LOCAL_POSTGRES_SHARED_BUFFERS (128MB) and LOCAL_POSTGRES_OPTIONS (more `-c name=value`
# settings, e.g. the drain benchmark's pg_stat_statements) apply from the next `start`.
#
# Listens on 127.0.0.1 only, trusts local connections (it is a throwaway), and when run as
# root runs the server as the `postgres` user, because initdb refuses to run as root.
set -eEuo pipefail
# A step that fails without a word of its own still says which it was.
trap 'echo "postgres.sh: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state="$root/.local/${LOCAL_POSTGRES_NAME:-postgres}"
data="$state/data"
envfile="$state/env"
log="$state/server.log"
database="${LOCAL_DATABASE_NAME:-subscriptiond}"
superuser="subscriptiond"

pg_bin() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -n "$dir" ] && [ -x "$dir/$1" ]; then echo "$dir/$1"; else command -v "$1"; fi
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

is_running() {
    [ -f "$data/postmaster.pid" ] && as_owner "$(pg_bin pg_ctl)" -D "$data" status >/dev/null 2>&1
}

write_env() {
    local port="$1"
    echo "export DATABASE_URL=\"postgresql://$superuser@127.0.0.1:$port/$database\"" > "$envfile"
    echo "export LOCAL_POSTGRES_PORT=$port" >> "$envfile"
}

start() {
    "$root/Deploy/local/install-deps.sh"
    mkdir -p "$state"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$state"
        # The server process must reach its data directory through the checkout's path.
        local dir="$state"
        while [ "$dir" != "/" ]; do
            chmod o+x "$dir" 2>/dev/null || true
            dir="$(dirname "$dir")"
        done
    fi
    if [ ! -f "$data/PG_VERSION" ]; then
        as_owner "$(pg_bin initdb)" -D "$data" -U "$superuser" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$state/initdb.log" 2>&1 \
            || { echo "postgres.sh: initdb failed; see $state/initdb.log" >&2; exit 1; }
    fi
    if is_running; then
        echo "postgres.sh: already running ($(grep DATABASE_URL "$envfile" | cut -d'"' -f2))" >&2
        return 0
    fi
    # Ports below the kernel's ephemeral range (32768-60999 on Linux), which clients' own
    # connections take their local ports from: such a port refuses a bind although nothing
    # listens on it. A port free when probed can still be taken before the server binds it
    # (another cluster starting): a bind that fails is tried again on the next free port after it.
    local port attempt first=25432
    for attempt in 1 2 3; do
        port="$("$root/Deploy/local/free-port.sh" "$first" 25632)"
        first=$((port + 1))
        if as_owner "$(pg_bin pg_ctl)" -D "$data" -l "$log" -w -t 60 \
            -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=400 -c fsync=${LOCAL_POSTGRES_FSYNC:-on} -c shared_buffers=${LOCAL_POSTGRES_SHARED_BUFFERS:-128MB}${LOCAL_POSTGRES_OPTIONS:+ $LOCAL_POSTGRES_OPTIONS}" \
            start >/dev/null; then
            break
        fi
        if [ "$attempt" -eq 3 ] || ! tail -n 20 "$log" | grep -q "could not bind"; then
            echo "postgres.sh: server did not start; see $log" >&2
            tail -n 20 "$log" >&2
            exit 1
        fi
    done
    write_env "$port"
    if ! psql -qtA "postgresql://$superuser@127.0.0.1:$port/postgres" -c "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
        psql -q "postgresql://$superuser@127.0.0.1:$port/postgres" -c "CREATE DATABASE \"$database\"" >/dev/null
    fi
    echo "postgres.sh: running on 127.0.0.1:$port (DATABASE_URL in $envfile)" >&2
}

# A hot standby of the running cluster LOCAL_POSTGRES_PRIMARY names, streaming from it.
replica() {
    local primary_env="$root/.local/${LOCAL_POSTGRES_PRIMARY:?LOCAL_POSTGRES_PRIMARY names the cluster to follow}/env"
    [ -f "$primary_env" ] || { echo "postgres.sh: no running cluster $LOCAL_POSTGRES_PRIMARY to follow" >&2; exit 1; }
    local primary_port
    primary_port="$(sed -n 's/^export LOCAL_POSTGRES_PORT=//p' "$primary_env")"
    mkdir -p "$state"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$state"
    if [ ! -f "$data/PG_VERSION" ]; then
        as_owner "$(pg_bin pg_basebackup)" -h 127.0.0.1 -p "$primary_port" -U "$superuser" -D "$data" \
            --write-recovery-conf --wal-method=stream --checkpoint=fast >"$state/basebackup.log" 2>&1 \
            || { echo "postgres.sh: pg_basebackup failed; see $state/basebackup.log" >&2; exit 1; }
    fi
    start
}

stop() {
    if is_running; then
        as_owner "$(pg_bin pg_ctl)" -D "$data" -m fast -w stop >/dev/null
        echo "postgres.sh: stopped" >&2
    fi
}

case "${1:-}" in
    start) start ;;
    replica) replica ;;
    stop) stop ;;
    env) is_running && cat "$envfile" || { echo "postgres.sh: not running" >&2; exit 1; } ;;
    status) if is_running; then echo "running: $(grep DATABASE_URL "$envfile" | cut -d'"' -f2)"; else echo "stopped"; exit 1; fi ;;
    *) echo "usage: $0 start|stop|env|status|replica" >&2; exit 2 ;;
esac
