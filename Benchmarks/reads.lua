-- wrk script for Benchmarks/reads.sh: one read endpoint (READ_ENDPOINT) with a random key
-- that exists among the BENCH_USERS loaded by load-subscribers.sql, or GET /health/live.
--   READ_ENDPOINT=health | subscriptions | subscribers | entitlements | eligibility
-- Any answer outside 2xx counts as an error; done() prints one "BENCH ..." line.
local endpoint = os.getenv("READ_ENDPOINT") or "health"
local users = tonumber(os.getenv("BENCH_USERS") or "1000000")
local token = os.getenv("BENCH_TOKEN") or "bench-admin-token-0123456789"
local headers = {["Authorization"] = "Bearer " .. token}
local jsonHeaders = {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
    non2xx = 0
end

request = function()
    local n = math.random(1, users)
    if endpoint == "subscriptions" then
        -- The main subscription of user n, or (for every tenth user) sometimes the weekly one.
        local id = 7000000000000000 + n
        if n % 10 == 7 and math.random(2) == 1 then id = 8000000000000000 + n end
        return wrk.format("GET", string.format("/v1/subscriptions/%d", id), headers)
    elseif endpoint == "subscribers" then
        return wrk.format("GET", string.format("/v1/subscribers/bench-user-%d", n), headers)
    elseif endpoint == "entitlements" then
        return wrk.format("GET", string.format("/v1/subscribers/bench-user-%d/entitlements", n), headers)
    elseif endpoint == "eligibility" then
        local body = string.format([[{"app_user_id":"bench-user-%d","product_ids":["com.example.pro.monthly","com.example.pro.yearly","com.example.premium.monthly","com.example.news.weekly"]}]], n)
        return wrk.format("POST", "/v1/eligibility", jsonHeaders, body)
    end
    return wrk.format("GET", "/health/live")
end

response = function(status, headers, body)
    if status < 200 or status > 299 then non2xx = non2xx + 1 end
end

done = function(summary, latency, requests)
    local errors = 0
    for _, thread in ipairs(threads) do errors = errors + thread:get("non2xx") end
    io.write(string.format("BENCH endpoint=%s requests=%d rps=%.1f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d\n",
        endpoint, summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000, errors,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
