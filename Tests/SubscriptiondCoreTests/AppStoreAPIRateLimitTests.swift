import AppStore
import AppStoreServerAPI
import Foundation
import SubscriptiondCore
import Testing

@Suite("App Store Server API: per-app token bucket")
struct AppStoreAPIRateLimitTests {
    @Test("a burst is paced under the limit: no one-second window sees more than the limit")
    func burstHeldToRate() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "9000", environment: "Sandbox")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            // A sandbox limit of 10/s is paced at 9/s without burst: 30 requests need 29 / 9 ≈ 3.2 s.
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
            // Correctness, not speed: a lower bound with margin under the 3.2 s the pacing implies.
            #expect(elapsed >= .milliseconds(2_900))
            // The bucket lets at most 10 leave in any second; on a loaded machine a few may
            // arrive bunched behind a late one, but never the burst an unpaced client sends.
            let arrivals = harness.server.requests.map(\.arrivedAt).sorted()
            let busiest = arrivals.map { start in arrivals.filter { $0 >= start && $0 < start + .seconds(1) }.count }.max() ?? 0
            #expect(busiest <= 13, "\(busiest) requests within one second")
        }
    }

    @Test("a waiting acquire honours the task's cancellation")
    func cancellation() async throws {
        let limiter = AppStoreAPIRateLimiter(ratePerSecond: 0.01, capacity: 1, maximumWait: .seconds(600))
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test("the default limits are Apple's (50/s production, 5/s sandbox, test notifications 1/s and 0.1/s), paced at 90%")
    func defaults() async throws {
        let limits = AppStoreAPIRateLimits()
        #expect(limits.production == 50)
        #expect(limits.sandbox == 5)
        try await APIHarness.with { harness in
            let client = try harness.client()
            #expect(client.rateLimiter(for: .production).ratePerSecond == 45)
            #expect(client.rateLimiter(for: .sandbox).ratePerSecond == 4.5)
            #expect(client.rateLimiter(for: .production, .testNotification).ratePerSecond == 0.9)
            #expect(abs(client.rateLimiter(for: .sandbox, .testNotification).ratePerSecond - 0.09) < 1e-9)
            #expect(client.rateLimiter(for: .production).capacity == 1)
        }
    }

    @Test("test notification requests are held to their own 1/s, apart from the other endpoints' bucket")
    func testNotificationsOnePerSecond() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "9001", environment: "Production")
            harness.server.respond { request in
                request.path.hasSuffix("/notifications/test") ? .json(["testNotificationToken": "token-1"]) : .json(["signedTransactionInfo": transaction])
            }
            let client = try harness.client()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask { _ = try await client.requestTestNotification(environment: .production) }
                }
                try await group.waitForAll()
            }
            // The other endpoints are not held up behind the test notifications' bucket.
            _ = try await client.transactionInfo(transactionID: "9001", environment: .production)
            let tests = harness.server.requests.filter { $0.path.hasSuffix("/notifications/test") }.map(\.arrivedAt).sorted()
            #expect(tests.count == 3)
            // Paced 1.1 s apart. Lower bounds with room for one arrival's jitter: a loaded
            // machine can only spread them further apart.
            for (earlier, later) in zip(tests, tests.dropFirst()) {
                #expect(later - earlier >= .milliseconds(700), "test notifications about one a second")
            }
            #expect(tests[2] - tests[0] >= .milliseconds(1_800))
        }
    }

    @Test("the queue is bounded: a request whose token is further off than maximumWait is refused at once, its reservation returned")
    func theQueueIsBounded() async throws {
        let limiter = AppStoreAPIRateLimiter(ratePerSecond: 1, capacity: 1, maximumWait: .milliseconds(200))
        try await limiter.acquire()
        // The next token is a second away: refused, not queued.
        await #expect(throws: AppStoreAPIRateLimiter.Overloaded.self) { try await limiter.acquire() }
        await #expect(throws: AppStoreAPIRateLimiter.Overloaded.self) { try await limiter.acquire() }
        // The refusals reserved nothing: once one token has refilled, the next request goes at
        // once (had they kept their reservations, it would be two tokens behind and refused).
        try await Task.sleep(for: .milliseconds(1_200))
        try await limiter.acquire()
    }
}
