/// The `status` of a subscription in version 2 payloads and API answers.
public enum SubscriptionStatusV2: Int, Sendable, Codable, Hashable, CaseIterable {
    /// The subscription is active.
    case active = 1
    /// The subscription expired.
    case expired = 2
    /// Apple is retrying a failed renewal charge (not entitled).
    case billingRetry = 3
    /// In billing retry within the grace period (still entitled).
    case gracePeriod = 4
    /// Refunded or revoked.
    case revoked = 5
}
