import ContractDocuments
import Foundation
import Store
import Subscriptions

/// What a customer's page is read from (`ReadAnswers` in production): the user's subscriber
/// document as the API answers it, and the catalog it was judged under.
public protocol CustomerDocuments: Sendable {
    /// The user's document at `now`; nil when nothing is known of the user.
    func subscriberDocument(appUserID: String, now: Date) async throws -> SubscriberDocument?
    /// The product catalog.
    func catalog() async throws -> ProductCatalog
}

/// Where whole subscription stories are read (`SubscriptionStoryReader` in production).
public protocol SubscriptionStorySource: Sendable {
    /// Everything stored about one subscription, or nil.
    func story(originalTransactionID: String, now: Date) async throws -> SubscriptionStory?
}
