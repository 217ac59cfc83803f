import AppStore
import AppStoreServerAPI
import Foundation
import Logging
import Settings
import Store
import Synchronization
import Testing
import UseCases

/// ``NotificationProcessor``'s outcomes without a database: what an attempt records when
/// Apple or the database fails, under a ``RetryPolicy`` of 10 s doubling, no jitter, 5
/// attempts, 2 for answers worth only a few tries.
@Suite("Use cases without a database: a notification's attempt and its outcome")
struct NotificationAttemptTests {
    static let bundleID = "com.example.app"
    static let policy = RetryPolicy(baseDelay: .seconds(10), maximumAttempts: 5, limitedAttempts: 2, jitter: 0)
    static let logger = Logger(label: "use-cases.attempts")

    /// A stored version 1 body carrying a receipt, and one carrying none (its subscription's stored receipt is verified).
    static let withReceipt =
        #"{"notification_type":"DID_RENEW","bid":"com.example.app","unified_receipt":{"latest_receipt":"UkVDRUlQVA=="}}"#
    static let withoutReceipt = #"{"notification_type":"DID_RENEW","bid":"com.example.app","original_transaction_id":"300"}"#

    static func apps() throws -> AppRegistry {
        try ServiceConfiguration.load(environment: ["APPSTORE_BUNDLE_ID": bundleID, "APPSTORE_SHARED_SECRET": "secret"]).apps
    }

    static func claim(attempt: Int, body: String = withReceipt) -> ClaimedNotification {
        ClaimedNotification(
            id: 7, source: .v1, body: body, bundleID: bundleID, environment: .production, appUserID: nil, attempt: attempt,
            claimedAt: Date(), receivedAt: Date(timeIntervalSinceNow: -60))
    }

    static func processor(
        apple: VerificationResult?, outcomes: RecordingOutcomes, database: any FactDatabase = InMemoryFactDatabase(),
        receipts: StubReceipts = StubReceipts(result: .success(nil)), deadline: Duration? = nil
    ) throws -> NotificationProcessor {
        NotificationProcessor(
            database: database, inbox: outcomes, receipts: receipts,
            evidence: AppleEvidence(receipts: ScriptedVerifier(apple), api: nil), apps: try apps(), retryPolicy: policy,
            attemptDeadline: deadline)
    }

    /// Runs attempt `attempt` and returns its outcome with the retry's delay from the start, in whole seconds.
    static func attempt(
        _ processor: NotificationProcessor, _ attempt: Int, body: String = withReceipt, outcomes: RecordingOutcomes
    ) async throws -> (NotificationProcessor.Outcome, delay: Int?) {
        let outcome = try await processor.process(claim(attempt: attempt, body: body), logger: logger)
        // Measured from the end of the attempt, when the retry time was just set: an attempt that
        // waits out its deadline on a loaded machine must not shift the delay it scheduled.
        let end = Date()
        guard case .retry(let at, _)? = outcomes.recorded.last else { return (outcome, nil) }
        return (outcome, Int(at.timeIntervalSince(end).rounded()))
    }

    static let unavailable = VerificationResult.retry(reason: "upstream production answered HTTP 503", limited: false)

    @Test("a retryable upstream failure schedules a retry at the policy's time: 10 s after attempt 1, 40 s after attempt 3")
    func retryAtPolicyTime() async throws {
        for (attempt, seconds) in [(1, 10), (3, 40)] {
            let outcomes = RecordingOutcomes()
            let processor = try Self.processor(apple: Self.unavailable, outcomes: outcomes)
            let (outcome, delay) = try await Self.attempt(processor, attempt, outcomes: outcomes)
            #expect(outcome == .retrying(reason: "upstream production answered HTTP 503"))
            #expect(delay == seconds, "attempt \(attempt)")
            #expect(outcomes.recorded.count == 1)
        }
    }

