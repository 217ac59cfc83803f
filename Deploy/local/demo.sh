#!/usr/bin/env bash
# `make demo`: the whole system on this machine. A fresh demo database on the local cluster,
# the demo catalog (subscriptions, one-time products and entitlements), subscriptiond pointed
# at appstore-sim, the named demo customers run through their lifecycles — subscribers, buyers
# of a lifetime unlock, passes, coins or a trial product, and customers of a second app that
# was paid up front before version 2.0 (grandfathered); some sending version 1 notifications,
# some signed version 2, some migrating from one to the other; every notification delivered
# twice, shuffled — then a table of what subscriptiond says about each customer (status,
# entitlements, eligibility) and whether it agrees with the simulator, and the webhook events
# a demo receiver (the app's backend) got, including those of two subscriptions that end
# after the run with no notification at all, and the answer sent to Apple for a customer
# who asked for a refund, and subscriptiond's reports (MRR, actives, trials, revenue) next to
# the simulator's own arithmetic.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bin="${BIN:-.build/debug}"
set -a
. Deploy/local/dev.env
. .local/postgres/env
set +a
admin="${DATABASE_URL%/*}/postgres"
PGOPTIONS="-c client_min_messages=warning" psql -q "$admin" -c "DROP DATABASE IF EXISTS subscriptiond_demo WITH (FORCE)" -c "CREATE DATABASE subscriptiond_demo"
export DATABASE_URL="${DATABASE_URL%/*}/subscriptiond_demo"

"$bin/subscriptionctl" migrate >/dev/null
"$bin/appstore-sim" catalog > .local/demo-catalog.json
"$bin/subscriptionctl" products import .local/demo-catalog.json
"$bin/subscriptionctl" products list
echo

# subscriptiond trusts Apple's root and the simulator's own (its PKI lives in .local/appstore-sim).
"$bin/appstore-sim" ca --out .local/appstore-sim-root.pem
export APPSTORE_ROOT_CERTIFICATES="Certificates/AppleRootCA-G3.pem,.local/appstore-sim-root.pem"
export APPSTORE_RECEIPT_ROOT_CERTIFICATES="Certificates/AppleIncRootCertificate.pem,.local/appstore-sim-root.pem"

# The second demo app (com.example.paidapp) comes from a config file that merges with the
# single-app variables of dev.env: its secret, its Apple ID and its grandfather rule. The
# first app answers CONSUMPTION_REQUEST (refund requests) with its consumption setting, which
# needs an App Store Server API key: one the simulator makes and accepts.
paidsecret="demo-paidapp-shared-secret-$(date +%s)"
cat > .local/demo-config.json <<JSON
{"apps": [{"bundle_id": "com.example.paidapp", "shared_secret": "$paidsecret", "app_apple_id": 1234567891,
           "grandfather": {"before_version": "2.0", "entitlement": "paid_pro"}, "sandbox_entitlement": "grant"},
          {"bundle_id": "$APPSTORE_BUNDLE_ID",
           "consumption": {"refund_preference": "DECLINE", "delivery_status": "DELIVERED", "sample_content_provided": true},
           "retention": [
             {"match": {"status": "billing_retry"},
              "alternate_product": {"message_identifier": "5e1a6f0e-3b6c-4a8e-9c1d-2f7b8a9c0d11", "product_id": "com.example.pro.yearly"}},
             {"match": {"auto_renew": false, "status": "active"},
              "promotional_offer": {"message_identifier": "8d0c2b7a-1e4f-4d3a-8b5c-6e7f8a9b0c22", "product_id": "com.example.pro.yearly", "offer_id": "stay-half-price"}},
             {"match": {"product_id": "com.example.pro.monthly"},
              "message": {"message_identifier": "a71f3c9d-5b2e-4f6a-9d8c-7b6a5f4e3d33"}}]}]}
JSON
set -a
eval "$("$bin/appstore-sim" api-key --out .local/appstore-sim/demo-api-key.p8)"
set +a

simport="$(Deploy/local/free-port.sh 19100 19199)"
sdport="$(Deploy/local/free-port.sh 19200 19299)"
hookport="$(Deploy/local/free-port.sh 19300 19399)"
hooksecret="demo-webhook-secret-$(date +%s)-0123456789abcdef"
rm -f .local/demo-webhooks.jsonl
python3 Deploy/local/demo-webhook-receiver.py "$hookport" "$hooksecret" .local/demo-webhooks.jsonl &
receiver=$!
SUBSCRIPTIOND_PORT="$sdport" VERIFY_RECEIPT_URL="http://127.0.0.1:$simport/verifyReceipt" \
    VERIFY_RECEIPT_SANDBOX_URL="http://127.0.0.1:$simport/sandbox/verifyReceipt" WORKER_LEASE_MS=5000 \
    WEBHOOK_URL="http://127.0.0.1:$hookport/hooks" WEBHOOK_SECRET="$hooksecret" \
    SUBSCRIPTIOND_CONFIG=.local/demo-config.json \
    APPSTORE_API_URL="http://127.0.0.1:$simport/api" APPSTORE_API_SANDBOX_URL="http://127.0.0.1:$simport/api-sandbox" \
    "$bin/subscriptiond" 2> .local/demo-subscriptiond.log &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; kill $receiver 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$sdport/health/ready" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$sdport/health/ready" >/dev/null || { echo "demo: subscriptiond did not start; see .local/demo-subscriptiond.log" >&2; exit 1; }

