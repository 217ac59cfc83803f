#!/usr/bin/env bash
# A PostgreSQL cluster under Patroni on this one machine, for `make test-ha` and for trying
# failovers by hand: three etcd members and HA_NODES (2 or 3) PostgreSQL nodes, each node in
# a network namespace of its own (its own address, as if on its own machine), joined by a
# bridge to this host, which reaches every node at its address.
#
#   Deploy/ha/cluster.sh deps            # installs what is missing (patroni, etcd, iptables, PostgreSQL)
#   Deploy/ha/cluster.sh up              # namespaces, etcd, Patroni; waits for a leader and a sync standby
#   Deploy/ha/cluster.sh down            # stops everything it started, removes the namespaces and the bridge
#   Deploy/ha/cluster.sh destroy         # down, then removes the cluster's data and passwords
#   Deploy/ha/cluster.sh env             # DATABASE_URL (every node, target_session_attrs=read-write), PGPASSFILE, ...
#   Deploy/ha/cluster.sh list            # patronictl list
#   Deploy/ha/cluster.sh leader          # the leader's name (n1, n2, n3)
#   Deploy/ha/cluster.sh kill-postmaster NODE   # kill -9 the node's postmaster (Patroni stays)
#   Deploy/ha/cluster.sh kill-node NODE         # kill -9 the node's Patroni, PostgreSQL and etcd member
#   Deploy/ha/cluster.sh start-node NODE        # start the node's etcd member and Patroni again
#   Deploy/ha/cluster.sh partition NODE         # cut the node off from the other nodes (this host still reaches it)
#   Deploy/ha/cluster.sh heal NODE              # undo the partition
#   Deploy/ha/cluster.sh patronictl ARGS...     # patronictl against this cluster
#
# Must run as root (namespaces; PostgreSQL and Patroni then run as the `postgres` user, because
# initdb refuses root). State (data, logs, generated passwords) is under .local/ha; passwords
# are generated on first use, kept in files only their owner reads, and never printed.
set -eEuo pipefail
trap 'echo "cluster.sh: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
name="${HA_NAME:-sdha}"
state="$root/.local/${name}"
subnet="${HA_SUBNET:-10.213.47}"
nodes="${HA_NODES:-3}"
bridge="${name}br"
scope="${HA_SCOPE:-subscriptiond}"
database="${HA_DATABASE:-subscriptiond}"

die() { echo "cluster.sh: $*" >&2; exit 1; }
node_ip() { echo "$subnet.${1#n}"; }
namespace() { echo "$name${1#n}"; }
in_node() { local node="$1"; shift; ip netns exec "$(namespace "$node")" "$@"; }
members() { seq 1 3 | sed 's/^/n/'; }
pg_nodes() { seq 1 "$nodes" | sed 's/^/n/'; }
pg_bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
etcd_hosts() { local h=""; for m in $(members); do h="$h${h:+,}$(node_ip "$m"):2379"; done; echo "$h"; }
config() { echo "$state/$1/patroni.yml"; }
patronictl_cmd() { patronictl -c "$(config n1)" "$@"; }

