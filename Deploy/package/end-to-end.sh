# Sourced by install-test.sh and Deploy/container/image-test.sh: one installed subscriptiond,
# from installed files only, migrated, with the simulator's catalog, taking v1 notifications
# from the installed appstore-sim and agreeing with it on every customer.
#   end_to_end RUN BIN HOST_WORK INNER_WORK
#     RUN         the command prefix the installed executables run under ("" on this host,
#                 "chroot --userspec=10001:10001 ROOTFS" for an unpacked image)
#     BIN         their directory as RUN sees it
#     HOST_WORK   a scratch directory as this shell sees it
#     INNER_WORK  the same directory as RUN sees it
# Needs DATABASE_URL (an empty database) and fail(); sets end_to_end_summary.
end_to_end() {
    local run="$1" bin="$2" host_work="$3" inner_work="$4"
    local root simport port secret token server processed
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    $run "$bin/subscriptionctl" migrate >/dev/null || fail "subscriptionctl migrate"
    # The simulator's catalog, so entitlements and eligibility can agree too.
    $run "$bin/appstore-sim" catalog > "$host_work/catalog.json"
    $run "$bin/subscriptionctl" products import "$inner_work/catalog.json" >/dev/null || fail "subscriptionctl products import"
    simport="$("$root/Deploy/local/free-port.sh" 19400 19499)"
    port="$("$root/Deploy/local/free-port.sh" 19500 19599)"
    secret="install-test-shared-secret-0123456789"
    token="install-test-admin-token-0123456789"
    APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET="$secret" ADMIN_TOKEN="$token" SUBSCRIPTIOND_PORT="$port" \
        VERIFY_RECEIPT_URL="http://127.0.0.1:$simport/verifyReceipt" VERIFY_RECEIPT_SANDBOX_URL="http://127.0.0.1:$simport/sandbox/verifyReceipt" \
        LOG_LEVEL=info $run "$bin/subscriptiond" 2> "$host_work/subscriptiond.log" &
    server=$!
    end_to_end_server=$server
    for _ in $(seq 1 100); do
        curl -fsS -o /dev/null "http://127.0.0.1:$port/health/live" 2>/dev/null && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    curl -fsS -o /dev/null "http://127.0.0.1:$port/health/live" 2>/dev/null \
        || fail "subscriptiond did not start: $(tail -n 5 "$host_work/subscriptiond.log")"
    end_to_end_port=$port
    $run "$bin/appstore-sim" run --customers 4 --seed 26 --secret "com.example.app=$secret" --port "$simport" \
        --target "http://127.0.0.1:$port/notifications/appstore" --check-url "http://127.0.0.1:$port" --check-token "$token" --check-timeout 60 \
        --truth-out "$inner_work/truth.json" > "$host_work/check.txt" 2> "$host_work/appstore-sim.log" \
        || fail "the installed subscriptiond does not agree with appstore-sim: $(tail -n 8 "$host_work/check.txt")"
    grep -q "agrees with the simulator" "$host_work/check.txt" || fail "no agreement line: $(cat "$host_work/check.txt")"
    processed="$(psql -qtA "$DATABASE_URL" -c "SELECT count(*) FROM notifications WHERE state = 'processed'")"
    [ "$processed" -gt 0 ] || fail "no notification was processed"
    end_to_end_summary="migrated, $processed notifications processed, $(tail -n 1 "$host_work/check.txt")"
}

# A fresh database on the cluster DATABASE_URL names, exported as DATABASE_URL; dropped by
# drop_scratch_database (call it from the caller's EXIT trap).
create_scratch_database() {
    scratch_admin="${DATABASE_URL%/*}/postgres"
    scratch_database="$1_$$"
    PGOPTIONS="-c client_min_messages=warning" psql -q "$scratch_admin" \
        -c "DROP DATABASE IF EXISTS $scratch_database" -c "CREATE DATABASE $scratch_database"
    export DATABASE_URL="${DATABASE_URL%/*}/$scratch_database"
}
drop_scratch_database() {
    [ -n "${scratch_database:-}" ] && psql -q "$scratch_admin" -c "DROP DATABASE IF EXISTS $scratch_database WITH (FORCE)" >/dev/null 2>&1 || true
}
