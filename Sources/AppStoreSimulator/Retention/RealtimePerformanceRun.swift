import Foundation

/// Sends a performance test's requests to a Get Retention Message endpoint, as Apple's
/// sandbox does: `totalRequests` signed requests, at most `maxConcurrentRequests` at once,
/// each timed from sending to the last byte of its answer.
///
/// Every wait is bounded: a request may take twice the response-time threshold (at least a
/// second) and never past the test's `totalDuration`; a request not sent by then fails
/// `TIMED_OUT` without being sent.
struct RealtimePerformanceRun: Sendable {
    /// The realtime URL (plain `http://`: the simulator's client speaks no TLS).
    let target: URL
    /// How the test runs.
    let config: SimPerformanceTestConfig
    /// Signs each request.
    let signer: RealtimeRequestSigner
    /// The fields of the next request (a fresh identifier and date each time).
    let fields: @Sendable () -> RealtimeRequestFields

    /// Runs the test, handing each request's outcome to `record` as it finishes.
    func run(record: @escaping @Sendable (RealtimeRequestOutcome) -> Void) async {
        let deadline = ContinuousClock.now + .milliseconds(config.totalDurationMilliseconds)
        await withTaskGroup(of: Void.self) { group in
            var started = 0
            while started < config.totalRequests {
                if started >= config.maxConcurrentRequests { await group.next() }
                guard ContinuousClock.now < deadline else {
                    for _ in started..<config.totalRequests { record(RealtimeRequestOutcome(milliseconds: nil, failure: "TIMED_OUT")) }
                    break
                }
                started += 1
                group.addTask { record(await send(before: deadline)) }
            }
        }
    }

    /// One request and what came of it.
    private func send(before deadline: ContinuousClock.Instant) async -> RealtimeRequestOutcome {
        let body: [UInt8]
        do {
            body = try signer.body(fields())
        } catch {
            return RealtimeRequestOutcome(milliseconds: nil, failure: "OTHER")
        }
        let threshold = Duration.milliseconds(config.responseTimeThresholdMilliseconds)
        let timeout = min(max(threshold * 2, .seconds(1)), ContinuousClock.now.duration(to: deadline))
        let start = ContinuousClock.now
        do {
            let answer = try await SimHTTPClient.send(
                "POST", to: target, headers: [("Content-Type", "application/json")], body: body, timeout: max(timeout, .milliseconds(1)))
            let elapsed = start.duration(to: .now)
            let milliseconds = Self.milliseconds(elapsed)
            if answer.status != 200 {
                return RealtimeRequestOutcome(milliseconds: milliseconds, failure: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
            }
            if elapsed > threshold { return RealtimeRequestOutcome(milliseconds: milliseconds, failure: "TIMED_OUT") }
            if !RealtimeResponseCheck.isValid(answer.body) {
                return RealtimeRequestOutcome(milliseconds: milliseconds, failure: "INVALID_RESPONSE")
            }
            return .success(milliseconds)
        } catch {
            let milliseconds = Self.milliseconds(start.duration(to: .now))
            return RealtimeRequestOutcome(
                milliseconds: milliseconds, failure: error as? SimHTTPError == .timeout ? "TIMED_OUT" : "NO_RESPONSE")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
