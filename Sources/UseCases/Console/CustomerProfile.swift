import AppStore
import ContractDocuments
import Foundation
import Store
import Subscriptions

/// A customer's whole story as support reads it (the console's customer page): what the API
/// answers for the user (entitlements with their source, subscriptions, purchases with money),
/// why each subscription has its status, the grants, and intro-offer eligibility per group.
public struct CustomerProfile: Sendable {
    /// One customer, read at one moment.
    public struct View: Sendable {
        public let appUserID: String
        public let document: SubscriberDocument
        /// Each subscription's story, by original transaction id (a subscription whose story
        /// could not be read is absent).
        public let stories: [String: SubscriptionStory]
        /// The user's grants, newest first, revoked ones included.
        public let grants: [ManualGrant]
        /// Intro-offer eligibility of every auto-renewable product the catalog knows, with its group.
        public let eligibility: [(groupID: String, productID: String, answer: EligibilityAnswer)]
        /// The catalog's entitlement ids (what may be granted).
        public let entitlementIDs: [String]
    }

    private let records: any CustomerDocuments
    private let stories: any SubscriptionStorySource
    private let grants: ManualGrants
    private let eligibility: EligibilityService

    public init(records: any CustomerDocuments, stories: any SubscriptionStorySource, grants: ManualGrants, eligibility: EligibilityService)
    {
        self.records = records
        self.stories = stories
        self.grants = grants
        self.eligibility = eligibility
    }

    /// The customer `appUserID` at `now`; nil when nothing is known of the user (never
    /// linked, granted or recorded, or forgotten).
    public func view(appUserID: String, now: Date = Date()) async throws -> View? {
        guard let document = try await records.subscriberDocument(appUserID: appUserID, now: now) else { return nil }
        var stories: [String: SubscriptionStory] = [:]
        for snapshot in document.views.map(\.snapshot) {
            stories[snapshot.originalTransactionID] = try await self.stories.story(
                originalTransactionID: snapshot.originalTransactionID, now: now)
        }
        let catalog = try await records.catalog()
        let renewable = catalog.products.filter { $0.type == .autoRenewable && $0.subscriptionGroupID != nil }
        let answers = try await eligibility.answers(appUserID: appUserID, productIDs: renewable.map(\.productID), now: now)
        let eligibility = renewable.compactMap { product -> (String, String, EligibilityAnswer)? in
            guard let group = product.subscriptionGroupID, let answer = answers[product.productID] else { return nil }
            return (group, product.productID, answer)
        }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        return View(
            appUserID: appUserID, document: document, stories: stories,
            grants: try await grants.list(appUserID: appUserID, limit: 200), eligibility: eligibility,
            entitlementIDs: catalog.entitlements.map(\.id).sorted())
    }

    /// The story of the subscription `originalTransactionID` in `environment`; nil when
    /// there is none (a one-time purchase has no story).
    public func purchaseStory(originalTransactionID: String, environment: String, now: Date = Date()) async throws -> SubscriptionStory? {
        try await stories.story(originalTransactionID: originalTransactionID, now: now).flatMap {
            $0.view.snapshot.environment.rawValue == environment ? $0 : nil
        }
    }
}
