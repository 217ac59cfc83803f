import Foundation

/// One performance test the simulator ran or runs, and what it measured so far.
struct SimPerformanceTest: Sendable {
    /// The `requestId` handed out.
    let requestID: String
    /// The app that asked.
    let bundleID: String
    /// The realtime URL it calls.
    let target: String
    /// How it runs.
    let config: SimPerformanceTestConfig
    /// When it started.
    let startedAt: Date
    /// One outcome per request answered (or given up on), in finishing order.
    var outcomes: [RealtimeRequestOutcome] = []
    /// Whether every request has an outcome.
    var finished = false

    /// Apple's verdict and figures so far (`PerformanceTestResultResponse`).
    var tally: PerformanceTestTally {
        PerformanceTestTally(config: config, outcomes: outcomes, finished: finished)
    }
}
