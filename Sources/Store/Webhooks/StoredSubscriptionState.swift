import AppStore
import Foundation
import Subscriptions

/// A subscription's state frozen in the outbox (`webhook_events.subscription`), so the
/// event's subscription JSON is the state at the change however the row moves on later.
struct StoredSubscriptionState: OutboxFrozenState {
    var originalTransactionID: String
    var bundleID: String
    var environment: AppStoreEnvironment
    var productID: String
    var subscriptionGroupID: String?
    var status: SubscriptionStatus
    var expiresAt: Date?
    var autoRenew: Bool?
    var autoRenewProductID: String?
    var expirationIntent: ExpirationIntent?
    var inTrial: Bool
    var inIntroOffer: Bool
    var gracePeriodExpiresAt: Date?
    var revokedAt: Date?
    var revocationReason: String?
    var latestTransactionID: String
    var source: FactSource
    var ownershipType: String?
    var offerKind: OfferKind?
    var appAccountToken: String?
    var updatedAt: Date

    init(_ view: SubscriptionView) {
        let snapshot = view.snapshot
        originalTransactionID = snapshot.originalTransactionID
        bundleID = snapshot.bundleID
        environment = snapshot.environment
        productID = snapshot.productID
        subscriptionGroupID = snapshot.subscriptionGroupID
        status = snapshot.status
        expiresAt = snapshot.expiresAt
        autoRenew = snapshot.autoRenew
        autoRenewProductID = snapshot.autoRenewProductID
        expirationIntent = snapshot.expirationIntent
        inTrial = snapshot.inTrial
        inIntroOffer = snapshot.inIntroOffer
        gracePeriodExpiresAt = snapshot.gracePeriodExpiresAt
        revokedAt = snapshot.revokedAt
        revocationReason = snapshot.revocationReason
        latestTransactionID = snapshot.latestTransactionID
        source = snapshot.source
        ownershipType = snapshot.ownershipType
        offerKind = snapshot.offerKind
        appAccountToken = snapshot.appAccountToken
        updatedAt = view.updatedAt
    }

    /// What the state says, without when it was written (`updatedAt`, which differs when the
    /// same change is applied again after a restore): the subject of an event's id.
    func identityText() throws -> String {
        var state = self
        state.updatedAt = Date(timeIntervalSince1970: 0)
        return try state.sortedKeyText()
    }

    /// The view the contract's subscription JSON is rendered from (without transactions).
    var view: SubscriptionView {
        SubscriptionView(
            snapshot: SubscriptionSnapshot(
                originalTransactionID: originalTransactionID, bundleID: bundleID, environment: environment, productID: productID,
                subscriptionGroupID: subscriptionGroupID, status: status, expiresAt: expiresAt, autoRenew: autoRenew,
                autoRenewProductID: autoRenewProductID, expirationIntent: expirationIntent, inTrial: inTrial,
                inIntroOffer: inIntroOffer, gracePeriodExpiresAt: gracePeriodExpiresAt, revokedAt: revokedAt,
                revocationReason: revocationReason, latestTransactionID: latestTransactionID, source: source,
                ownershipType: ownershipType, offerKind: offerKind, appAccountToken: appAccountToken),
            updatedAt: updatedAt, transactions: [], renewal: nil)
    }

}

/// A state frozen in a jsonb column of the outbox (`StoredSubscriptionState`,
/// `StoredPurchaseState`): JSON text with dates as seconds since 1970, so nothing is rounded.
protocol OutboxFrozenState: Codable {}

extension OutboxFrozenState {
    /// JSON text for the jsonb column.
    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The same JSON with its keys sorted: the same text for the same state in every process
    /// and release, what ``WebhookOutbox``'s event ids are derived from.
    func sortedKeyText() throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The state a column holds.
    static func decode(_ text: String) throws -> Self {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(Self.self, from: Data(text.utf8))
    }
}
