/// The status of one subscription (one original transaction) at a moment in time.
public enum SubscriptionStatus: String, Sendable, Codable, Hashable, CaseIterable {
    /// The current period has not expired.
    case active
    /// Expired, but Apple is retrying the charge inside the grace period: still entitled.
    case gracePeriod = "grace_period"
    /// Expired and Apple is still retrying the charge: not entitled.
    case billingRetry = "billing_retry"
    /// Expired; the renewal info's expiration intent says why.
    case expired
    /// Refunded or revoked, and nothing later covers now.
    case revoked

    /// Whether the customer gets the content: `active` and `grace_period`.
    public var isEntitled: Bool {
        self == .active || self == .gracePeriod
    }
}
