-- wrk script: POSTs prepared bodies from a file (BENCH_BODIES: one JSON body per line, e.g.
-- signed v2 notifications from `appstore-sim notifications`), each thread its own share, so
-- no two requests carry the same notification until a thread has sent all of its share.
local bodies = {}
local next_body = 1
local threads = {}

function setup(thread)
    thread:set("thread_index", #threads)
    table.insert(threads, thread)
end

function init(args)
    local index = tonumber(wrk.thread:get("thread_index")) or 0
    -- init runs in each thread's own Lua state: the thread count comes from the script.
    local count = tonumber(os.getenv("BENCH_THREADS") or "2") or 2
    local file = assert(io.open(os.getenv("BENCH_BODIES"), "r"))
    local line_number = 0
    for line in file:lines() do
        if line_number % count == index and #line > 0 then table.insert(bodies, line) end
        line_number = line_number + 1
    end
    file:close()
    -- The warm-up (BENCH_FIRST=0) sends the second half, so the measured run starts on fresh bodies;
    -- BENCH_OFFSET (a fraction) starts elsewhere, for runs that must not resend each other's bodies.
    if os.getenv("BENCH_OFFSET") then
        next_body = math.floor(#bodies * tonumber(os.getenv("BENCH_OFFSET"))) + 1
    elseif os.getenv("BENCH_FIRST") == "0" then
        next_body = math.floor(#bodies / 2) + 1
    end
end

request = function()
    local body = bodies[next_body]
    next_body = next_body % #bodies + 1
    return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
end

-- BENCH_STATUSES=1 counts the answers by HTTP status (a Lua call per response: diagnosis only).
if os.getenv("BENCH_STATUSES") == "1" then
    statuses = {}
    response = function(status, headers, body)
        statuses[status] = (statuses[status] or 0) + 1
        if status >= 300 and not sample then sample = status .. " " .. body end
    end
end

done = function(summary, latency, requests)
    for _, thread in ipairs(threads) do
        local counts = thread:get("statuses")
        if counts then
            for status, n in pairs(counts) do io.write(string.format("BENCH status %s: %d\n", status, n)) end
            local first = thread:get("sample")
            if first then io.write("BENCH first non-2xx: " .. first .. "\n") end
        end
    end
    -- Only accepted notifications (2xx) count as throughput: a 503 shed under load is not intake.
    local accepted = summary.requests - summary.errors.status
    io.write(string.format("BENCH intake_requests=%d sent_requests=%d intake_seconds=%.2f intake_rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d socket_errors=%d\n",
        accepted, summary.requests, summary.duration / 1e6, accepted / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
