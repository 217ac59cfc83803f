import Foundation

/// A subscription's status in subscriptiond's words (APPSTORE.md, "Subscription status").
public enum SimStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Paid (or in trial) and not yet expired.
    case active
    /// Expired, Apple retries the charge, and the grace period still gives access.
    case gracePeriod = "grace_period"
    /// Expired and Apple retries the charge; no access.
    case billingRetry = "billing_retry"
    /// Expired for good (see the expiration intent).
    case expired
    /// Refunded or revoked.
    case revoked

    /// Whether the customer gets the content.
    public var isEntitled: Bool {
        self == .active || self == .gracePeriod
    }
}

extension SimSubscription {
    /// The status at `date`, from the newest period, the renewal info and the time.
    public func status(at date: Date) -> SimStatus {
        let latest = self.latest
        if latest.isRefunded, let cancelled = latest.cancellationDate, cancelled <= date {
            return .revoked
        }
        if date < latest.expiresDate {
            return .active
        }
        if renewal.isInBillingRetryPeriod {
            if let graceEnd = renewal.gracePeriodExpiresDate, date < graceEnd {
                return .gracePeriod
            }
            return .billingRetry
        }
        return .expired
    }
}
