-- wrk script: POST /v1/eligibility for a random one of BENCH_USERS loaded subscribers,
-- asking about the four demo products (two in the user's group, one without offer, one elsewhere).
local users = tonumber(os.getenv("BENCH_USERS") or "100000")
local token = os.getenv("BENCH_TOKEN") or "bench-admin-token-0123456789"

function init(args)
    math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
end

request = function()
    local body = string.format([[{"app_user_id":"bench-user-%d","product_ids":["com.example.pro.monthly","com.example.pro.yearly","com.example.premium.monthly","com.example.news.weekly"]}]],
        math.random(1, users))
    return wrk.format("POST", nil, {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end

done = function(summary, latency, requests)
    io.write(string.format("BENCH eligibility_requests=%d rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000, summary.errors.status,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
