import Store
import Subscriptions

/// The contract's subscriber JSON: `{"app_user_id", "subscriptions": [...], "entitled_groups": [...]}`.
public struct SubscriberDocument: Encodable, Sendable {
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

    enum CodingKeys: String, CodingKey {
        case appUserID = "app_user_id", subscriptions, entitledGroups = "entitled_groups"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appUserID, forKey: .appUserID)
        try container.encode(views.map { SubscriptionDocument($0, includeTransactions: false) }, forKey: .subscriptions)
        try container.encode(entitledGroups, forKey: .entitledGroups)
    }
}

/// `{"eligibility": {"<product_id>": "eligible", ...}}`.
public struct EligibilityDocument: Encodable, Sendable {
    /// Answer per product id.
    public let eligibility: [String: String]

    /// Creates the document.
    public init(eligibility: [String: String]) {
        self.eligibility = eligibility
    }
}
