import AppStore
import ContractDocuments
import Foundation
import Store
import Subscriptions

// The read documents' `Encodable` conformances as they were before the documents were
// written one way only (ContractJSONWriter): kept here as the oracle the writer's bytes are
// held to, so the contract's answers stay byte for byte what they were.

struct FormerSubscriptionDocument: Encodable {
    let view: SubscriptionView
    let includeTransactions: Bool
    /// Each transaction's money by id; nil: no money fields (a webhook event's subscription).
    var money: [String: PurchaseMoney]? = nil

    enum CodingKeys: String, CodingKey {
        case originalTransactionID = "original_transaction_id", bundleID = "bundle_id", environment
        case productID = "product_id", subscriptionGroupID = "subscription_group_id", status, entitled
        case expiresAt = "expires_at", autoRenew = "auto_renew", autoRenewProductID = "auto_renew_product_id"
        case expirationIntent = "expiration_intent", inTrial = "in_trial", inIntroOffer = "in_intro_offer"
        case gracePeriodExpiresAt = "grace_period_expires_at", revokedAt = "revoked_at"
        case revocationReason = "revocation_reason", updatedAt = "updated_at", transactions
        case source, ownership, offerType = "offer_type", appAccountToken = "app_account_token"
        case eligibleWinBackOfferIDs = "eligible_win_back_offer_ids"
        case price, currency, storefront, priceSource = "price_source", proceeds
        case renewalPrice = "renewal_price", renewalCurrency = "renewal_currency"
        case billingPlan = "billing_plan", commitmentEndsAt = "commitment_ends_at"
    }

    public func encode(to encoder: any Encoder) throws {
        let snapshot = view.snapshot
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let money {
            let latest = view.transactions.last { $0.transactionID == snapshot.latestTransactionID }
            let priced = latest.flatMap { money[$0.transactionID] }
            try FormerMoney(money: priced).encode(to: encoder)
            try container.encode(latest?.storefront, forKey: .storefront)
            let renewal = view.renewal?.renewalPrice
            try container.encode(renewal?.currency, forKey: .renewalCurrency)
            try container.encode(renewal.map { PurchaseMoney.text($0.amount) }, forKey: .renewalPrice)
        }
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
        try container.encode(view.renewal?.eligibleWinBackOfferIDs ?? [], forKey: .eligibleWinBackOfferIDs)
        let latest = view.transactions.last { $0.transactionID == snapshot.latestTransactionID }
        let commitment = latest?.billingPlanType == "MONTHLY" ? latest : nil
        try container.encode(commitment == nil ? "upfront" : "monthly_commitment", forKey: .billingPlan)
        try container.encode(commitment?.commitmentExpiresAt, forKey: .commitmentEndsAt)
        if includeTransactions {
            try container.encode(
                view.transactions.map { fact in FormerTransactionDocument(fact: fact, money: money.map { $0[fact.transactionID] }) },
                forKey: .transactions)
        }
    }
}

struct FormerTransactionDocument: Encodable {
    let fact: TransactionFact
    /// nil: no money fields; `.some(nil)`: unpriced.
    let money: PurchaseMoney??

    enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id", originalTransactionID = "original_transaction_id", productID = "product_id"
        case subscriptionGroupID = "subscription_group_id", purchaseDate = "purchase_date", expiresDate = "expires_date"
        case isTrialPeriod = "is_trial_period", isInIntroOfferPeriod = "is_in_intro_offer_period", isUpgraded = "is_upgraded"
        case cancellationDate = "cancellation_date", cancellationReason = "cancellation_reason"
        case ownershipType = "ownership_type", webOrderLineItemID = "web_order_line_item_id"
        case revocationType = "revocation_type", storefront
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let money {
            try FormerMoney(money: money).encode(to: encoder)
            try container.encode(fact.storefront, forKey: .storefront)
        }
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
        try container.encode(fact.cancellationDate == nil ? nil : fact.revocationType, forKey: .revocationType)
        try container.encode(fact.ownershipType, forKey: .ownershipType)
        try container.encode(fact.webOrderLineItemID, forKey: .webOrderLineItemID)
    }
}

