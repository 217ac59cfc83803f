import Foundation
import Logging
import Postgres
import ServiceSupport
import Subscriptions
import Synchronization
import TestSupport
import Testing
import UseCases

@testable import Store
@testable import StoredAnswers

/// The background writer stores what reads computed, off the request; whatever it cannot
/// store is only missing, and the next read computes it again.
@Suite("AnswerWriter: computed answers stored off the request")
struct AnswerWriterTests {
    /// Counts the writer's outcomes.
    final class Outcomes: Sendable {
        private let counts = Mutex<[AnswerWriter.Outcome: Int]>([:])

        func record(_ outcome: AnswerWriter.Outcome, _ count: Int) {
            counts.withLock { $0[outcome, default: 0] += count }
        }

        subscript(_ outcome: AnswerWriter.Outcome) -> Int {
            counts.withLock { $0[outcome, default: 0] }
        }
    }

    private static func answers(_ client: PostgresClient, _ outcomes: Outcomes) -> (answers: ReadAnswers, writer: AnswerWriter) {
        ReadAnswers(database: client, logger: Logger(label: "test")).writingInBackground(onOutcome: outcomes.record)
    }

    @Test("reads hand their answers to the writer; after a flush the next reads are served as stored, the same bytes")
    func storedOffTheRead() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await ReadAnswersTests.storeFixture(client, now: now)
            let outcomes = Outcomes()
            let (answers, writer) = Self.answers(client, outcomes)

            let subscriptions = try await ["100", "200"].asyncMap {
                try #require(try await answers.subscriptionBody(originalTransactionID: $0, now: now))
            }
            let subscriber = try #require(try await answers.subscriberBody(appUserID: ReadAnswersTests.user, now: now))
            #expect(subscriptions.map(\.origin) == [.computed, .computed] && subscriber.origin == .computed)
            await writer.flush()
            #expect(outcomes[.stored] == 3 && outcomes[.dropped] == 0 && outcomes[.failed] == 0)
            for (id, first) in zip(["100", "200"], subscriptions) {
                let again = try #require(try await answers.subscriptionBody(originalTransactionID: id, now: now))
                #expect(again.origin == .stored && again.body == first.body)
            }
            let subscriberAgain = try #require(try await answers.subscriberBody(appUserID: ReadAnswersTests.user, now: now))
            #expect(subscriberAgain.origin == .stored && subscriberAgain.body == subscriber.body)

            // Eligibility hands over the user's answer too (with the group usage it is read from).
            try await client.execute("UPDATE products SET updated_at = now()")  // every stored answer goes stale
            let service = EligibilityService(policy: .apple, readAnswers: answers)
            let eligibility = try await service.answersWithOrigin(
                appUserID: ReadAnswersTests.user, productIDs: ReadAnswersTests.asked, now: now)
            #expect(eligibility.origin == .computed)
            await writer.flush()
            #expect(outcomes[.stored] == 4)
            let eligibilityAgain = try await service.answersWithOrigin(
                appUserID: ReadAnswersTests.user, productIDs: ReadAnswersTests.asked, now: now)
            #expect(eligibilityAgain.origin == .stored && eligibilityAgain.answers == eligibility.answers)
        }
    }

    @Test("a batch whose write fails is counted failed, and the next read computes and stores the answer")
    func failedWriteIsOnlyMissing() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await ReadAnswersTests.storeFixture(client, now: now)
            let outcomes = Outcomes()
            let (answers, writer) = Self.answers(client, outcomes)
            // Another transaction holds the table past the writer's 100 ms lock wait, until the
            // write has failed (however slow the machine); reads of it go on.
            let released = Mutex(false)
            let holder = Task {
                try await client.withTransaction { session in
                    try session.execute("LOCK TABLE subscription_answers IN EXCLUSIVE MODE")
                    let deadline = ContinuousClock.now + .seconds(60)
                    while !released.withLock({ $0 }), ContinuousClock.now < deadline {
                        try session.execute("SELECT pg_sleep(0.02)")
                    }
                }
            }
            while try await client.query(
                "SELECT 1 FROM pg_locks WHERE relation = 'subscription_answers'::regclass AND mode = 'ExclusiveLock' AND granted"
            ).isEmpty {
                try await Task.sleep(for: .milliseconds(10))
            }
            let first = try #require(try await answers.subscriptionBody(originalTransactionID: "100", now: now))
            await writer.flush()
            #expect(first.origin == .computed && outcomes[.failed] == 1 && outcomes[.stored] == 0)
            released.withLock { $0 = true }
            try await holder.value

            let second = try #require(try await answers.subscriptionBody(originalTransactionID: "100", now: now))
            await writer.flush()
            #expect(second.origin == .computed && second.body == first.body && outcomes[.stored] == 1)
            #expect(try await answers.subscriptionBody(originalTransactionID: "100", now: now)?.origin == .stored)
        }
    }

    @Test("a closed writer drops what it is handed; reads still answer")
    func closedWriterDrops() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await ReadAnswersTests.storeFixture(client, now: now)
            let outcomes = Outcomes()
            let (answers, writer) = Self.answers(client, outcomes)
            writer.close()
            for _ in 0..<2 {
                #expect(try await answers.subscriptionBody(originalTransactionID: "100", now: now)?.origin == .computed)
            }
            await writer.flush()
            #expect(outcomes[.dropped] == 2 && outcomes[.stored] == 0)
        }
    }

    @Test("the queue is bounded, a batch takes at most the batch size in arrival order, and the loop ends when it is empty")
    func queueBoundsAndBatches() {
        var queue = AnswerWriteQueue(maximumQueued: 3)
        let stamp = AnswerStamp(version: 1, catalogGeneration: 1)
        func subscription(_ id: Int) -> PendingAnswer {
            .subscription(SubscriptionAnswer(originalTransactionID: "\(id)", body: "{}", stamp: stamp, validUntil: nil))
        }
        let subscriber = PendingAnswer.subscriber(
            SubscriberAnswer(appUserID: "user", body: "{}", entitlementsBody: "{}", usage: .none, stamp: stamp, validUntil: nil))

        #expect(queue.admit(subscription(1)) == .startDrain)
        #expect(queue.admit(subscription(2)) == .queued)
        #expect(queue.admit(subscriber) == .queued)
        #expect(queue.admit(subscription(3)) == .full)

        guard case .write(let subscriptions, let subscribers) = queue.takeBatch(maximumSize: 1) else {
            Issue.record("a queue with answers gave no batch")
            return
        }
        #expect(subscriptions.map(\.originalTransactionID) == ["1"] && subscribers.isEmpty)
        // Room again, and the loop still runs: nothing new starts one.
        #expect(queue.admit(subscription(4)) == .queued)
        guard case .write(let more, let users) = queue.takeBatch(maximumSize: 5) else {
            Issue.record("the second batch is missing")
            return
        }
        #expect(more.map(\.originalTransactionID) == ["2", "4"] && users.map(\.appUserID) == ["user"])
        guard case .idle = queue.takeBatch(maximumSize: 5) else {
            Issue.record("an empty queue gave a batch")
            return
        }
        #expect(!queue.writing)
        #expect(queue.admit(subscription(5)) == .startDrain)
        queue.close()
        #expect(queue.admit(subscription(6)) == .closed)
    }
}

extension Sequence {
    /// `map` with an async transform, in order.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
