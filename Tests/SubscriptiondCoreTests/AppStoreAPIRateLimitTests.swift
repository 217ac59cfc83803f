import AppStore
import Foundation
import SubscriptiondCore
import Testing

@Suite("App Store Server API: per-app token bucket")
struct AppStoreAPIRateLimitTests {
    @Test("a burst larger than the bucket is held to the rate")
    func burstHeldToRate() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "9000", environment: "Sandbox")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            // Sandbox at 10/s with a bucket of 10: 30 requests need at least 2 s of refill.
            let client = try harness.client(rateLimits: .init(production: 50, sandbox: 10))
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<30 {
                    group.addTask { _ = try await client.transactionInfo(transactionID: "9000", environment: .sandbox) }
                }
                try await group.waitForAll()
            }
            let elapsed = ContinuousClock.now - started
            #expect(harness.server.requests.count == 30)
            // Correctness, not speed: generous margin under the 2 s the rate implies.
            #expect(elapsed >= .milliseconds(1_700))
            // No one-second window after the bucket drained saw more than the rate plus the bucket.
            let arrivals = harness.server.requests.map(\.arrivedAt).sorted()
            let firstSecond = arrivals.filter { $0 < arrivals[0] + .seconds(1) }.count
            #expect(firstSecond <= 21)
        }
    }

    @Test("a waiting acquire honours the task's cancellation")
    func cancellation() async throws {
        let limiter = AppStoreAPIRateLimiter(ratePerSecond: 0.01, capacity: 1)
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test("the default limits are Apple's: 50/s production, 5/s sandbox")
    func defaults() async throws {
        let limits = AppStoreAPIRateLimits()
        #expect(limits.production == 50)
        #expect(limits.sandbox == 5)
        try await APIHarness.with { harness in
            let client = try harness.client()
            #expect(client.rateLimiter(for: .production).ratePerSecond == 50)
            #expect(client.rateLimiter(for: .sandbox).ratePerSecond == 5)
        }
    }
}