    @Test("attempts exhausted: dead, 'gave up after N attempts', at the full budget, and at the small one for a limited answer")
    func exhausted() async throws {
        let outcomes = RecordingOutcomes()
        let processor = try Self.processor(apple: Self.unavailable, outcomes: outcomes)
        #expect(try await Self.attempt(processor, 4, outcomes: outcomes).0 == .retrying(reason: "upstream production answered HTTP 503"))
        let reason = "gave up after 5 attempts: upstream production answered HTTP 503"
        #expect(try await processor.process(Self.claim(attempt: 5), logger: Self.logger) == .dead(reason: reason))
        #expect(outcomes.recorded.last == .dead(reason: reason))

        let garbled = RecordingOutcomes()
        let limited = try Self.processor(apple: .retry(reason: "status 21002", limited: true), outcomes: garbled)
        #expect(try await limited.process(Self.claim(attempt: 1), logger: Self.logger) == .retrying(reason: "status 21002"))
        #expect(
            try await limited.process(Self.claim(attempt: 2), logger: Self.logger)
                == .dead(reason: "gave up after 2 attempts: status 21002"))
    }

    @Test("a refusal that cannot heal is dead at once, on the first attempt, and nothing is scheduled")
    func refusedIsDead() async throws {
        let outcomes = RecordingOutcomes()
        let processor = try Self.processor(apple: .permanent(reason: "status 21010: the receipt cannot be authorized"), outcomes: outcomes)
        #expect(
            try await processor.process(Self.claim(attempt: 1), logger: Self.logger)
                == .dead(reason: "status 21010: the receipt cannot be authorized"))
        #expect(outcomes.recorded == [.dead(reason: "status 21010: the receipt cannot be authorized")])
    }

    @Test(
        "a database that cannot answer is retried under the full budget, not the small one, counted by the claim's attempts; refused data is dead at once"
    )
    func databaseFailures() async throws {
        // Reading the subscription's stored receipt, at attempt 3 (past the small budget of 2).
        let reading = RecordingOutcomes()
        let busy = try Self.processor(apple: Self.unavailable, outcomes: reading, receipts: StubReceipts(result: .failure(.busy)))
        let (outcome, delay) = try await Self.attempt(busy, 3, body: Self.withoutReceipt, outcomes: reading)
        #expect(outcome == .retrying(reason: "database: busy"))
        #expect(delay == 40)

        // Applying: the same, until the claim's attempts run out.
        let applying = RecordingOutcomes()
        let down = try Self.processor(
            apple: try ScriptedVerifier.lifetimePurchase(), outcomes: applying,
            database: FailingFactDatabase(error: StoreFailure.unreachable))
        #expect(try await down.process(Self.claim(attempt: 4), logger: Self.logger) == .retrying(reason: "database: unreachable"))
        #expect(
            try await down.process(Self.claim(attempt: 5), logger: Self.logger)
                == .dead(reason: "gave up after 5 attempts: database: unreachable"))

        // The statement refused for its data: the same facts would be refused again.
        let refusing = RecordingOutcomes()
        let refused = try Self.processor(
            apple: try ScriptedVerifier.lifetimePurchase(), outcomes: refusing,
            database: FailingFactDatabase(error: StoreFailure.dataRefused))
        #expect(
            try await refused.process(Self.claim(attempt: 1), logger: Self.logger)
                == .dead(reason: "the database refused its facts: dataRefused"))
    }

    @Test(
        "a claim superseded meanwhile: the fence refuses the retry or the dead mark, or the apply finds it stale; the outcome is .superseded"
    )
    func superseded() async throws {
        let stale = RecordingOutcomes(claimIsCurrent: false)
        let retrying = try Self.processor(apple: Self.unavailable, outcomes: stale)
        #expect(try await retrying.process(Self.claim(attempt: 1), logger: Self.logger) == .superseded)
        let dying = try Self.processor(apple: .permanent(reason: "status 21010"), outcomes: stale)
        #expect(try await dying.process(Self.claim(attempt: 1), logger: Self.logger) == .superseded)

        let outcomes = RecordingOutcomes()
        let applying = try Self.processor(
            apple: try ScriptedVerifier.lifetimePurchase(), outcomes: outcomes,
            database: FailingFactDatabase(error: StaleClaimError(notificationID: 7, attempt: 1)))
        #expect(try await applying.process(Self.claim(attempt: 1), logger: Self.logger) == .superseded)
        #expect(outcomes.recorded.isEmpty, "a stale claim records nothing")
    }

    @Test("the attempt deadline: Apple still silent when it passes is a retry under the full budget, and Apple's call is cancelled")
    func deadline() async throws {
        let outcomes = RecordingOutcomes()
        let apple = ScriptedVerifier(nil)
        let processor = NotificationProcessor(
            database: InMemoryFactDatabase(), inbox: outcomes, receipts: StubReceipts(result: .success(nil)),
            evidence: AppleEvidence(receipts: apple, api: nil), apps: try Self.apps(), retryPolicy: Self.policy,
            attemptDeadline: .milliseconds(200))
        let (outcome, delay) = try await Self.attempt(processor, 3, outcomes: outcomes)
        #expect(outcome == .retrying(reason: "the attempt ran past its deadline of 0 s waiting for Apple"))
        #expect(delay == 40)
        #expect(apple.made == (calls: 1, cancelled: 1))
    }

    @Test("Apple's facts applied: processed, nothing else recorded; the database failing to record an outcome is thrown")
    func processedAndRecordingFailure() async throws {
        let outcomes = RecordingOutcomes()
        let database = InMemoryFactDatabase()
        let processor = try Self.processor(apple: try ScriptedVerifier.lifetimePurchase(), outcomes: outcomes, database: database)
        #expect(try await processor.process(Self.claim(attempt: 1), logger: Self.logger) == .processed)
        #expect(outcomes.recorded.isEmpty && database.state.withLock { $0.plansWritten } == 1)

        let failing = try Self.processor(apple: Self.unavailable, outcomes: RecordingOutcomes(failure: StoreFailure.unreachable))
        await #expect(throws: StoreFailure.unreachable) { try await failing.process(Self.claim(attempt: 1), logger: Self.logger) }
    }
}
