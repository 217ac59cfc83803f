-- wrk script: POSTs distinct v1 notifications (each a new inbox row, never a duplicate).
-- Every thread numbers its own requests; the thread id keeps bodies unique across threads
-- and BENCH_RUN (a number per wrk run of one benchmark) across runs. With
-- BENCH_ONE_SUBSCRIPTION=1 every notification names the same original transaction (a new
-- transaction each: a burst of renewals and retries of one subscription).
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
    thread:set("thread_id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    thread_id = tonumber(wrk.thread:get("thread_id")) or 0
end

request = function()
    counter = counter + 1
    local id = string.format("%d%09d", 7000 + 10 * (tonumber(os.getenv("BENCH_RUN") or "0") or 0) + thread_id, counter)
    local now = os.time() * 1000
    local original = id
    if os.getenv("BENCH_ONE_SUBSCRIPTION") == "1" then original = "7999000000000001" end
    local body = string.format([[{"notification_type":"DID_RENEW","password":"%s","environment":"PROD","bid":"%s","bvrs":"1","auto_renew_status":"true","auto_renew_product_id":"com.example.pro.monthly","unified_receipt":{"environment":"Production","status":0,"latest_receipt":"cmVjZWlwdA==","latest_receipt_info":[{"transaction_id":"%s","original_transaction_id":"%s","product_id":"com.example.pro.monthly","quantity":"1","purchase_date_ms":"%d","expires_date_ms":"%d","is_trial_period":"false","is_in_intro_offer_period":"false","subscription_group_identifier":"20500000"}],"pending_renewal_info":[{"original_transaction_id":"%s","auto_renew_status":"1","product_id":"com.example.pro.monthly","auto_renew_product_id":"com.example.pro.monthly"}]}}]],
        os.getenv("BENCH_SECRET") or "bench-shared-secret", os.getenv("BENCH_BUNDLE") or "com.example.app",
        id, original, now, now + 2592000000, original)
    return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
end

-- Only accepted notifications (2xx) count as throughput: a 503 shed under load is not intake.
-- sent_requests counts every answer, non2xx the refused ones.
done = function(summary, latency, requests)
    local non2xx = summary.errors.status
    local accepted = summary.requests - non2xx
    io.write(string.format("BENCH intake_requests=%d sent_requests=%d intake_seconds=%.2f intake_rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d socket_errors=%d\n",
        accepted, summary.requests, summary.duration / 1e6, accepted / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, non2xx,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
