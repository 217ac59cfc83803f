import Access
import Foundation
import Store

/// "Check with Apple" for one customer: reads each of the customer's subscriptions again from
/// the App Store Server API and applies what Apple says now (``SubscriptionSync``), then
/// writes one audit row naming who asked. Only Apple's verified answers change anything.
public struct CustomerRecheck: Sendable {
    /// What a re-check did.
    public struct Outcome: Sendable, Equatable {
        /// Subscriptions read again from Apple.
        public let checked: Int
        /// One line per subscription that could not be read (`id: reason`).
        public let failures: [String]
        /// Subscriptions of apps without an App Store Server API key, left as they were.
        public let skipped: Int
    }

    private let sync: SubscriptionSync
    private let audit: any AuditTrail

    public init(sync: SubscriptionSync, audit: any AuditTrail) {
        self.sync = sync
        self.audit = audit
    }

    /// Re-checks the subscriptions `originalTransactionIDs` of `appUserID`.
    public func recheck(appUserID: String, originalTransactionIDs: [String], by principal: Principal) async throws -> Outcome {
        guard principal.may(.write) else { throw UseCaseError.forbidden("checking with Apple needs the write scope") }
        let targets = originalTransactionIDs.isEmpty ? [] : try await sync.targets(originalTransactionIDs)
        let failures = try await sync.run(targets)
        let outcome = Outcome(
            checked: targets.count - failures.count, failures: failures,
            skipped: Set(originalTransactionIDs).subtracting(targets.map(\.originalTransactionID)).count)
        try await audit.record(
            action: "subscriber_rechecked", actor: principal.actor, appUserID: appUserID,
            detail: ["checked": "\(outcome.checked)", "failed": "\(failures.count)", "skipped": "\(outcome.skipped)"])
        return outcome
    }
}
