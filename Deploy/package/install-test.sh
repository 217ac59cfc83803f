#!/usr/bin/env bash
# The release as an operator installs it, run by `make test`: the tarball
# (build-tarball.sh CONFIG, default debug; `make release` makes the release one) unpacked and
# installed with its install.sh into a temporary prefix, then only the installed files:
#   - no Swift runtime library is needed (ldd), libpq and libcurl are;
#   - --version on the three executables;
#   - subscriptionctl migrate finds the installed Schema/ by itself;
#   - subscriptiond (its Certificates/ found the same way) takes v1 notifications from the
#     installed appstore-sim, processes them, and agrees with it on every customer.
# Needs DATABASE_URL (the test cluster that `make test` started).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
config="${1:-debug}"
: "${DATABASE_URL:?install-test: DATABASE_URL must name the test cluster}"
cd "$root"
tarball="$(Deploy/package/build-tarball.sh "$config" | tail -n 1)"
work="$(mktemp -d /tmp/subscriptiond-install-test.XXXXXX)"
server=""
cleanup() {
    [ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "install-test: FAILED: $*" >&2; exit 1; }

tar -C "$work" -xzf "$tarball"
"$work"/subscriptiond-*/install.sh --prefix "$work/prefix" >/dev/null
prefix="$work/prefix"
# From here on nothing of the checkout is used: another working directory, only the prefix.
cd "$work"
for binary in subscriptiond subscriptionctl appstore-sim; do
    if ldd "$prefix/bin/$binary" | grep -q 'libswift\|libFoundation'; then
        fail "$binary needs the Swift runtime: $(ldd "$prefix/bin/$binary" | grep 'libswift\|libFoundation' | head -n 3 | tr '\n' ' ')"
    fi
    "$prefix/bin/$binary" --version | grep -q "^$binary [0-9]" || fail "$binary --version"
done
echo "install-test: $("$prefix/bin/subscriptiond" --version), runtime libraries: $(ldd "$prefix/bin/subscriptiond" | awk '/libpq|libcurl/ { print $1 }' | tr '\n' ' ')"
grep -q "ExecStart=$prefix/bin/subscriptiond" "$prefix/share/subscriptiond/subscriptiond.service" || fail "the unit's ExecStart does not name the prefix"

admin="${DATABASE_URL%/*}/postgres"
database="install_test_$$"
PGOPTIONS="-c client_min_messages=warning" psql -q "$admin" -c "DROP DATABASE IF EXISTS $database" -c "CREATE DATABASE $database"
export DATABASE_URL="${DATABASE_URL%/*}/$database"
trap 'cleanup; psql -q "$admin" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true' EXIT
"$prefix/bin/subscriptionctl" migrate >/dev/null || fail "subscriptionctl migrate"
# The simulator's catalog, so entitlements and eligibility can agree too.
"$prefix/bin/appstore-sim" catalog > "$work/catalog.json"
"$prefix/bin/subscriptionctl" products import "$work/catalog.json" >/dev/null || fail "subscriptionctl products import"

port_of() { sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$1" | head -n 1; }
simport="$("$root/Deploy/local/free-port.sh" 19400 19499)"
secret="install-test-shared-secret-0123456789"
token="install-test-admin-token-0123456789"
APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET="$secret" ADMIN_TOKEN="$token" SUBSCRIPTIOND_PORT=0 \
    VERIFY_RECEIPT_URL="http://127.0.0.1:$simport/verifyReceipt" VERIFY_RECEIPT_SANDBOX_URL="http://127.0.0.1:$simport/sandbox/verifyReceipt" \
    LOG_LEVEL=info "$prefix/bin/subscriptiond" 2> "$work/subscriptiond.log" &
server=$!
for _ in $(seq 1 100); do [ -n "$(port_of "$work/subscriptiond.log")" ] && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
port="$(port_of "$work/subscriptiond.log")"
[ -n "$port" ] || fail "subscriptiond did not start: $(tail -n 5 "$work/subscriptiond.log")"
"$prefix/bin/appstore-sim" run --customers 4 --seed 26 --secret "com.example.app=$secret" --port "$simport" \
    --target "http://127.0.0.1:$port/notifications/appstore" --check-url "http://127.0.0.1:$port" --check-token "$token" --check-timeout 60 \
    --truth-out "$work/truth.json" > "$work/check.txt" 2> "$work/appstore-sim.log" \
    || fail "the installed subscriptiond does not agree with appstore-sim: $(tail -n 8 "$work/check.txt")"
grep -q "agrees with the simulator" "$work/check.txt" || fail "no agreement line: $(cat "$work/check.txt")"
processed="$(psql -qtA "$DATABASE_URL" -c "SELECT count(*) FROM notifications WHERE state = 'processed'")"
[ "$processed" -gt 0 ] || fail "no notification was processed"
echo "install-test: passed: installed under a temporary prefix, migrated, $processed notifications processed, $(tail -n 1 "$work/check.txt")"
