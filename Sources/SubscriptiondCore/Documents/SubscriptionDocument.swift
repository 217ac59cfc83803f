import AppStore
import Foundation
import Store
import Subscriptions

/// The contract's subscription JSON (DESIGN.md): every field always present, absent values `null`.
public struct SubscriptionDocument: Encodable, Sendable {
    let view: SubscriptionView
    let includeTransactions: Bool

    /// Wraps a view; `includeTransactions` adds the `"transactions"` array.
    public init(_ view: SubscriptionView, includeTransactions: Bool) {
        self.view = view
        self.includeTransactions = includeTransactions
    }

    enum CodingKeys: String, CodingKey {
        case originalTransactionID = "original_transaction_id", bundleID = "bundle_id", environment
        case productID = "product_id", subscriptionGroupID = "subscription_group_id", status, entitled
        case expiresAt = "expires_at", autoRenew = "auto_renew", autoRenewProductID = "auto_renew_product_id"
        case expirationIntent = "expiration_intent", inTrial = "in_trial", inIntroOffer = "in_intro_offer"
        case gracePeriodExpiresAt = "grace_period_expires_at", revokedAt = "revoked_at"
        case revocationReason = "revocation_reason", updatedAt = "updated_at", transactions
        case source, ownership, offerType = "offer_type", appAccountToken = "app_account_token"
    }

    public func encode(to encoder: any Encoder) throws {
        let snapshot = view.snapshot
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(snapshot.originalTransactionID, forKey: .originalTransactionID)
        try container.encode(snapshot.bundleID, forKey: .bundleID)
        try container.encode(snapshot.environment.rawValue, forKey: .environment)
        try container.encode(snapshot.productID, forKey: .productID)
        try container.encode(snapshot.subscriptionGroupID, forKey: .subscriptionGroupID)
        try container.encode(snapshot.status.rawValue, forKey: .status)
        try container.encode(snapshot.entitled, forKey: .entitled)
        try container.encode(snapshot.expiresAt, forKey: .expiresAt)
        try container.encode(snapshot.autoRenew, forKey: .autoRenew)
        try container.encode(snapshot.autoRenewProductID, forKey: .autoRenewProductID)
        try container.encode(snapshot.expirationIntent?.rawValue, forKey: .expirationIntent)
        try container.encode(snapshot.inTrial, forKey: .inTrial)
        try container.encode(snapshot.inIntroOffer, forKey: .inIntroOffer)
        try container.encode(snapshot.gracePeriodExpiresAt, forKey: .gracePeriodExpiresAt)
        try container.encode(snapshot.revokedAt, forKey: .revokedAt)
        try container.encode(snapshot.revocationReason, forKey: .revocationReason)
        try container.encode(view.updatedAt, forKey: .updatedAt)
        try container.encode(snapshot.source.rawValue, forKey: .source)
        // PURCHASED / FAMILY_SHARED → purchased / family_shared.
        try container.encode(snapshot.ownershipType?.lowercased(), forKey: .ownership)
        try container.encode(snapshot.offerKind?.rawValue, forKey: .offerType)
        try container.encode(snapshot.appAccountToken, forKey: .appAccountToken)
        if includeTransactions {
            try container.encode(view.transactions.map(TransactionDocument.init), forKey: .transactions)
        }
    }
}

/// One transaction inside a subscription document.
public struct TransactionDocument: Encodable, Sendable {
    let fact: TransactionFact

    enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id", originalTransactionID = "original_transaction_id", productID = "product_id"
        case subscriptionGroupID = "subscription_group_id", purchaseDate = "purchase_date", expiresDate = "expires_date"
        case isTrialPeriod = "is_trial_period", isInIntroOfferPeriod = "is_in_intro_offer_period", isUpgraded = "is_upgraded"
        case cancellationDate = "cancellation_date", cancellationReason = "cancellation_reason"
        case ownershipType = "ownership_type", webOrderLineItemID = "web_order_line_item_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fact.transactionID, forKey: .transactionID)
        try container.encode(fact.originalTransactionID, forKey: .originalTransactionID)
        try container.encode(fact.productID, forKey: .productID)
        try container.encode(fact.subscriptionGroupID, forKey: .subscriptionGroupID)
        try container.encode(fact.purchaseDate, forKey: .purchaseDate)
        try container.encode(fact.expiresDate, forKey: .expiresDate)
        try container.encode(fact.isTrialPeriod, forKey: .isTrialPeriod)
        try container.encode(fact.isInIntroOfferPeriod, forKey: .isInIntroOfferPeriod)
        try container.encode(fact.isUpgraded, forKey: .isUpgraded)
        try container.encode(fact.cancellationDate, forKey: .cancellationDate)
        try container.encode(fact.cancellationReason, forKey: .cancellationReason)
        try container.encode(fact.ownershipType, forKey: .ownershipType)
        try container.encode(fact.webOrderLineItemID, forKey: .webOrderLineItemID)
    }
}

/// The encoder for contract JSON: RFC 3339 UTC timestamps, stable key order.
public enum ContractJSON {
    /// Encodes a document as compact JSON bytes.
    public static func encode(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
