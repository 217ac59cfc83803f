import Foundation
import Postgres
import Store
import Subscriptions

extension FactStore {
    /// Locks, loads, plans and writes one batch inside `session`, as `FactApplier` does for an
    /// app with `linkPolicy` and `webhookEvents`: for store tests, which have no app registry.
    @discardableResult
    public static func applyForTests(
        _ facts: ReceiptFacts, receiptObservedAt: Date, notificationID: Int64?, appUserID: String? = nil,
        linkPolicy: LinkPolicy = .transfer, webhookEvents: Set<LifecycleEvent.Kind> = Set(LifecycleEvent.Kind.allCases),
        now: Date = Date(), in session: PostgresSession
    ) throws -> [StatusChange] {
        try lockSubscriptions(of: [facts], in: session)
        let stored = try load(for: facts, claimant: appUserID, in: session)
        let plan = try FactApplication.plan(
            stored: stored, incoming: facts,
            context: FactApplication.Context(
                claimant: appUserID, linkPolicy: linkPolicy, webhookEvents: webhookEvents, receiptObservedAt: receiptObservedAt, now: now))
        try write(plan, notificationID: notificationID, now: now, in: session)
        try ReportRollupStore.queue(environment: plan.environment, ids: Array(reportedChains(of: plan)), in: session)
        return plan.statusChanges
    }
}
