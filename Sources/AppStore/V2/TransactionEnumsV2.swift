/// The `type` of a signed transaction.
public enum ProductTypeV2: String, Sendable, Codable, Hashable, CaseIterable {
    /// An auto-renewable subscription.
    case autoRenewable = "Auto-Renewable Subscription"
    /// A non-renewing subscription.
    case nonRenewing = "Non-Renewing Subscription"
    /// A consumable.
    case consumable = "Consumable"
    /// A non-consumable.
    case nonConsumable = "Non-Consumable"
}

/// How the customer holds a purchase (`inAppOwnershipType`).
public enum InAppOwnershipType: String, Sendable, Codable, Hashable, CaseIterable {
    /// Bought by this customer.
    case purchased = "PURCHASED"
    /// Shared with this customer through Family Sharing.
    case familyShared = "FAMILY_SHARED"
}

/// The `offerType` code of a signed transaction or renewal info.
public enum OfferTypeV2: Int, Sendable, Codable, Hashable, CaseIterable {
    /// An introductory offer (how v2 says "intro offer used").
    case introductory = 1
    /// A promotional offer.
    case promotional = 2
    /// An offer code.
    case offerCode = 3
    /// A win-back offer.
    case winBack = 4
}

/// The `offerDiscountType` of an offer.
public enum OfferDiscountType: String, Sendable, Codable, Hashable, CaseIterable {
    /// A free trial.
    case freeTrial = "FREE_TRIAL"
    /// A reduced price for each of several periods.
    case payAsYouGo = "PAY_AS_YOU_GO"
    /// One payment up front for the offer's duration.
    case payUpFront = "PAY_UP_FRONT"
}

/// Why a transaction happened (`transactionReason`).
public enum TransactionReason: String, Sendable, Codable, Hashable, CaseIterable {
    /// The customer bought it.
    case purchase = "PURCHASE"
    /// An automatic subscription renewal.
    case renewal = "RENEWAL"
}
