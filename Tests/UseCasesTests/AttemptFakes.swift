import AppStore
import AppStoreServerAPI
import Foundation
import Logging
import Store
import Synchronization
import UseCases

/// In-memory stand-ins for what an attempt and a purchase touch besides the facts: Apple's
/// verifyReceipt, the inbox's outcomes and queue, the stored receipts, the subscriber document.

/// verifyReceipt answering one scripted answer to every receipt, or (nil) never answering
/// until its caller is cancelled.
final class ScriptedVerifier: ReceiptVerifying {
    private let answer: VerificationResult?
    private let calls = Mutex<(made: Int, cancelled: Int)>((0, 0))

    init(_ answer: VerificationResult?) {
        self.answer = answer
    }

    /// Calls made, and how many of them ended because their caller was cancelled.
    var made: (calls: Int, cancelled: Int) { calls.withLock { ($0.made, $0.cancelled) } }

    func verify(receiptData: String, bundleID: String, sharedSecret: String?, logger: Logger) async -> VerificationResult {
        calls.withLock { $0.made += 1 }
        if let answer { return answer }
        try? await Task.sleep(for: .seconds(3_600))
        if Task.isCancelled { calls.withLock { $0.cancelled += 1 } }
        return .retry(reason: "cancelled while waiting for Apple", limited: false)
    }

    /// Apple vouching for one lifetime purchase, transaction 300, bought an hour ago.
    static func lifetimePurchase() throws -> VerificationResult {
        let purchased = Int((Date().timeIntervalSince1970 - 3_600) * 1_000)
        let body = """
            {"status":0,"environment":"Production","receipt":{"bundle_id":"com.example.app","in_app":[]},
             "latest_receipt_info":[{"transaction_id":"300","original_transaction_id":"300","product_id":"pro.lifetime",
                                     "quantity":"1","purchase_date_ms":"\(purchased)"}]}
            """
        return .verified(try VerifyReceiptResponse.decode(from: Array(body.utf8)), observedAt: Date(), endpoint: .production)
    }
}

/// The inbox's fenced outcomes in memory: what was recorded, in order.
final class RecordingOutcomes: NotificationOutcomes {
    enum Recorded: Equatable {
        case retry(at: Date, reason: String)
        case dead(reason: String)
    }

    private let claimIsCurrent: Bool
    private let failure: (any Error)?
    private let log = Mutex<[Recorded]>([])

    /// Outcomes whose fence passes when `claimIsCurrent`; with `failure`, every call throws it instead.
    init(claimIsCurrent: Bool = true, failure: (any Error)? = nil) {
        self.claimIsCurrent = claimIsCurrent
        self.failure = failure
    }

    var recorded: [Recorded] { log.withLock { $0 } }

    func scheduleRetry(_ notification: ClaimedNotification, at next: Date, reason: String) async throws -> Bool {
        try record(.retry(at: next, reason: reason))
    }

    func markDead(_ notification: ClaimedNotification, reason: String) async throws -> Bool {
        try record(.dead(reason: reason))
    }

    private func record(_ outcome: Recorded) throws -> Bool {
        if let failure { throw failure }
        guard claimIsCurrent else { return false }
        log.withLock { $0.append(outcome) }
        return true
    }
}

/// Stored receipts: one answer for every subscription, or a failure.
struct StubReceipts: StoredReceiptSource {
    let result: Result<String?, StoreFailure>

    func latestReceipt(bundleID: String, environment: AppStoreEnvironment, originalTransactionIDs: [String]) async throws -> String? {
        try result.get()
    }
}

/// A database whose every transaction fails with `error`, writing nothing.
struct FailingFactDatabase: FactDatabase {
    let error: any Error

    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any FactTransaction) throws -> Result) async throws -> Result {
        throw error
    }
}

/// The inbox as the purchases' queue: entries kept in memory once "committed", or a failure.
final class InMemoryPurchaseQueue: PurchaseQueue {
    private let failure: StoreFailure?
    private let entries = Mutex<[InboxEntry]>([])

    init(failure: StoreFailure? = nil) {
        self.failure = failure
    }

    var stored: [InboxEntry] { entries.withLock { $0 } }

    func insert(_ entry: InboxEntry) async throws -> InboxInsertResult {
        if let failure { throw failure }
        return entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.dedupeKey == entry.dedupeKey }) { return .duplicate(id: Int64(index + 1)) }
            entries.append(entry)
            return .accepted(id: Int64(entries.count))
        }
    }
}

/// A subscriber document naming its user, whatever is stored.
struct NamingSubscriberDocuments: SubscriberDocumentSource {
    func subscriberBodyEvenIfUnknown(appUserID: String, now: Date) async throws -> String {
        #"{"app_user_id":"\#(appUserID)"}"#
    }
}

/// Counts calls (the worker's wake-up).
final class CallCounter: Sendable {
    private let count = Mutex(0)
    var calls: Int { count.withLock { $0 } }
    func call() { count.withLock { $0 += 1 } }
}
