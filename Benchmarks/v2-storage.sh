#!/usr/bin/env bash
# What storing a v2 notification costs PostgreSQL with its certificate chains and without them
# (issue 45: Schema/0039, SignedPayloadChains), in one run, ABBA.
#
#   make bench-v2-storage     # or: Benchmarks/v2-storage.sh [debug|release]
#
# 1. the benchmark cluster (.local/postgres-bench, fsync and synchronous_commit on), database
#    "bench_v2", migrated;
# 2. BENCH_V2_BODIES (300) distinct signed v2 bodies from appstore-sim, posted to subscriptiond
#    (intake only), which stores them without their chains: the bodies as received and as
#    stored are kept side by side;
# 3. pgbench, 32 clients, BENCH_SECONDS (10) each, four rounds A B B A: intake's statement for
#    one notification (its key, then its row in the month's partition) with a random body of
#    the received ones (A) or of the stored ones plus the chain upsert intake's statement
#    carries (B); transactions per second, and the PostgreSQL CPU per insert;
# then B's rate over A's for each pair, and what a body takes on disk each way.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-release}"
seconds="${BENCH_SECONDS:-10}"
count="${BENCH_V2_BODIES:-300}"
. Benchmarks/lib.sh
trap bench_restore_scheduler EXIT
bench_setup bench_v2 "$config"
[ -n "${BENCH_BIN:-}" ] || swift build -c "$config" --scratch-path "${BENCH_SCRATCH:-.build-bench}" --product appstore-sim >/dev/null
out=.local/bench-v2-storage
rm -rf "$out"
mkdir -p "$out"

"$bin/appstore-sim" ca --state-dir "$out/appstore-sim" --out "$out/sim-root.pem"
"$bin/appstore-sim" notifications --state-dir "$out/appstore-sim" --customers "$count" --notifications-version 2 \
    --sandbox-share 0 --seed 45 >"$out/all.jsonl"
head -n "$count" "$out/all.jsonl" >"$out/received.jsonl"
cat > "$out/apps.json" <<JSON
{"apps": [{"bundle_id": "com.example.app", "shared_secret": "bench-shared-secret", "app_apple_id": 1234567890},
          {"bundle_id": "com.example.paidapp", "shared_secret": "bench-paidapp-shared-secret", "app_apple_id": 1234567891}]}
JSON
port="$(Deploy/local/free-port.sh 18080 18999)"
APPSTORE_ROOT_CERTIFICATES="$out/sim-root.pem" SUBSCRIPTIOND_CONFIG="$out/apps.json" WORKER_CONCURRENCY=0 \
    NOTIFICATION_MAX_AGE_DAYS=3650 SUBSCRIPTIOND_PORT=$port LOG_LEVEL=warning "$bin/subscriptiond" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; Deploy/local/postgres.sh stop; bench_restore_scheduler' EXIT
bench_wait_ready "$port"
while IFS= read -r body; do
    curl -sf -o /dev/null -H 'Content-Type: application/json' --data-binary "$body" "http://127.0.0.1:$port/notifications/appstore"
done < "$out/received.jsonl"
kill "$server"
wait "$server" 2>/dev/null || true

# The bodies each way, numbered, for pgbench to pick from; the inbox emptied again.
awk '{ print NR "\t" $0 }' "$out/received.jsonl" > "$out/received.tsv"
psql -q "$DATABASE_URL" <<SQL
CREATE TABLE bench_received (n integer PRIMARY KEY, body text NOT NULL);
\copy bench_received (n, body) FROM '$out/received.tsv' WITH (FORMAT text)
CREATE TABLE bench_stored AS SELECT row_number() OVER (ORDER BY id)::integer AS n, body::text AS body FROM notifications WHERE source = 'v2';
CREATE TABLE bench_chains AS SELECT id, chain FROM certificate_chains;
TRUNCATE notifications, notification_keys;
SQL
stored="$(psql -qtA "$DATABASE_URL" -c "SELECT count(*) FROM bench_stored")"
[ "$stored" -eq "$count" ] || { echo "v2-storage: $stored of $count bodies stored" >&2; exit 1; }

# script NAME TABLE [CTE]: intake's statement for one notification (its key, then its row in the
# month's partition) with a random body of TABLE, after CTE (the chain upsert) when given.
script() {
    cat > "$out/$1.sql" <<SQL
\set i random(1, $count)
WITH ${3:+$3, }keys AS (
    INSERT INTO notification_keys (dedupe_key, notification_id, received_at)
    VALUES (md5(random()::text || clock_timestamp()::text), nextval('notifications_id_seq'), now())
    RETURNING dedupe_key, notification_id, received_at
)
INSERT INTO notifications (id, received_at, source, dedupe_key, notification_type, environment, bundle_id, original_transaction_id, body)
SELECT keys.notification_id, keys.received_at, 'v2', keys.dedupe_key, 'DID_RENEW', 'Production', 'com.example.app', '1', b.body::jsonb
FROM keys, $2 b WHERE b.n = :i;
SQL
}
script received bench_received
script stored bench_stored "chains AS (INSERT INTO certificate_chains (id, chain) SELECT id, chain FROM bench_chains ON CONFLICT (id) DO NOTHING)"

# run NAME SCRIPT: pgbench for $seconds; its rate and PostgreSQL's CPU per transaction.
run() {
    local before after transactions
    before=$(bench_ticks $(bench_postgres_pids))
    pgbench -n -c 32 -j 2 -T "$seconds" -f "$out/$2.sql" "$DATABASE_URL" > "$out/$1.txt" 2>&1
    after=$(bench_ticks $(bench_postgres_pids))
    transactions=$(bench_pgbench_transactions "$out/$1.txt")
    awk -v t="$transactions" -v s="$seconds" -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" -v name="$1" \
        'BEGIN { printf "%s %.1f %.1f\n", name, t / s, ticks / hz * 1e6 / t }' >> "$out/results.txt"
    echo "== $1: $(tail -n 1 "$out/results.txt" | awk '{ printf "%.0f/s, %.0f µs of PostgreSQL CPU each", $2, $3 }')"
}
: > "$out/results.txt"
run received-1 received
run stored-1 stored
run stored-2 stored
run received-2 received
field() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$out/results.txt"; }
sizes="$(psql -qtA "$DATABASE_URL" -c "SELECT (SELECT round(avg(pg_column_size(body::jsonb))) FROM bench_received) || ' bytes as received, ' || (SELECT round(avg(pg_column_size(body::jsonb))) FROM bench_stored) || ' without chains'")"
echo "== result ($config build; pgbench, 32 clients, ${seconds} s a round)"
echo "v2 storage: stored without chains $(field stored-1 2)/s and $(field stored-2 2)/s against $(field received-1 2)/s and $(field received-2 2)/s as received: ratio $(awk -v a="$(field received-1 2)" -v b="$(field stored-1 2)" 'BEGIN { printf "%.2f", b / a }') and $(awk -v a="$(field received-2 2)" -v b="$(field stored-2 2)" 'BEGIN { printf "%.2f", b / a }') (ABBA); PostgreSQL CPU $(field stored-1 3) and $(field stored-2 3) µs against $(field received-1 3) and $(field received-2 3) µs per notification; a body takes $sizes (jsonb, after compression)"
