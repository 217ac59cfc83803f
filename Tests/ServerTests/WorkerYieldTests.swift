import Logging
import Settings
import Testing

@testable import Server

@Suite("The worker yields to intake")
struct WorkerYieldTests {
    private let fast = IntakeLatencySample(answered: 1_000, slow: 10)
    private let slow = IntakeLatencySample(answered: 1_000, slow: 11)

    @Test("p99 above the threshold means more than one answer in a hundred was slow")
    func p99() {
        #expect(!fast.p99IsAboveThreshold)
        #expect(slow.p99IsAboveThreshold)
        #expect(!IntakeLatencySample(answered: 0, slow: 0).p99IsAboveThreshold)
        #expect(IntakeLatencySample(answered: 3, slow: 1).p99IsAboveThreshold)
    }

    @Test("the window counts answers over the threshold and starts again after each take")
    func window() {
        let window = IntakeLatencyWindow(threshold: .milliseconds(5))
        window.record(.milliseconds(1))
        window.record(.milliseconds(5))
        window.record(.microseconds(5_001))
        window.record(.seconds(2))
        #expect(window.take() == IntakeLatencySample(answered: 4, slow: 2))
        #expect(window.take() == IntakeLatencySample(answered: 0, slow: 0))
    }

    @Test("the allowance halves down to none while a busy intake is slow, and grows back by a sixteenth per three fast samples")
    func policy() {
        var policy = WorkerYieldPolicy(maximum: 64)
        #expect(policy.allowed == 64)
        var seen: [Int] = []
        for _ in 0..<8 {
            policy.update(after: slow)
            seen.append(policy.allowed)
        }
        #expect(seen == [32, 16, 8, 4, 2, 1, 0, 0])
        seen = []
        for _ in 0..<(17 * 3) {
            policy.update(after: fast)
            seen.append(policy.allowed)
        }
        // 0, 0, 4, 4, 4, 8, …: a sixteenth back after every third.
        #expect(seen == (1...(17 * 3)).map { min(64, 4 * ($0 / 3)) })
    }

    @Test("fast samples between slow ones never let the worker back in")
    func saturated() {
        var policy = WorkerYieldPolicy(maximum: 64)
        for _ in 0..<7 { policy.update(after: slow) }
        #expect(policy.allowed == 0)
        for _ in 0..<50 {
            policy.update(after: fast)
            policy.update(after: fast)
            policy.update(after: slow)
        }
        #expect(policy.allowed == 0)
    }

    @Test("an idle intake gives the worker its whole concurrency back at once")
    func idle() {
        var policy = WorkerYieldPolicy(maximum: 64)
        policy.update(after: slow)
        policy.update(after: slow)
        policy.update(after: IntakeLatencySample(answered: 0, slow: 0))
        #expect(policy.allowed == 64)
    }

    @Test("slow answers at a rate below busy never make the worker yield")
    func notBusy() {
        var policy = WorkerYieldPolicy(maximum: 16)
        let lowRate = IntakeLatencySample(answered: WorkerYieldPolicy.busyAnswers - 1, slow: WorkerYieldPolicy.busyAnswers - 1)
        policy.update(after: lowRate)
        #expect(policy.allowed == 16)
        policy.update(after: IntakeLatencySample(answered: WorkerYieldPolicy.busyAnswers, slow: 1))
        #expect(policy.allowed == 8)
        for _ in 0..<WorkerYieldPolicy.calmSamplesToGrow { policy.update(after: lowRate) }
        #expect(policy.allowed == 9)
    }

    @Test("claims are held to the allowance less what is in flight; at none, one per trickle interval")
    func allowance() async {
        let window = IntakeLatencyWindow(threshold: .milliseconds(5))
        let start = ContinuousClock.now
        let yield = WorkerYield(window: window, maximum: 16, logger: Logger(label: "test"), now: start)
        #expect(await yield.allowance(inFlight: 0, now: start) == 16)
        #expect(await yield.allowance(inFlight: 10, now: start) == 6)
        #expect(await yield.allowance(inFlight: 20, now: start) == 0)

        // Five busy, slow samples: 16 → 8 → 4 → 2 → 1 → 0.
        var now = start
        for _ in 0..<5 {
            record(window, busyAnswersTaking: .milliseconds(50))
            now += WorkerYield.sampleInterval
            _ = await yield.allowance(inFlight: 1, now: now)
        }
        now += WorkerYield.sampleInterval
        record(window, busyAnswersTaking: .milliseconds(50))
        #expect(await yield.allowance(inFlight: 0, now: now) == 1)
        #expect(await yield.allowance(inFlight: 0, now: now + .milliseconds(49)) == 0)
        #expect(await yield.allowance(inFlight: 1, now: now + WorkerYield.trickleInterval) == 1)

        // Three busy, fast samples give back 16 / 16 = 1.
        for sample in 1...3 {
            record(window, busyAnswersTaking: .milliseconds(1))
            let at = now + WorkerYield.sampleInterval * sample
            _ = await yield.allowance(inFlight: 0, now: at)  // samples (and may trickle one)
            // Asked again at the same moment: no trickle due, only the allowance.
            #expect(await yield.allowance(inFlight: 0, now: at) == (sample < 3 ? 0 : 1))
        }
    }

    private func record(_ window: IntakeLatencyWindow, busyAnswersTaking elapsed: Duration) {
        for _ in 0..<WorkerYieldPolicy.busyAnswers {
            window.record(elapsed)
        }
    }
}

@Suite("WORKER_YIELD_LATENCY_MS")
struct WorkerYieldConfigurationTests {
    private func load(_ value: String?) throws -> ServiceConfiguration {
        var environment = ["APPSTORE_BUNDLE_ID": "com.example.app", "APPSTORE_SHARED_SECRET": "s"]
        environment["WORKER_YIELD_LATENCY_MS"] = value
        return try ServiceConfiguration.load(environment: environment)
    }

    @Test("5 ms unless set; 0 never yields; a value out of range or not a number stops startup naming it")
    func values() throws {
        #expect(try load(nil).workerYieldLatency == .milliseconds(5))
        #expect(try load("12").workerYieldLatency == .milliseconds(12))
        #expect(try load("0").workerYieldLatency == nil)
        #expect(try load("").workerYieldLatency == .milliseconds(5))  // empty is unset, as for every variable
        for bad in ["-1", "60001", "5ms"] {
            let error = try #require(throws: ConfigurationError.self) { try load(bad) }
            #expect(error.setting == "WORKER_YIELD_LATENCY_MS")
        }
    }
}