echo "subscriptiond on 127.0.0.1:$sdport, appstore-sim (verifyReceipt, App Store Server API) on 127.0.0.1:$simport"
# fay-asks-for-refund agreed, in the app, to share consumption data with Apple.
curl -sf -X PUT -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" \
    -d '{"consumption_data": true}' "http://127.0.0.1:$sdport/v1/subscribers/fay-asks-for-refund/consent" >/dev/null
status=0
# Every scenario ends at this moment: `appstore-sim money` builds the same customers again later.
end_ms="$(date +%s%3N)"
"$bin/appstore-sim" run --demo --end-ms "$end_ms" --secret "$APPSTORE_BUNDLE_ID=$APPSTORE_SHARED_SECRET" \
    --secret "com.example.paidapp=$paidsecret" --port "$simport" \
    --target "http://127.0.0.1:$sdport/notifications/appstore" --duplicates 2 --shuffle --concurrency 4 \
    --notifications-version mixed \
    --truth-out .local/demo-truth.json --check-url "http://127.0.0.1:$sdport" --check-token "$ADMIN_TOKEN" --linger 75 \
    2> .local/demo-appstore-sim.log || status=$?

# Two subscriptions end 40 s after the run and Apple sends nothing: the status sweep must
# tell the app's backend by itself (expired, grace_period_expired, the entitlement's end).
silent_endings() {
    python3 - .local/demo-webhooks.jsonl <<'PY'
import json, sys
wanted = {"cleo-lapses-silently": "expired", "dan-grace-ends-silently": "grace_period_expired"}
try:
    events = [json.loads(line) for line in open(sys.argv[1])]
except FileNotFoundError:
    events = []
got = {user for e in events for user in e.get("app_user_ids", []) if wanted.get(user) == e["type"]}
sys.exit(0 if got == set(wanted) else 1)
PY
}
echo "waiting for the subscriptions that end with no notification (cleo, dan; up to 120 s)…"
for _ in $(seq 1 240); do
    silent_endings && break
    sleep 0.5
done

# fay's refund request: subscriptiond answers Apple once her purchase is linked to her
# (the check links it; consent is looked at again every minute, and appstore-sim keeps
# answering for 75 s after the check), and joins Apple's decision to it.
echo "waiting for the answer to fay's refund request (up to 90 s)…"
for _ in $(seq 1 180); do
    [ "$(psql -tA "$DATABASE_URL" -c "SELECT count(*) FROM consumption_requests WHERE state <> 'pending'")" != "0" ] && break
    sleep 0.5
done

# The app's backend: what the demo receiver got once the outbox has drained.
for _ in $(seq 1 100); do
    open="$(psql -tA "$DATABASE_URL" -c "SELECT count(*) FROM webhook_events WHERE state IN ('pending', 'retrying')")"
    [ "$open" = "0" ] && break
    sleep 0.1
done
echo
python3 - .local/demo-webhooks.jsonl <<'PY'
import collections, json, sys
try:
    events = [json.loads(line) for line in open(sys.argv[1])]
except FileNotFoundError:
    events = []
unique = {e["id"]: e for e in events}
print(f"webhooks: the demo receiver got {len(events)} deliveries of {len(unique)} events "
      f"({sum(e['signature_ok'] for e in events)} with a valid signature)")
for kind, n in sorted(collections.Counter(e["type"] for e in unique.values()).items()):
    print(f"  {kind:22} {n}")
for e in list(unique.values())[:5]:
    print(f"  e.g. {e['type']:20} {e['subscription']}  {e['previous_status'] or '-'} → {e['status']}")
print("with no notification from Apple (time alone, found by the status sweep):")
for user in ("cleo-lapses-silently", "dan-grace-ends-silently"):
    told = [e for e in unique.values() if user in e.get("app_user_ids", [])
            and e["type"] in ("expired", "grace_period_expired", "entitlement_changed") and e["status"] in ("expired", "billing_retry", "ended")]
    print(f"  {user:24} " + (", ".join(f"{e['type']} ({e['previous_status'] or e['subscription']} → {e['status']})" for e in told) or "NOTHING ARRIVED"))
