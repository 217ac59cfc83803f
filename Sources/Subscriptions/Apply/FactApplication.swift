import AppStore
import Foundation

/// Applying facts from Apple, as a pure plan: `stored + incoming + policy + now → plan`
/// (DESIGN.md, "Architecture"). The store loads ``StoredPurchases`` under the purchases'
/// locks and writes the ``ApplyPlan``; everything decided in between is here, so the stored
/// state depends only on the facts, never on the order or number of times they arrive.
///
/// - Transactions merge with what is stored and never regress (``TransactionFact/merged(with:)``);
///   one that only restates a stored one with a newer statement time is a restatement.
/// - Renewal info replaces the stored one only when it is newer.
/// - Each subscription the facts speak about is recomputed from all its facts at `now`, with
///   its lifecycle events against the stored row (``LifecycleRule``).
/// - Each purchase's links follow ``PurchaseOwnership`` under the app's link policy, with the
///   claimant of the facts; a claim the rule refuses throws its refusal, and nothing of the
///   batch may be written. Facts with neither a claimant nor an app account token for a
///   purchase leave its links alone (their owners need not even be read).
/// - Only the event kinds the app selected are recorded; when it selected
///   `entitlement_changed`, the users of every subscription or purchase that changed, and
///   those who lost one, are reviewed.
/// - A receipt's original application version is recorded for the claimant who proved it.
public enum FactApplication {
    /// What applying a batch needs besides the facts.
    public struct Context: Sendable {
        /// The user the facts were proved for (nil: a notification, a revalidation).
        public var claimant: String?
        /// The app's link policy.
        public var linkPolicy: LinkPolicy
        /// The event kinds the app's backend receives.
        public var webhookEvents: Set<LifecycleEvent.Kind>
        /// When Apple stated the receipt the facts came with.
        public var receiptObservedAt: Date
        /// The time statuses are computed at.
        public var now: Date
        /// Whether the app has this server call Finish Transaction for its one-time purchases (`finish_transactions`).
        public var finishesTransactions: Bool

        public init(
            claimant: String?, linkPolicy: LinkPolicy, webhookEvents: Set<LifecycleEvent.Kind>, receiptObservedAt: Date, now: Date,
            finishesTransactions: Bool = false
        ) {
            self.claimant = claimant
            self.linkPolicy = linkPolicy
            self.webhookEvents = webhookEvents
            self.receiptObservedAt = receiptObservedAt
            self.now = now
            self.finishesTransactions = finishesTransactions
        }
    }

    /// Whether applying `facts` for `claimant` may change who owns purchase `id`, so its
    /// owners and tokens must be read first.
    public static func mayChangeOwners(of id: String, facts: ReceiptFacts, claimant: String?) -> Bool {
        claimant != nil || facts.transactions(of: id).contains { $0.appAccountToken != nil }
    }

    /// The plan that applies `facts` to `stored` in `context`.
    public static func plan(
        stored: StoredPurchases, incoming facts: ReceiptFacts, context: Context
    ) throws(PurchaseOwnership.Refusal) -> ApplyPlan {
        var stored = stored
        var plan = ApplyPlan(environment: facts.environment, bundleID: facts.bundleID)
        let merged = merge(facts.transactions, into: &stored, plan: &plan)
        let subscriptionIDs = facts.subscriptionIDs.sorted()
        for id in subscriptionIDs {
            guard let renewal = facts.renewal(of: id) else { continue }
            if let current = stored.renewals[id], !renewal.isNewer(than: current) { continue }
            plan.renewals.append(renewal)
            stored.wrote(renewal)
        }
        plan.receipt = facts.latestReceipt.map { ($0, context.receiptObservedAt) }
        if context.finishesTransactions { plan.finishes = finishes(of: merged) }

        // Subjects whose change may move their users' entitlements, and users who lost one.
        var moved: [String] = []
        var unlinked: [String] = []
        for id in subscriptionIDs {
            let write = recompute(id, stored: stored, now: context.now)
            if let write { plan.subscriptions.append(write) }
            let change = try settle(id, facts: facts, stored: stored, context: context, plan: &plan)
            let events = write?.events ?? []
            if !events.isEmpty || !change.link.isEmpty || !change.unlink.isEmpty { moved.append(id) }
            unlinked += change.unlink
            let previousStatus = write.flatMap { $0.statusChanged ? $0.previousStatus : nil }
            plan.outbox.append(
                outbox(
                    id, .subscription(previousStatus: previousStatus), events: events, created: .subscriptionCreated, change: change,
                    kinds: context.webhookEvents))
        }
        // One-time purchases belong to users the same way and have no subscription row; their
        // events say what changed of the purchase.
        for id in facts.oneTimePurchaseIDs {
            let change = try settle(id, facts: facts, stored: stored, context: context, plan: &plan)
            let events = merged.filter { $0.after.originalTransactionID == id && $0.after.isOneTimePurchase }
                .flatMap { LifecycleRule.events(before: $0.before, after: $0.after) }
            if !events.isEmpty || !change.link.isEmpty || !change.unlink.isEmpty { moved.append(id) }
            unlinked += change.unlink
            plan.outbox.append(
                outbox(id, .purchase, events: events, created: .purchaseCreated, change: change, kinds: context.webhookEvents))
        }
        plan.outbox.removeAll { $0.events.isEmpty }
        if context.webhookEvents.contains(.entitlementChanged), !moved.isEmpty || !unlinked.isEmpty {
            plan.review = ApplyPlan.Review(originalTransactionIDs: moved, alsoUsers: unlinked)
        }
        if let claimant = context.claimant, let version = facts.originalApplicationVersion {
            plan.originalVersion = (
                claimant, OriginalApplicationVersion(bundleID: facts.bundleID, environment: facts.environment, version: version)
            )
        }
        return plan
    }

