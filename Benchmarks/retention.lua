-- wrk script for Benchmarks/retention.sh: POST /retention/appstore with the signed request
-- bodies of RETENTION_BODIES (one JSON object per line, from `appstore-sim realtime-requests`),
-- each thread cycling through them from its own offset. Any answer outside 2xx counts as an
-- error; done() prints one "BENCH ..." line.
local path = os.getenv("RETENTION_BODIES") or ".local/bench-retention/bodies.jsonl"
local headers = {["Content-Type"] = "application/json"}
local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("offset", counter * 7919)
    table.insert(threads, thread)
end

function init(args)
    bodies = {}
    for line in io.lines(path) do
        if #line > 0 then table.insert(bodies, line) end
    end
    index = offset or 0
    non2xx = 0
end

request = function()
    index = index + 1
    return wrk.format("POST", "/retention/appstore", headers, bodies[(index % #bodies) + 1])
end

response = function(status, headers, body)
    if status < 200 or status > 299 then non2xx = non2xx + 1 end
end

done = function(summary, latency, requests)
    local errors = 0
    for _, thread in ipairs(threads) do errors = errors + thread:get("non2xx") end
    io.write(string.format("BENCH endpoint=retention requests=%d rps=%.1f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000, errors,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
