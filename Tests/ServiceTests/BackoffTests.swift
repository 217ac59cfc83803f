import Foundation
import HTTPClient
import Testing
import UseCases

/// The one backoff and its named configurations.
@Suite("Backoff: doubling from the base, capped, spread by the jitter")
struct BackoffTests {
    @Test("without jitter (random 0.5) the delays double from the base and stop at the maximum")
    func doubling() {
        let notifications = (1...12).map { Backoff.notifications.delay(afterFailure: $0, random: 0.5) }
        #expect(notifications == [2, 4, 8, 16, 32, 64, 128, 256, 512, 1_024, 1_800, 1_800])
        #expect(Backoff.webhooks.delay(afterFailure: 1, random: 0.5) == 10)
        #expect(Backoff.webhooks.delay(afterFailure: 9, random: 0.5) == 2_560)
        #expect(Backoff.webhooks.delay(afterFailure: 10, random: 0.5) == 3_600)
        #expect(Backoff.appStoreAPICall.delay(afterFailure: 1, random: 0.5) == 0.5)
        #expect(Backoff.appStoreAPICall.delay(afterFailure: 7, random: 0.5) == 30)
    }

    @Test("the jitter spreads each delay by at most its fraction; huge failure counts stay finite")
    func spread() {
        let backoff = Backoff(base: .seconds(10), maximum: .seconds(100), jitter: 0.2)
        #expect(backoff.delay(afterFailure: 1, random: 0) == 8)
        #expect(backoff.delay(afterFailure: 1, random: 1) == 12)
        // Draws outside 0...1 are clamped.
        #expect(backoff.delay(afterFailure: 1, random: 7) == 12)
        #expect(backoff.delay(afterFailure: Int.max, random: 0.5) == 100)
        #expect(backoff.delay(afterFailure: 0, random: 0.5) == 10)
        #expect(Backoff(base: .zero, maximum: .zero).delay(afterFailure: 3) == 0.001)
    }

    @Test("the worker's policy gives up after its attempts; the limited kind after three")
    func retryPolicy() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let policy = RetryPolicy()
        #expect(policy.nextAttempt(after: 1, limited: false, now: now, random: 0.5) == now.addingTimeInterval(2))
        #expect(policy.nextAttempt(after: 59, limited: false, now: now, random: 0.5) == now.addingTimeInterval(1_800))
        #expect(policy.nextAttempt(after: 60, limited: false, now: now) == nil)
        #expect(policy.nextAttempt(after: 2, limited: true, now: now, random: 0.5) == now.addingTimeInterval(4))
        #expect(policy.nextAttempt(after: 3, limited: true, now: now) == nil)
    }
}