    /// The subscription row of `id` recomputed from `stored` at `now` (nil: the facts make no
    /// subscription): what a notification writes, and what the sweep writes when time alone moved it.
    public static func recompute(_ id: String, stored: StoredPurchases, now: Date) -> ApplyPlan.SubscriptionWrite? {
        let transactions = stored.transactions[id] ?? []
        guard
            let snapshot = SubscriptionStatusRule.snapshot(
                originalTransactionID: id, transactions: transactions, renewal: stored.renewals[id], at: now)
        else { return nil }
        let before = stored.subscriptions[id]
        return ApplyPlan.SubscriptionWrite(
            snapshot: snapshot,
            dueAt: SubscriptionStatusRule.nextChange(
                after: now, transactions: transactions, renewals: stored.renewals[id].map { [$0] } ?? []),
            previousStatus: before?.status, events: LifecycleRule.events(before: before, after: SubscriptionMoment(snapshot)))
    }

    /// The webhook events of a sweep's recompute (no links move), after `kinds`.
    public static func sweepEvents(_ write: ApplyPlan.SubscriptionWrite, kinds: Set<LifecycleEvent.Kind>) -> [LifecycleEvent] {
        write.events.filter { kinds.contains($0.kind) }
    }

    /// Merges `incoming` with `stored`; returns each transaction that changed, as it was
    /// stored before (nil: new) and as it is now.
    private static func merge(
        _ incoming: [TransactionFact], into stored: inout StoredPurchases, plan: inout ApplyPlan
    ) -> [(before: TransactionFact?, after: TransactionFact)] {
        var changed: [(before: TransactionFact?, after: TransactionFact)] = []
        // A verifyReceipt answer restates every transaction of the receipt with its own
        // request date, so most stored rows differ from the merge in `stated_at` alone.
        var restated: [Date: [String]] = [:]
        for fact in TransactionFact.coalesced(incoming) {
            let before = stored.transaction(fact.transactionID)
            let merged = before.map { $0.merged(with: fact) } ?? fact
            guard merged != before else { continue }
            changed.append((before, merged))
            stored.wrote(merged, over: before)
            if let before, let statedAt = merged.statedAt, merged.isRestatement(of: before) {
                restated[statedAt, default: []].append(merged.transactionID)
            } else {
                plan.transactions.append(merged)
            }
        }
        plan.restatements = restated.sorted { $0.key < $1.key }.map {
            ApplyPlan.Restatement(statedAt: $0.key, transactionIDs: $0.value.sorted())
        }
        return changed
    }

    /// The one-time purchases seen for the first time that Apple is to be told were delivered
    /// (Finish Transaction): not refunded, from Apple (never Xcode's); a consumable waits for
    /// the app's backend to confirm delivery.
    private static func finishes(of merged: [(before: TransactionFact?, after: TransactionFact)]) -> [ApplyPlan.Finish] {
        merged.compactMap { before, after in
            guard before == nil, after.isOneTimePurchase, !after.isRevoked, after.environment != .xcode else { return nil }
            return ApplyPlan.Finish(
                transactionID: after.transactionID, originalTransactionID: after.originalTransactionID,
                awaitsDelivery: after.productType == .consumable)
        }
    }

    /// The links of purchase `id` after the ownership rule (no change when the facts cannot change them).
    private static func settle(
        _ id: String, facts: ReceiptFacts, stored: StoredPurchases, context: Context, plan: inout ApplyPlan
    ) throws(PurchaseOwnership.Refusal) -> PurchaseOwnership.Change {
        guard mayChangeOwners(of: id, facts: facts, claimant: context.claimant) else { return PurchaseOwnership.Change() }
        let owners = stored.owners[id] ?? []
        let token = stored.newestToken(of: id).map { stored.tokens[$0] ?? .userID($0) }
        let change = try PurchaseOwnership.change(policy: context.linkPolicy, claimant: context.claimant, token: token, owners: owners)
        let confirmed = context.claimant.flatMap { owners.contains($0) ? $0 : nil }
        if !change.isEmpty || confirmed != nil {
            plan.links.append(ApplyPlan.LinkWrite(originalTransactionID: id, change: change, confirmed: confirmed))
        }
        return change
    }

    /// The events of one subject with `user_linked` (unless `created` already carries the
    /// linked users) and `user_unlinked` added, keeping only `kinds`.
    private static func outbox(
        _ id: String, _ subject: ApplyPlan.Outbox.Subject, events: [LifecycleEvent], created: LifecycleEvent.Kind,
        change: PurchaseOwnership.Change, kinds: Set<LifecycleEvent.Kind>
    ) -> ApplyPlan.Outbox {
        var events = events
        if !change.link.isEmpty && !events.contains(where: { $0.kind == created }) { events.append(LifecycleEvent(.userLinked)) }
        if !change.unlink.isEmpty { events.append(LifecycleEvent(.userUnlinked)) }
        return ApplyPlan.Outbox(
            originalTransactionID: id, subject: subject, events: events.filter { kinds.contains($0.kind) }, unlinkedUsers: change.unlink)
    }
}