struct FormerSubscriberDocument: Encodable {
    let appUserID: String
    let document: SubscriberDocument
    let catalog: ProductCatalog
    var pricing = PurchasePricing()

    enum CodingKeys: String, CodingKey {
        case appUserID = "app_user_id", appleAccounts = "apple_accounts", subscriptions, entitledGroups = "entitled_groups", entitlements,
            purchases
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appUserID, forKey: .appUserID)
        try container.encode(document.appleAccounts, forKey: .appleAccounts)
        try container.encode(
            document.views.map {
                FormerSubscriptionDocument(
                    view: $0, includeTransactions: false, money: pricing.money(ofSubscription: $0.transactions, catalog: catalog))
            },
            forKey: .subscriptions)
        try container.encode(document.entitledGroups, forKey: .entitledGroups)
        try container.encode(document.entitlements.mapValues(FormerEntitlement.init), forKey: .entitlements)
        try container.encode(
            document.purchases.map { FormerPurchase(purchase: $0, money: .some(pricing.money(ofPurchase: $0.fact, catalog: catalog))) },
            forKey: .purchases)
    }
}

struct FormerEntitlement: Encodable {
    let state: EntitlementState

    enum CodingKeys: String, CodingKey {
        case active, source, environment, productID = "product_id", expiresAt = "expires_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state.active, forKey: .active)
        try container.encode(state.source?.rawValue, forKey: .source)
        try container.encode(state.environment?.rawValue, forKey: .environment)
        try container.encode(state.productID, forKey: .productID)
        try container.encode(state.expiresAt, forKey: .expiresAt)
    }
}

struct FormerPurchase: Encodable {
    let purchase: PurchaseSummary
    /// nil: a webhook event's purchase (Apple's price and currency alone); `.some(nil)`: unpriced.
    var money: PurchaseMoney?? = nil

    enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id", originalTransactionID = "original_transaction_id", productID = "product_id"
        case type, environment, purchaseDate = "purchase_date", expiresAt = "expires_at", revokedAt = "revoked_at"
        case revocationReason = "revocation_reason", revocationType = "revocation_type", quantity, price, currency, storefront
    }

    public func encode(to encoder: any Encoder) throws {
        let fact = purchase.fact
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fact.transactionID, forKey: .transactionID)
        try container.encode(fact.originalTransactionID, forKey: .originalTransactionID)
        try container.encode(fact.productID, forKey: .productID)
        try container.encode(purchase.type?.rawValue, forKey: .type)
        try container.encode(fact.environment.rawValue, forKey: .environment)
        try container.encode(fact.purchaseDate, forKey: .purchaseDate)
        try container.encode(purchase.expiresAt, forKey: .expiresAt)
        try container.encode(fact.isRevoked ? fact.cancellationDate : nil, forKey: .revokedAt)
        try container.encode(fact.isRevoked ? fact.cancellationReason : nil, forKey: .revocationReason)
        try container.encode(fact.isRevoked ? fact.revocationType : nil, forKey: .revocationType)
        try container.encode(fact.quantity ?? 1, forKey: .quantity)
        if let money {
            try FormerMoney(money: money).encode(to: encoder)
        } else {
            try container.encode(purchase.price, forKey: .price)
            try container.encode(fact.currency, forKey: .currency)
        }
        try container.encode(fact.storefront, forKey: .storefront)
    }
}

struct FormerEligibilityDocument: Encodable {
    let eligibility: [String: String]
}

/// `currency`, `price`, `price_source` and `proceeds` of a priced purchase, all null when unpriced.
struct FormerMoney: Encodable {
    let money: PurchaseMoney?

    enum CodingKeys: String, CodingKey {
        case price, currency, priceSource = "price_source", proceeds
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(money.map { PurchaseMoney.text($0.price) }, forKey: .price)
        try container.encode(money?.currency, forKey: .currency)
        try container.encode(money?.source.rawValue, forKey: .priceSource)
        try container.encode(money.map { PurchaseMoney.text($0.proceeds) }, forKey: .proceeds)
    }
}
