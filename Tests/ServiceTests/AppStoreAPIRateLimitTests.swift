import AppStore
import Foundation
import HTTPClient
import Testing

@testable import AppStoreServerAPI

@Suite("App Store Server API: per-app token bucket")
struct AppStoreAPIRateLimitTests {
    @Test("a burst is scheduled under the limit: no one-second window holds more than the paced rate allows")
    func burstScheduledUnderTheLimit() async throws {
        // Apple's sandbox 10/s, paced at 9/s with no burst: 30 tokens asked for at once.
        let limiter = AppStoreAPIRateLimiter.pacing(under: 10)
        let start = ContinuousClock.now
        var dues: [ContinuousClock.Instant] = []
        for _ in 0..<30 { dues.append(try await limiter.reserve(at: start)) }
        #expect(dues.first == start)
        for (earlier, later) in zip(dues, dues.dropFirst()) {
            #expect(abs((later - earlier).seconds - 1.0 / 9) < 1e-6)
        }
        // However the window is aligned: at most 0.9 × 10 + 1 = 10, never over Apple's limit.
        let busiest = dues.map { from in dues.filter { $0 >= from && $0 < from + .seconds(1) }.count }.max() ?? 0
        #expect(busiest <= 10)
    }

    @Test("a burst through the client waits for its tokens: it cannot finish sooner than the pacing allows")
    func burstThroughTheClient() async throws {
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
            #expect(harness.server.requests.count == 30)
            // The last request cannot leave before its token is due; a loaded machine only
            // delays it further. (Arrival spacing is not checked here: on a starved machine
            // late wake-ups arrive bunched; the schedule itself is the test above.)
            let last = try #require(harness.server.requests.map(\.arrivedAt).max())
            #expect(last - started >= .milliseconds(3_100))
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
                request.path.hasSuffix("/notifications/test")
                    ? .json(["testNotificationToken": "token-1"]) : .json(["signedTransactionInfo": transaction])
            }
            let client = try harness.client()
            // The schedule: test notifications 1.1 s apart (0.9/s), the other bucket untouched.
            let bucket = client.rateLimiter(for: .production, .testNotification)
            #expect(bucket !== client.rateLimiter(for: .production))
            let start = ContinuousClock.now
            let dues = [try await bucket.reserve(at: start), try await bucket.reserve(at: start), try await bucket.reserve(at: start)]
            #expect(abs((dues[1] - dues[0]).seconds - 1 / 0.9) < 1e-6 && abs((dues[2] - dues[1]).seconds - 1 / 0.9) < 1e-6)
            #expect(try await client.rateLimiter(for: .production).reserve(at: start) == start)

            // Through a fresh client: three test notifications cannot all leave before the
            // third token is due, 2.2 s on; a loaded machine only delays them further.
            let fresh = try harness.client()
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask { _ = try await fresh.requestTestNotification(environment: .production) }
                }
                try await group.waitForAll()
            }
            _ = try await fresh.transactionInfo(transactionID: "9001", environment: .production)
            let tests = harness.server.requests.filter { $0.path.hasSuffix("/notifications/test") }.map(\.arrivedAt).sorted()
            #expect(tests.count == 3)
            #expect(try #require(tests.last) - started >= .milliseconds(2_100))
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
