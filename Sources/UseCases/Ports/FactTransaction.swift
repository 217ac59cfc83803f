import AppStore
import Foundation
import Store
import Subscriptions

/// One database transaction in which a use case applies facts and records what goes with
/// them: everything written in it commits together or not at all (PostgreSQL in production).
public protocol FactTransaction {
    /// Takes the locks of every purchase `facts` touch, in the one global order.
    func lockPurchases(of facts: [ReceiptFacts]) throws
    /// What is stored of the purchases `facts` speak about (the locks must be held).
    func storedPurchases(for facts: ReceiptFacts, claimant: String?) throws -> StoredPurchases
    /// Writes a plan ``FactApplication`` made from what `storedPurchases` read.
    func write(_ plan: ApplyPlan, notificationID: Int64?, now: Date) throws
    /// Closes claimed notifications as processed, all at once; throws `StaleClaimError` when
    /// any claim is no longer its own.
    func markProcessed(_ attempts: [ProcessedAttempt]) throws
    /// Records a CONSUMPTION_REQUEST to answer.
    func recordConsumptionRequest(_ request: NewConsumptionRequest) throws
    /// Records Apple's refund decision after a CONSUMPTION_REQUEST.
    func recordConsumptionOutcome(_ outcome: String, environment: AppStoreEnvironment, transactionID: String, decidedAt: Date) throws
    /// Records the webhook event a notification type brings of its own, when the app's selection has its type.
    func recordNotificationEvent(
        _ event: AppleNotificationEvent, bundleID: String, environment: AppStoreEnvironment, webhookEvents: WebhookEventSelection, now: Date
    ) throws
    /// Records a RENEWAL_EXTENSION summary for the request it answers.
    func recordExtensionSummary(requestIdentifier: String, bundleID: String, succeededCount: Int?, failedCount: Int?) throws
    /// Records how a revalidation of one stored receipt went.
    func recordRevalidation(_ item: RevalidationItem, outcome: String) throws
    /// Records the original application version Apple vouched for.
    func recordOriginalVersion(
        _ version: OriginalApplicationVersion, appUserID: String, proof: OriginalVersionStore.Proof, appTransactionID: String?
    ) throws
}

/// Runs ``FactTransaction``s.
public protocol FactDatabase: Sendable {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any FactTransaction) throws -> Result) async throws -> Result
}