PY
# Retention Messaging: the App Store asks what to show a customer about to cancel; the app's
# rules answer (signed requests as appstore-sim signs them for the App Store).
echo
echo "retention messages (POST /retention/appstore, the rules in .local/demo-config.json):"
python3 - .local/demo-truth.json > .local/demo-retention-customers.txt <<'PY'
import json, sys
truth = {c["app_user_id"]: c for c in json.load(open(sys.argv[1]))["customers"]}
for name in ("alice-trial-renews", "dave-billing-retry", "gwen-cancel-pending"):
    s = truth[name]["subscriptions"][0]
    print(name, s["original_transaction_id"], s["product_id"], s["environment"])
print("someone-unknown 9999999999999999 com.example.pro.monthly Production")
PY
while read -r name otid product environment; do
    "$bin/appstore-sim" realtime-requests --count 1 --first-id "$otid" --environment "$environment"         --app-apple-id "$APPSTORE_APP_APPLE_ID" --product-id "$product" --out .local/demo-retention-request.json
    answer="$(curl -s -H 'Content-Type: application/json' --data-binary @.local/demo-retention-request.json         "http://127.0.0.1:$sdport/retention/appstore")"
    printf '  %-22s %s\n' "$name" "$(printf '%s' "$answer" | sed -E 's/("promotionalOfferSignatureV2":")([^".]{12})[^"]*"/\1\2…"/')"
done < .local/demo-retention-customers.txt
# Billed monthly through a 12-month commitment (App Store Server API 1.21).
curl -s -H "Authorization: Bearer $ADMIN_TOKEN" "http://127.0.0.1:$sdport/v1/subscribers/cara-commits-monthly" \
    > .local/demo-commitment.json || true
python3 - .local/demo-commitment.json <<'PY' || true
import json, sys
for s in json.load(open(sys.argv[1])).get("subscriptions", []):
    print(f"commitment subscriber cara-commits-monthly: {s['product_id']} {s['status']}, "
          f"billing_plan {s.get('billing_plan')}, commitment ends {s.get('commitment_ends_at')}")
PY
echo
echo "refund requests (subscriptionctl consumption list; show ID for one):"
"$bin/subscriptionctl" consumption list | sed 's/^/  /'
request="$(psql -tA "$DATABASE_URL" -c "SELECT id FROM consumption_requests ORDER BY id LIMIT 1")"
[ -n "$request" ] && "$bin/subscriptionctl" consumption show "$request" | sed 's/^/  /'
# Money: subscriptiond's reports next to the simulator's own arithmetic (Production; counts
# and MRR at the end of today, revenue this month through today (one point of a monthly
# report, so both sides round once), in USD at the simulator's exchange rates, which
# subscriptiond imports first).
echo
today="$(date -u +%F)"
since="$(date -u +%Y-%m-01)"
{ "$bin/appstore-sim" rates --through "$today" > .local/demo-rates.csv \
    && "$bin/subscriptionctl" rates import .local/demo-rates.csv > .local/demo-rates-import.txt 2>&1; } \
    || echo "rates: not imported (.local/demo-rates-import.txt)"
if "$bin/appstore-sim" money --demo --notifications-version mixed --end-ms "$end_ms" \
    --day "$today" --from "$since" --to "$today" > .local/demo-money.json 2>> .local/demo-appstore-sim.log; then
    python3 Deploy/local/demo-reports.py "http://127.0.0.1:$sdport" "$ADMIN_TOKEN" .local/demo-money.json "$today" "$since" || true
else
    echo "reports: the simulator's arithmetic failed (.local/demo-appstore-sim.log)"
fi
# What an operator's dashboard reads (docs/operations.md), as subscriptiond serves it now.
echo
echo "metrics (curl http://127.0.0.1:$sdport/metrics; all in .local/demo-metrics.txt):"
curl -sf "http://127.0.0.1:$sdport/metrics" > .local/demo-metrics.txt || true
grep -E '^subscriptiond_(notifications_received_total|notifications_processed_total|inbox_pending|inbox_oldest_pending_seconds|database_connections|webhook_deliveries_total|consumption_answers_total)|^subscriptiond_upstream_request_duration_seconds_count' \
    .local/demo-metrics.txt | sed 's/^/  /' || true
echo
echo "logs: .local/demo-subscriptiond.log, .local/demo-appstore-sim.log; the simulator's truth: .local/demo-truth.json, its money: .local/demo-money.json"
echo "inspect: DATABASE_URL=$DATABASE_URL $bin/subscriptionctl stats; webhooks received: .local/demo-webhooks.jsonl"

# The console: two demo users with a fresh password each run (support may grant and re-check;
# admin may also delete, replay and make keys).
console_password="demo-$(openssl rand -hex 8)"
for role in support admin; do
    printf '%s\n' "$console_password" | "$bin/subscriptionctl" console-user add "demo-$role" --role "$role" --password-stdin >/dev/null
done
echo
echo "console: http://127.0.0.1:$sdport/console"
echo "  sign in as demo-support (or demo-admin) with the password $console_password"
echo "  try the customer alice-trial-renews"
if [ -t 0 ] && [ -z "${CI:-}" ]; then
    echo "subscriptiond keeps running for the console; Ctrl-C stops it"
    wait $server || true
fi
exit $status