install_missing() {
    local needed=()
    command -v patroni >/dev/null 2>&1 || needed+=(patroni)
    command -v etcd >/dev/null 2>&1 || needed+=(etcd-server)
    command -v etcdctl >/dev/null 2>&1 || needed+=(etcd-client)
    command -v iptables >/dev/null 2>&1 || needed+=(iptables)
    command -v ip >/dev/null 2>&1 || needed+=(iproute2)
    [ -n "$(pg_bin_dir)" ] || needed+=(postgresql)
    command -v psql >/dev/null 2>&1 || needed+=(postgresql-client)
    [ ${#needed[@]} -eq 0 ] && return 0
    echo "cluster.sh: installing ${needed[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
}

# A random password, made once and kept in $state/secrets (root only).
secret() {
    local file="$state/secrets/$1"
    if [ ! -s "$file" ]; then
        (umask 077 && openssl rand -hex 24 > "$file")
    fi
    cat "$file"
}

make_network() {
    ip link show "$bridge" >/dev/null 2>&1 || {
        ip link add "$bridge" type bridge
        ip addr add "$subnet.254/24" dev "$bridge"
        ip link set "$bridge" up
    }
    local m ns
    for m in $(members); do
        ns="$(namespace "$m")"
        ip netns list | grep -qw "^$ns" && continue
        ip link del "${ns}h" 2>/dev/null || true
        ip netns add "$ns"
        ip link add "${ns}h" type veth peer name "${ns}p"
        ip link set "${ns}p" netns "$ns"
        ip link set "${ns}h" master "$bridge" up
        in_node "$m" ip link set lo up
        in_node "$m" ip link set "${ns}p" name eth0
        in_node "$m" ip addr add "$(node_ip "$m")/24" dev eth0
        in_node "$m" ip link set eth0 up
    done
}

write_configs() {
    local m dir bin
    bin="$(pg_bin_dir)"
    mkdir -p "$state/secrets"
    chmod 700 "$state/secrets"
    for m in $(pg_nodes); do
        dir="$state/$m"
        mkdir -p "$dir"
        chown postgres: "$dir"
        chmod 700 "$dir"
        (umask 077 && sed -e "s|@SCOPE@|$scope|" -e "s|@NAME@|$m|" -e "s|@IP@|$(node_ip "$m")|g" \
            -e "s|@ETCD_HOSTS@|$(etcd_hosts)|" -e "s|@NETWORK@|$subnet.0/24|g" \
            -e "s|@TTL@|${HA_TTL:-20}|" -e "s|@LOOP_WAIT@|${HA_LOOP_WAIT:-2}|" -e "s|@RETRY_TIMEOUT@|${HA_RETRY_TIMEOUT:-6}|" \
            -e "s|@SYNCHRONOUS_MODE_STRICT@|${HA_SYNCHRONOUS_MODE_STRICT:-false}|" \
            -e "s|@DATA_DIR@|$dir/data|" -e "s|@BIN_DIR@|$bin|" -e "s|@PGPASS@|$dir/pgpass|" -e "s|@SOCKET_DIR@||" \
            -e "s|@SUPERUSER_PASSWORD@|$(secret superuser)|" -e "s|@REPLICATION_PASSWORD@|$(secret replication)|" \
            -e "s|@REWIND_PASSWORD@|$(secret rewind)|" \
            "$root/Deploy/ha/patroni.yml.in" > "$(config "$m")")
        chown postgres: "$(config "$m")"
    done
    # What this host's clients read their passwords from (libpq's PGPASSFILE).
    (umask 077 && {
        echo "*:5432:*:postgres:$(secret superuser)"
        echo "*:5432:*:subscriptiond:$(secret subscriptiond)"
    } > "$state/pgpass")
}

start_etcd() {
    local m="$1" cluster="" other
    for other in $(members); do cluster="$cluster${cluster:+,}e${other#n}=http://$(node_ip "$other"):2380"; done
    mkdir -p "$state/etcd-$m"
    chmod 700 "$state/etcd-$m"
    ip netns exec "$(namespace "$m")" setsid etcd --name "e${m#n}" --data-dir "$state/etcd-$m/data" \
        --listen-peer-urls "http://$(node_ip "$m"):2380" --initial-advertise-peer-urls "http://$(node_ip "$m"):2380" \
        --listen-client-urls "http://$(node_ip "$m"):2379" --advertise-client-urls "http://$(node_ip "$m"):2379" \
        --initial-cluster "$cluster" --initial-cluster-state new --initial-cluster-token "$name-$scope" \
        --heartbeat-interval 100 --election-timeout 1000 --enable-v2=true \
        >>"$state/etcd-$m/etcd.log" 2>&1 < /dev/null &
    echo $! > "$state/etcd-$m/pid"
}

start_patroni() {
    local m="$1"
    ip netns exec "$(namespace "$m")" setsid runuser -u postgres -- patroni "$(config "$m")" >>"$state/$m/patroni.log" 2>&1 < /dev/null &
    echo $! > "$state/$m/patroni.pid"
}

# Waits (at most SECONDS) until COMMAND succeeds.
wait_for() {
    local seconds="$1" what="$2"; shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || die "$what not within $seconds s"
        sleep 0.5
    done
}

etcd_healthy() { ETCDCTL_API=3 etcdctl --endpoints "$(etcd_hosts | sed 's/\([^,]*\)/http:\/\/\1/g')" endpoint health; }

# The cluster as Patroni's REST API on any node reports it (JSON).
cluster_json() {
    local m
    for m in $(pg_nodes); do
        curl -fsS --max-time 2 "http://$(node_ip "$m"):8008/cluster" 2>/dev/null && return 0
    done
    return 1
}
leader() { cluster_json | python3 -c 'import json,sys; print(next(m["name"] for m in json.load(sys.stdin)["members"] if m["role"] in ("leader","master")))'; }
has_sync_standby() { cluster_json | python3 -c 'import json,sys; sys.exit(0 if any(m["role"] in ("sync_standby",) and m["state"] in ("streaming","running") for m in json.load(sys.stdin)["members"]) else 1)'; }

superuser_url() { echo "postgresql://postgres@$(node_ip "$1"):5432/postgres"; }

create_database() {
    local lead
    lead="$(leader)"
    export PGPASSFILE="$state/pgpass"
    if ! psql -qtAX "$(superuser_url "$lead")" -c "SELECT 1 FROM pg_roles WHERE rolname = 'subscriptiond'" | grep -q 1; then
        # The password goes through stdin, never a command line.
        psql -qX "$(superuser_url "$lead")" -v ON_ERROR_STOP=1 >/dev/null <<SQL
CREATE ROLE subscriptiond LOGIN PASSWORD '$(secret subscriptiond)';
SQL
    fi
    if ! psql -qtAX "$(superuser_url "$lead")" -c "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
        psql -qX "$(superuser_url "$lead")" -c "CREATE DATABASE \"$database\" OWNER subscriptiond" >/dev/null
    fi
}

up() {
    [ "$(id -u)" -eq 0 ] || die "needs root (network namespaces); PostgreSQL itself runs as the postgres user"
    install_missing
    mkdir -p "$state"
    chown postgres: "$state"
    local dir="$state"
    while [ "$dir" != "/" ]; do chmod o+x "$dir" 2>/dev/null || true; dir="$(dirname "$dir")"; done
    make_network
    write_configs
    local m
    for m in $(members); do
        [ -f "$state/etcd-$m/pid" ] && kill -0 "$(cat "$state/etcd-$m/pid")" 2>/dev/null || start_etcd "$m"
    done
    wait_for 60 "a healthy etcd cluster" etcd_healthy
    for m in $(pg_nodes); do
        [ -f "$state/$m/patroni.pid" ] && kill -0 "$(cat "$state/$m/patroni.pid")" 2>/dev/null || start_patroni "$m"
    done
    wait_for 180 "a Patroni leader" leader
    wait_for 180 "a synchronous standby" has_sync_standby
    create_database
    echo "cluster.sh: $(patroni --version), leader $(leader), $nodes PostgreSQL nodes and 3 etcd members on $subnet.0/24" >&2
}

# kill -9 of PIDS and, for a postmaster, every process it started.
kill_tree() {
    local pid
    for pid in "$@"; do
        [ -n "$pid" ] || continue
        kill -9 "$pid" $(ps -o pid= --ppid "$pid" 2>/dev/null) 2>/dev/null || true
    done
}
postmaster_pid() { head -n 1 "$state/$1/data/postmaster.pid" 2>/dev/null || true; }

kill_postmaster() {
    local pid
    pid="$(postmaster_pid "$1")"
    [ -n "$pid" ] || die "no postmaster.pid for $1"
    kill -9 "$pid"
}

kill_node() {
    local m="$1" postmaster children
    postmaster="$(postmaster_pid "$m")"
    children="$(ps -o pid= --ppid "${postmaster:-0}" 2>/dev/null || true)"
    # Patroni (runuser's child), the postmaster and its children, the etcd member: the machine's death.
    kill -9 "$(cat "$state/$m/patroni.pid")" $(ps -o pid= --ppid "$(cat "$state/$m/patroni.pid")" 2>/dev/null) \
        ${postmaster:+$postmaster} $children "$(cat "$state/etcd-$m/pid")" 2>/dev/null || true
}

start_node() {
    local m="$1"
    kill -0 "$(cat "$state/etcd-$m/pid" 2>/dev/null || echo 0)" 2>/dev/null || start_etcd "$m"
    kill -0 "$(cat "$state/$m/patroni.pid" 2>/dev/null || echo 0)" 2>/dev/null || start_patroni "$m"
}

# Drops every packet between NODE and the other nodes, both ways, inside NODE's namespace:
# its etcd member loses quorum, its Patroni cannot renew the leader key, its standbys lose
# it. This host (where subscriptiond runs) still reaches it, the worst case: a client on the
# old primary's side of the partition.
partition() {
    local m="$1" other
    for other in $(members); do
        [ "$other" = "$m" ] && continue
        in_node "$m" iptables -A INPUT -s "$(node_ip "$other")" -j DROP
        in_node "$m" iptables -A OUTPUT -d "$(node_ip "$other")" -j DROP
    done
}
heal() { in_node "$1" iptables -F; }

down() {
    local m pid
    for m in $(pg_nodes); do
        [ -f "$state/$m/patroni.pid" ] && kill_tree "$(cat "$state/$m/patroni.pid")"
        pid="$(postmaster_pid "$m")"
        [ -n "$pid" ] && kill_tree "$pid"
    done
    for m in $(members); do
        [ -f "$state/etcd-$m/pid" ] && kill -9 "$(cat "$state/etcd-$m/pid")" 2>/dev/null || true
    done
    for m in $(members); do
        ip netns del "$(namespace "$m")" 2>/dev/null || true
        # The namespace can outlive its processes for a while (sockets closing); its veth pair
        # goes now, with the host's end.
        ip link del "$(namespace "$m")h" 2>/dev/null || true
    done
    ip link del "$bridge" 2>/dev/null || true
}

env_lines() {
    local hosts="" m
    for m in $(pg_nodes); do hosts="$hosts${hosts:+,}$(node_ip "$m"):5432"; done
    echo "export DATABASE_URL=\"postgresql://subscriptiond@$hosts/$database?target_session_attrs=read-write&connect_timeout=2\""
    echo "export DATABASE_READ_URL=\"postgresql://subscriptiond@$hosts/$database?target_session_attrs=prefer-standby&connect_timeout=2\""
    echo "export PGPASSFILE=\"$state/pgpass\""
    echo "export HA_STATE=\"$state\""
}

case "${1:-}" in
    deps) install_missing ;;
    up) up ;;
    down) down ;;
    destroy) down; rm -rf "$state" ;;
    env) env_lines ;;
    list) patronictl_cmd list ;;
    leader) leader ;;
    cluster) cluster_json ;;
    kill-postmaster) kill_postmaster "${2:?node}" ;;
    kill-node) kill_node "${2:?node}" ;;
    start-node) start_node "${2:?node}" ;;
    partition) partition "${2:?node}" ;;
    heal) heal "${2:?node}" ;;
    patronictl) shift; patronictl_cmd "$@" ;;
    *) echo "usage: $0 deps|up|down|destroy|env|list|leader|cluster|kill-postmaster N|kill-node N|start-node N|partition N|heal N|patronictl ..." >&2; exit 2 ;;
esac
