import Foundation
import Settings
import Store
import Subscriptions

/// The one way facts reach the store: every use case that applies what Apple said (the
/// worker, `/v1/receipts`, `/v1/transactions`, `revalidate`, `sync`) comes through here.
///
/// Facts are applied inside one database transaction, the caller's when it has more to
/// write with them (the worker marks its entry processed, `revalidate` records its outcome),
/// after every subscription the batches touch is locked in the one global order, so two
/// transactions applying overlapping batches cannot deadlock.
public struct FactApplier: Sendable {
    private let database: any FactDatabase
    private let apps: AppRegistry

    /// Applies through `database`, linking under each app's link policy and writing the
    /// webhook events each app's backend receives.
    public init(database: any FactDatabase, apps: AppRegistry) {
        self.database = database
        self.apps = apps
    }

    /// Applies `batches` in a transaction of their own, linking `appUserID` when given (a
    /// claim the app's link policy refuses throws `UseCaseError.ownedByOtherUser` and stores nothing).
    @discardableResult
    public func apply(_ batches: [FactBatch], appUserID: String? = nil) async throws -> [StatusChange] {
        do {
            let apps = apps
            return try await database.transaction { transaction in
                try Self.apply(batches, notificationID: nil, appUserID: appUserID, apps: apps, in: transaction)
            }
        } catch let refusal as PurchaseOwnership.Refusal {
            throw UseCaseError.ownedByOtherUser(refusal.reason)
        }
    }

    /// Applies `batches` inside `transaction`, the caller's; a refused claim throws
    /// `PurchaseOwnership.Refusal` (the caller's transaction must not commit).
    @discardableResult
    public static func apply(
        _ batches: [FactBatch], notificationID: Int64?, appUserID: String?, apps: AppRegistry, in transaction: any FactTransaction
    ) throws -> [StatusChange] {
        try transaction.lockPurchases(of: batches.map(\.facts))
        return try applyLocked(batches, notificationID: notificationID, appUserID: appUserID, apps: apps, in: transaction)
    }

    /// ``apply(_:notificationID:appUserID:apps:in:)`` for a caller whose transaction already
    /// holds the locks of every subscription `batches` touch (`lockPurchases(of:)` with these
    /// batches among those it locked): for each batch, what is stored is loaded,
    /// ``FactApplication`` plans, and the plan is written.
    @discardableResult
    static func applyLocked(
        _ batches: [FactBatch], notificationID: Int64?, appUserID: String?, app: AppCredentials? = nil, apps: AppRegistry,
        now: Date = Date(), in transaction: any FactTransaction
    ) throws -> [StatusChange] {
        var changes: [StatusChange] = []
        for batch in batches {
            let bundleID = batch.facts.bundleID
            // The caller's app when it resolved the batch's already (the worker, once per claim).
            let known = app?.bundleID == bundleID ? app : nil
            let context = FactApplication.Context(
                claimant: appUserID, linkPolicy: known?.linkPolicy ?? apps.linkPolicies.policy(bundleID: bundleID),
                webhookEvents: known?.webhookEventKinds ?? apps.webhookEvents.kinds(bundleID: bundleID),
                receiptObservedAt: batch.observedAt, now: now,
                finishesTransactions: (known ?? apps.app(bundleID: bundleID))?.finishesTransactions ?? false)
            let stored = try transaction.storedPurchases(for: batch.facts, claimant: appUserID)
            let plan = try FactApplication.plan(stored: stored, incoming: batch.facts, context: context)
            try transaction.write(plan, notificationID: notificationID, now: now)
            changes += plan.statusChanges
        }
        return changes
    }
}
