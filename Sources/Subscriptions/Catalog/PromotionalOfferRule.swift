/// Who may be given a promotional offer (the catalog's `promotional_offers`), judged from the
/// customer's subscriptions in the offer's subscription group.
public enum OfferAudience: String, Sendable, Hashable, Codable, CaseIterable {
    /// Entitled in the group now (active or in a grace period).
    case active
    /// Entitled now, with auto-renew turned off: about to leave.
    case autoRenewOff = "auto_renew_off"
    /// Apple is retrying a failed charge (in a grace period or not).
    case billingRetry = "billing_retry"
    /// Subscribed in the group before, and nothing of it is entitled or being retried now.
    case lapsed

    /// Whether a customer with `group` (their subscriptions in the offer's group) is one of these.
    public func includes(_ group: [SubscriptionSnapshot]) -> Bool {
        switch self {
        case .active:
            return group.contains { $0.status.isEntitled }
        case .autoRenewOff:
            return group.contains { $0.status.isEntitled && $0.autoRenew == false }
        case .billingRetry:
            return group.contains { $0.status == .billingRetry || $0.status == .gracePeriod }
        case .lapsed:
            return !group.isEmpty && group.allSatisfy { $0.status == .expired || $0.status == .revoked }
        }
    }
}

/// One promotional offer of a product and who may be given it: `{"id": "comeback50", "for":
/// ["lapsed"]}`. A product that lists none signs any offer id; one that lists some signs only
/// those, each for its audiences.
public struct PromotionalOfferRule: Sendable, Hashable, Codable {
    /// The offer's identifier in App Store Connect.
    public var offerID: String
    /// Who may be given it (any of them).
    public var audiences: [OfferAudience]

    public init(offerID: String, audiences: [OfferAudience]) {
        self.offerID = offerID
        self.audiences = audiences
    }

    /// Whether a customer whose subscriptions in the group are `group` may be given it.
    public func admits(_ group: [SubscriptionSnapshot]) -> Bool {
        audiences.contains { $0.includes(group) }
    }

    private enum CodingKeys: String, CodingKey {
        case offerID = "id"
        case audiences = "for"
    }
}

extension Product {
    /// The subscriptions among `subscriptions` (an Apple account's) that this product's offers
    /// are judged on: those of its app and subscription group, in environments that grant in
    /// the app under `policies`.
    public func offerGroup(of subscriptions: [SubscriptionSnapshot], policies: EntitlementPolicies) -> [SubscriptionSnapshot] {
        subscriptions.filter {
            $0.bundleID == bundleID && policies.policy(for: $0.bundleID).counts($0.environment)
                && $0.subscriptionGroupID != nil && $0.subscriptionGroupID == subscriptionGroupID
        }
    }
}
