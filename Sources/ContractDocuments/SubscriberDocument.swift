import Store
import Subscriptions

/// The contract's subscriber JSON: `{"app_user_id", "subscriptions": [...], "entitled_groups": [...]}`.
public struct SubscriberDocument: Sendable {
    let appUserID: String
    let views: [SubscriptionView]

    /// Wraps a user's subscriptions, as read.
    public init(appUserID: String, views: [SubscriptionView]) {
        self.appUserID = appUserID
        self.views = views
    }

    /// The subscription groups in which the user is entitled now, sorted.
    public var entitledGroups: [String] {
        Array(Set(views.filter(\.snapshot.entitled).compactMap(\.snapshot.subscriptionGroupID))).sorted()
    }
}

/// `{"eligibility": {"<product_id>": "eligible", ...}}`.
public struct EligibilityDocument: Sendable {
    /// Answer per product id.
    public let eligibility: [String: String]

    /// Creates the document.
    public init(eligibility: [String: String]) {
        self.eligibility = eligibility
    }
}
