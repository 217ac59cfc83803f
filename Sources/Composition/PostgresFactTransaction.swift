import AppStore
import Foundation
import Postgres
import Store
import Subscriptions
import UseCases

/// A ``FactTransaction`` on one PostgreSQL transaction: each call is the Store's statement
/// for it, on the transaction's session, except the reports' queue: the chains of every plan
/// written are queued once, by ``finish()``, before the transaction commits.
final class PostgresFactTransaction: FactTransaction {
    let session: PostgresSession
    /// The chains written so far, by environment, for the reports' queue.
    private var reportedChains: [AppStoreEnvironment: Set<String>] = [:]

    init(session: PostgresSession) {
        self.session = session
    }

    func lockPurchases(of facts: [ReceiptFacts]) throws {
        try FactStore.lockSubscriptions(of: facts, in: session)
    }

    func storedPurchases(for facts: ReceiptFacts, claimant: String?) throws -> StoredPurchases {
        try FactStore.load(for: facts, claimant: claimant, in: session)
    }

    func write(_ plan: ApplyPlan, notificationID: Int64?, now: Date) throws {
        try FactStore.write(plan, notificationID: notificationID, now: now, in: session)
        reportedChains[plan.environment, default: []].formUnion(FactStore.reportedChains(of: plan))
    }

    /// Queues the chains written for the reports, one statement an environment.
    func finish() throws {
        for (environment, ids) in reportedChains.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try ReportRollupStore.queue(environment: environment, ids: Array(ids), in: session)
        }
        reportedChains = [:]
    }

    func markProcessed(_ attempts: [ProcessedAttempt]) throws {
        try NotificationInbox.markProcessed(attempts, in: session)
    }

    func recordConsumptionRequest(_ request: NewConsumptionRequest) throws {
        try ConsumptionStore.record(request, in: session)
    }

    func recordConsumptionOutcome(_ outcome: String, environment: AppStoreEnvironment, transactionID: String, decidedAt: Date) throws {
        try ConsumptionStore.recordOutcome(
            outcome, environment: environment, transactionID: transactionID, decidedAt: decidedAt, in: session)
    }

    func recordNotificationEvent(
        _ event: AppleNotificationEvent, bundleID: String, environment: AppStoreEnvironment, webhookEvents: WebhookEventSelection, now: Date
    ) throws {
        try WebhookOutbox.record(event, bundleID: bundleID, environment: environment, webhookEvents: webhookEvents, now: now, in: session)
    }

    func recordExtensionSummary(requestIdentifier: String, bundleID: String, succeededCount: Int?, failedCount: Int?) throws {
        try RenewalExtensionStore.recordSummary(
            requestIdentifier: requestIdentifier, bundleID: bundleID, succeededCount: succeededCount, failedCount: failedCount,
            in: session)
    }

    func recordRevalidation(_ item: RevalidationItem, outcome: String) throws {
        try RevalidationStore.record(item, outcome: outcome, in: session)
    }

    func recordOriginalVersion(
        _ version: OriginalApplicationVersion, appUserID: String, proof: OriginalVersionStore.Proof, appTransactionID: String?
    ) throws {
        try OriginalVersionStore.record(version, appUserID: appUserID, proof: proof, appTransactionID: appTransactionID, in: session)
    }
}

extension PostgresClient: FactDatabase {
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable (any FactTransaction) throws -> Result) async throws -> Result {
        try await withTransaction { session in
            let transaction = PostgresFactTransaction(session: session)
            let result = try body(transaction)
            try transaction.finish()
            return result
        }
    }
}
