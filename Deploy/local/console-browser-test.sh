#!/usr/bin/env bash
# The console (/console) in a real browser: `make test` runs this after the Swift tests,
# with the test cluster running (.local/postgres-test/env).
#
#   Deploy/local/console-browser-test.sh [debug|release]
#
# A fresh database on that cluster, the demo catalog, subscriptiond pointed at appstore-sim
# (the settings of Deploy/local/demo.sh), the named demo customers run through their
# lifecycles and linked to their app user ids by the simulator's check, one console user of
# each role; then Tests/browser/console_test.py drives headless Chromium (Debian's chromium
# and chromium-driver; selenium, axe-selenium-python and axe-core-python from PyPI:
# install-deps.sh with INSTALL_TEST_TOOLS=1) through the console with JavaScript on and off,
# and runs axe-core on every page. Screenshots: .build/console-screenshots/NN-what.png.
# Logs: .local/console-browser/. About 40 s after the build.
# Exits non-zero on any failure, one line per failure; stops what it started and drops the
# database whatever happens.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
config="${1:-debug}"
case "$config" in
    debug | release) ;;
    *) echo "usage: $0 [debug|release] [console_test.py's options, e.g. --only flow_a]" >&2; exit 2 ;;
esac
[ $# -eq 0 ] || shift
started=$SECONDS
fail() { echo "console-browser-test: $*" >&2; exit 1; }

for exe in subscriptiond subscriptionctl appstore-sim; do
    [ -x ".build/$config/$exe" ] || fail ".build/$config/$exe is missing (swift build$([ "$config" = release ] && echo ' -c release'))"
done
[ -f .local/postgres-test/env ] || fail "no test cluster (.local/postgres-test/env): LOCAL_POSTGRES_NAME=postgres-test Deploy/local/postgres.sh start"
command -v chromium >/dev/null 2>&1 && [ -x /usr/bin/chromedriver ] \
    || fail "chromium and chromium-driver are missing: INSTALL_TEST_TOOLS=1 Deploy/local/install-deps.sh"
python3 -c 'import selenium, axe_selenium_python' 2>/dev/null \
    || fail "selenium or axe-selenium-python is missing: INSTALL_TEST_TOOLS=1 Deploy/local/install-deps.sh"

# Copies of the executables and of what they read (the schema, the certificates, the
# console's templates), run from that copy: a rebuild meanwhile changes nothing under the test.
work="$(mktemp -d -t console-browser.XXXXXX)"
bin="$work/bin"
mkdir -p "$bin"
cp ".build/$config/subscriptiond" ".build/$config/subscriptionctl" ".build/$config/appstore-sim" "$bin/"
cp -R Schema Certificates "$work/"
[ ! -d Templates ] || cp -R Templates "$work/"
ctl() { (cd "$work" && "$bin/subscriptionctl" "$@"); }
logs="$root/.local/console-browser"
shots="$root/.build/console-screenshots"
rm -rf "$logs" "$shots"
mkdir -p "$logs" "$shots"

set -a
. Deploy/local/dev.env
. .local/postgres-test/env
set +a
database=subscriptiond_console_browser
admin_url="${DATABASE_URL%/*}/postgres"
export DATABASE_URL="${DATABASE_URL%/*}/$database"

server="" sim="" receiver=""
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    for pid in $server $sim $receiver; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in $server $sim $receiver; do wait "$pid" 2>/dev/null || true; done
    PGOPTIONS="-c client_min_messages=warning" psql -q "$admin_url" \
        -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$work"
    if [ $status -ne 0 ]; then
        echo "console-browser-test: failed (exit $status) after $((SECONDS - started)) s; logs in $logs; last lines of subscriptiond's:" >&2
        tail -n 15 "$logs/subscriptiond.log" 2>/dev/null | sed 's/^/  /' >&2 || true
    else
        echo "console-browser-test: passed in $((SECONDS - started)) s"
    fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

PGOPTIONS="-c client_min_messages=warning" psql -q "$admin_url" \
    -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" -c "CREATE DATABASE $database" \
    || fail "cannot create $database on the test cluster"
ctl migrate > "$logs/migrate.txt" || fail "migrate failed ($logs/migrate.txt)"
"$bin/appstore-sim" catalog > "$work/catalog.json"
ctl products import "$work/catalog.json" > "$logs/products-import.txt" \
    || fail "products import failed ($logs/products-import.txt)"

# As demo.sh: trust the simulator's root (its PKI in a folder of this run), the second demo
# app from a config file, and an App Store Server API key the simulator accepts.
state="$work/appstore-sim"
"$bin/appstore-sim" ca --state-dir "$state" --out "$work/appstore-sim-root.pem"
export APPSTORE_ROOT_CERTIFICATES="Certificates/AppleRootCA-G3.pem,$work/appstore-sim-root.pem"
export APPSTORE_RECEIPT_ROOT_CERTIFICATES="Certificates/AppleIncRootCertificate.pem,$work/appstore-sim-root.pem"
paidsecret="console-paidapp-shared-secret-$(date +%s)"
cat > "$work/config.json" <<JSON
{"apps": [{"bundle_id": "com.example.paidapp", "shared_secret": "$paidsecret", "app_apple_id": 1234567891,
           "grandfather": {"before_version": "2.0", "entitlement": "paid_pro"}, "sandbox_entitlement": "grant"},
          {"bundle_id": "$APPSTORE_BUNDLE_ID",
           "consumption": {"refund_preference": "DECLINE", "delivery_status": "DELIVERED", "sample_content_provided": true}}]}
JSON
set -a
eval "$("$bin/appstore-sim" api-key --state-dir "$state" --out "$work/api-key.p8")"
set +a

simport="$(Deploy/local/free-port.sh 19400 19499)"
sdport="$(Deploy/local/free-port.sh 19500 19599)"
hookport="$(Deploy/local/free-port.sh 19600 19699)"
hooksecret="console-webhook-secret-$(date +%s)-0123456789abcdef"
python3 Deploy/local/demo-webhook-receiver.py "$hookport" "$hooksecret" "$logs/webhooks.jsonl" \
    > "$logs/webhook-receiver.log" 2>&1 &
receiver=$!
(cd "$work" && SUBSCRIPTIOND_PORT="$sdport" VERIFY_RECEIPT_URL="http://127.0.0.1:$simport/verifyReceipt" \
    VERIFY_RECEIPT_SANDBOX_URL="http://127.0.0.1:$simport/sandbox/verifyReceipt" WORKER_LEASE_MS=5000 \
    WEBHOOK_URL="http://127.0.0.1:$hookport/hooks" WEBHOOK_SECRET="$hooksecret" \
    SUBSCRIPTIOND_CONFIG="$work/config.json" \
    APPSTORE_API_URL="http://127.0.0.1:$simport/api" APPSTORE_API_SANDBOX_URL="http://127.0.0.1:$simport/api-sandbox" \
    exec "$bin/subscriptiond") 2> "$logs/subscriptiond.log" &
server=$!
base="http://127.0.0.1:$sdport"
for _ in $(seq 1 150); do curl -sf "$base/health/ready" >/dev/null && break; sleep 0.1; done
curl -sf "$base/health/ready" >/dev/null || fail "subscriptiond did not become ready ($logs/subscriptiond.log)"
echo "console-browser-test: subscriptiond on $base ($config), database $database"

# The named demo customers, as demo.sh runs them; the check links each purchase to its app
# user id and exits once subscriptiond agrees (no lingering, no waiting for silent endings).
curl -sf -X PUT -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" \
    -d '{"consumption_data": true}' "$base/v1/subscribers/fay-asks-for-refund/consent" >/dev/null \
    || fail "PUT consent for fay-asks-for-refund failed"
end_ms="$(date +%s%3N)"
simargs=(--demo --end-ms "$end_ms" --notifications-version mixed --state-dir "$state"
    --secret "$APPSTORE_BUNDLE_ID=$APPSTORE_SHARED_SECRET" --secret "com.example.paidapp=$paidsecret"
    --port "$simport")
"$bin/appstore-sim" run "${simargs[@]}" \
    --target "$base/notifications/appstore" --duplicates 2 --shuffle --concurrency 4 \
    --truth-out "$work/truth.json" --check-url "$base" --check-token "$ADMIN_TOKEN" \
    > "$logs/appstore-sim-check.txt" 2> "$logs/appstore-sim-run.log" \
    || fail "appstore-sim's check: subscriptiond disagrees with the simulator ($logs/appstore-sim-check.txt)"
cp "$work/truth.json" "$logs/truth.json"
echo "console-browser-test: $(grep -E 'agrees with the simulator' "$logs/appstore-sim-check.txt" | tail -n 1) ($((SECONDS - started)) s)"
# Apple stays reachable for the console's "Check with Apple".
"$bin/appstore-sim" serve "${simargs[@]}" > /dev/null 2> "$logs/appstore-sim-serve.log" &
sim=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$simport/control/stats" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$simport/control/stats" >/dev/null || fail "appstore-sim serve did not start ($logs/appstore-sim-serve.log)"
for customer in alice-trial-renews pam-lifetime hank-refund; do
    ctl subscriber show "$customer" > /dev/null 2>> "$logs/subscribers.txt" \
        || fail "the demo customer $customer is unknown after the check ($logs/subscribers.txt)"
done

# One console user of each role, each with a password of this run.
users="$work/users.json"
printf '{' > "$users"
for role in viewer support admin; do
    password="$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"
    printf '%s' "$password" | ctl console-user add "console-$role" --role "$role" --password-stdin \
        > "$logs/console-user-$role.txt" 2>&1 || fail "console-user add console-$role failed ($logs/console-user-$role.txt)"
    [ "$role" = viewer ] || printf ',' >> "$users"
    printf '"%s": {"name": "console-%s", "password": "%s"}' "$role" "$role" "$password" >> "$users"
done
printf '}\n' >> "$users"

CONSOLE_BASE_URL="$base" CONSOLE_USERS_FILE="$users" CONSOLE_TRUTH_FILE="$work/truth.json" \
    CONSOLE_ADMIN_TOKEN="$ADMIN_TOKEN" CONSOLE_SCREENSHOTS="$shots" \
    python3 Tests/browser/console_test.py "$@"
