import Access
import AppStoreServerAPI
import AppStoreSignature
import Foundation
import Logging
import Settings
import Store
import Synchronization
import Testing
import UseCases

/// ``PurchaseRecorder`` without a database: a receipt Apple cannot vouch for now is queued
/// for the worker (`202 pending`) and never dropped; one Apple refuses is a refusal (`422`).
@Suite("Use cases without a database: recording a purchase")
struct PurchaseRecorderTests {
    static let receipt = "UkVDRUlQVA=="
    static let logger = Logger(label: "use-cases.purchases")

    /// A recorder over in-memory ports whose verifyReceipt answers `apple` (nil: never).
    struct Setup {
        let recorder: PurchaseRecorder
        let queue: InMemoryPurchaseQueue
        let database: InMemoryFactDatabase
        let woken: CallCounter
        let apps: AppRegistry

        init(apple: VerificationResult?, queue: InMemoryPurchaseQueue = InMemoryPurchaseQueue(), wait: Duration = .seconds(5)) throws {
            let apps = try NotificationAttemptTests.apps()
            let (database, woken) = (InMemoryFactDatabase(), CallCounter())
            // Never asked here: receipts go to verifyReceipt, signed transactions are not sent.
            let roots = AppleRootCertificates([])
            recorder = PurchaseRecorder(
                evidence: AppleEvidence(receipts: ScriptedVerifier(apple), api: nil), applier: FactApplier(database: database, apps: apps),
                queue: queue, answers: NamingSubscriberDocuments(), signatures: SignedPayloadVerifier(roots: roots),
                receiptProof: AppReceiptVerifier(roots: roots), apps: apps, wait: wait, onQueued: { woken.call() })
            (self.queue, self.database, self.woken, self.apps) = (queue, database, woken, apps)
        }

        func record(visibleTo visible: AppScope = .all) async throws -> PurchaseRecorder.Recorded {
            let submission = try ReceiptSubmission(receiptData: PurchaseRecorderTests.receipt, bundleID: nil, apps: apps)
            return try await recorder.record(
                receipt: submission, appUserID: "alice", visibleTo: visible, logger: PurchaseRecorderTests.logger)
        }

        /// The one queued entry's source, user and stored receipt.
        func queued() throws -> (InboxSource, String?, String?) {
            let entry = try #require(queue.stored.first)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(entry.body.utf8)) as? [String: String])
            return (entry.source, entry.appUserID, body["receipt_data"])
        }
    }

    @Test(
        "Apple unavailable (a 503, or 21002 worth a few tries): the receipt is queued with its user, the worker woken, nothing applied",
        arguments: [
            VerificationResult.retry(reason: "upstream production answered HTTP 503", limited: false),
            .retry(reason: "status 21002", limited: true),
        ])
    func queuedWhenUnavailable(_ apple: VerificationResult) async throws {
        let setup = try Setup(apple: apple)
        guard case .queued = try await setup.record() else { throw Failure("not queued") }
        #expect(try setup.queued() == (.receipt, "alice", Self.receipt))
        #expect(setup.queue.stored.count == 1 && setup.woken.calls == 1)
        #expect(setup.database.state.withLock { $0.plansWritten } == 0)
    }

    @Test("Apple silent past the wait: queued all the same, never dropped")
    func queuedWhenSilent() async throws {
        let setup = try Setup(apple: nil, wait: .milliseconds(100))
        guard case .queued = try await setup.record() else { throw Failure("not queued") }
        #expect(try setup.queued() == (.receipt, "alice", Self.receipt))
    }

    @Test("the queue cannot store it: the caller gets the database's failure (503), never a 202 for a purchase kept nowhere")
    func queueFailureIsThrown() async throws {
        let setup = try Setup(apple: nil, queue: InMemoryPurchaseQueue(failure: .unreachable), wait: .milliseconds(50))
        await #expect(throws: StoreFailure.unreachable) { _ = try await setup.record() }
        #expect(setup.woken.calls == 0)
    }

    @Test("Apple rejects the receipt: receiptRejected (422) with Apple's reason; nothing queued, nothing applied")
    func rejected() async throws {
        let setup = try Setup(apple: .permanent(reason: "status 21010: the receipt cannot be authorized"))
        await #expect(
            throws: UseCaseError.receiptRejected("the App Store rejected the receipt: status 21010: the receipt cannot be authorized")
        ) {
            _ = try await setup.record()
        }
        #expect(setup.queue.stored.isEmpty && setup.woken.calls == 0)
        #expect(setup.database.state.withLock { $0.plansWritten } == 0)
    }

    @Test("Apple vouches: applied with the user linked, the subscriber document answered, nothing queued")
    func applied() async throws {
        let setup = try Setup(apple: try ScriptedVerifier.lifetimePurchase())
        guard case .applied(let body) = try await setup.record() else { throw Failure("not applied") }
        #expect(body == #"{"app_user_id":"alice"}"#)
        #expect(setup.database.state.withLock { $0.owners["300"] } == ["alice"])
        #expect(setup.queue.stored.isEmpty)
    }

    @Test(
        "a key limited to another app is refused (403) before Apple is asked: nothing applied, linked or queued, whether Apple vouches or not"
    )
    func anotherAppsKey() async throws {
        for apple in [try ScriptedVerifier.lifetimePurchase(), .retry(reason: "upstream production answered HTTP 503", limited: false)] {
            let setup = try Setup(apple: apple)
            await #expect(throws: UseCaseError.forbidden("the key does not see the app \(NotificationAttemptTests.bundleID)")) {
                _ = try await setup.record(visibleTo: .only(["com.example.other"]))
            }
            #expect(setup.queue.stored.isEmpty && setup.woken.calls == 0)
            #expect(setup.database.state.withLock { $0.plansWritten } == 0)
        }
        guard
            case .applied = try await Setup(apple: try ScriptedVerifier.lifetimePurchase()).record(
                visibleTo: .only([NotificationAttemptTests.bundleID]))
        else { throw Failure("a key of the app itself was refused") }
    }

    @Test("eligibility with a receipt queues nothing: Apple unavailable is unavailable (503), a rejection receiptRejected (422)")
    func factsOnly() async throws {
        let unavailable = try Setup(apple: .retry(reason: "upstream production answered HTTP 503", limited: false))
        let submission = try ReceiptSubmission(receiptData: Self.receipt, bundleID: nil, apps: unavailable.apps)
        await #expect(throws: UseCaseError.unavailable("the App Store cannot verify the receipt right now; retry later")) {
            _ = try await unavailable.recorder.facts(of: submission, logger: Self.logger)
        }
        #expect(unavailable.queue.stored.isEmpty)
        let rejecting = try Setup(apple: .permanent(reason: "status 21003"))
        await #expect(throws: UseCaseError.receiptRejected("the App Store rejected the receipt: status 21003")) {
            _ = try await rejecting.recorder.facts(of: submission, logger: Self.logger)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
