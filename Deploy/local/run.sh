#!/usr/bin/env bash
# `make run`: subscriptiond in the foreground on the local cluster, with appstore-sim on
# loopback as its verifyReceipt endpoint (nobody can point Apple at a laptop).
# Ctrl-C or SIGTERM stops both cleanly.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bin="${BIN:-.build/debug}"
set -a
. Deploy/local/dev.env
. .local/postgres/env
set +a

"$bin/subscriptionctl" migrate
# Signed (v2) payloads may chain to Apple's root or to appstore-sim's (.local/appstore-sim).
"$bin/appstore-sim" ca --out .local/appstore-sim-root.pem
export APPSTORE_ROOT_CERTIFICATES="Certificates/AppleRootCA-G3.pem,.local/appstore-sim-root.pem"
export APPSTORE_RECEIPT_ROOT_CERTIFICATES="Certificates/AppleIncRootCertificate.pem,.local/appstore-sim-root.pem"

portfile="$(mktemp)"
"$bin/appstore-sim" serve --port 0 --port-file "$portfile" --secret "$APPSTORE_BUNDLE_ID=$APPSTORE_SHARED_SECRET" --demo \
    2> .local/appstore-sim.log &
sim=$!
for _ in $(seq 1 100); do [ -s "$portfile" ] && break; sleep 0.1; done
[ -s "$portfile" ] || { echo "run.sh: appstore-sim did not start; see .local/appstore-sim.log" >&2; kill $sim; exit 1; }
simport="$(cat "$portfile")"
rm -f "$portfile"
export VERIFY_RECEIPT_URL="http://127.0.0.1:$simport/verifyReceipt"
export VERIFY_RECEIPT_SANDBOX_URL="http://127.0.0.1:$simport/sandbox/verifyReceipt"

echo "subscriptiond: http://$SUBSCRIPTIOND_HOST:$SUBSCRIPTIOND_PORT  app $APPSTORE_BUNDLE_ID  (Ctrl-C stops)"
echo "  query API:   curl -H 'Authorization: Bearer $ADMIN_TOKEN' http://$SUBSCRIPTIOND_HOST:$SUBSCRIPTIOND_PORT/v1/subscriptions/ID"
echo "  verifyReceipt stand-in (appstore-sim): http://127.0.0.1:$simport  (log: .local/appstore-sim.log)"
"$bin/subscriptiond" &
server=$!
stop() {
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    kill -TERM "$sim" 2>/dev/null || true
    wait "$sim" 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM
wait "$server"
status=$?
kill -TERM "$sim" 2>/dev/null || true
exit $status
