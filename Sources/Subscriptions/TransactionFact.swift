import AppStore
import Foundation

/// One stored transaction, tagged with the app and environment it belongs to.
///
/// Facts only accumulate: see `merged(with:)`.
public struct TransactionFact: Sendable, Hashable, Codable {
    /// Unique per transaction; the row key together with `environment`.
    public var transactionID: String
    /// The subscription this transaction belongs to.
    public var originalTransactionID: String
    /// The product bought.
    public var productID: String
    /// The app's bundle id.
    public var bundleID: String
    /// Production or sandbox; never mixed.
    public var environment: AppStoreEnvironment
    /// The subscription group, when Apple reported it.
    public var subscriptionGroupID: String?
    /// Start of the transaction's period.
    public var purchaseDate: Date
    /// Purchase date of the original transaction.
    public var originalPurchaseDate: Date?
    /// End of the period; `nil` for purchases that are not auto-renewable subscriptions.
    public var expiresDate: Date?
    /// Apple's id of the subscription period.
    public var webOrderLineItemID: String?
    /// The period is a free trial.
    public var isTrialPeriod: Bool
    /// The period uses a paid introductory offer.
    public var isInIntroOfferPeriod: Bool
    /// The period was ended early by an upgrade.
    public var isUpgraded: Bool
    /// When Apple refunded or revoked the transaction.
    public var cancellationDate: Date?
    /// Apple's `cancellation_reason` (`"1"` app issue, `"0"` other).
    public var cancellationReason: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var ownershipType: String?
    /// The offer code's reference name, when one was redeemed.
    public var offerCodeRefName: String?
    /// The promotional offer's id, when one was used.
    public var promotionalOfferID: String?
    /// Where the fact came from: a verifyReceipt answer (v1) or a signed transaction (v2).
    public var source: FactSource
    /// When Apple stated it: a verifyReceipt answer's arrival, a signed transaction's
    /// `signedDate`; nil when unknown (facts stored before this was kept).
    public var statedAt: Date?
    /// Apple's `offerType` of the period (1 introductory, 2 promotional, 3 offer code, 4 win-back).
    public var offerType: Int?
    /// The UUID the app set at purchase (`appAccountToken`), lower-case.
    public var appAccountToken: String?
    /// Apple's product type (`ProductTypeV2`) when a signed transaction stated it; v1
    /// receipts do not (the catalog's type is used then).
    public var productType: ProductType?
    /// How many were bought (`quantity`).
    public var quantity: Int?
    /// What the customer paid, in milliunits of `currency` (v2 `price`; receipts do not say).
    public var priceMilliunits: Int64?
    /// ISO 4217 currency of `priceMilliunits`.
    public var currency: String?
    /// The storefront's three-letter country code.
    public var storefront: String?
    /// Apple's `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`), with the cancellation.
    public var revocationType: String?
    /// Apple's `revocationPercentage` with a prorated refund: the share of the price refunded,
    /// in thousandths of a percent (50000: half).
    public var revocationPercentage: Int?
    /// Apple's id of the customer's purchase of the app (`appTransactionId`, StoreKit 2
    /// transactions since 2025): one per Apple account and app, never the account's name.
    public var appTransactionID: String?
    /// Apple's `offerDiscountType` with an offer (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`).
    public var offerDiscountType: String?
    /// Apple's `offerPeriod` (ISO 8601): how long the offer's price lasts.
    public var offerPeriod: String?
    /// Apple's `billingPlanType` (`BILLED_UPFRONT`, `MONTHLY`: a subscription billed monthly
    /// through a 12-month commitment); nil when Apple names no plan.
    public var billingPlanType: String?
    /// When a monthly-billed commitment ends (`commitmentInfo.commitmentExpiresDate`).
    public var commitmentExpiresAt: Date?

    /// True when Apple bills this period monthly through a commitment.
    public var isMonthlyCommitment: Bool { billingPlanType == "MONTHLY" }

    /// Builds a fact field by field.
    public init(
        transactionID: String,
        originalTransactionID: String,
        productID: String,
        bundleID: String,
        environment: AppStoreEnvironment,
        subscriptionGroupID: String? = nil,
        purchaseDate: Date,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        webOrderLineItemID: String? = nil,
        isTrialPeriod: Bool = false,
        isInIntroOfferPeriod: Bool = false,
        isUpgraded: Bool = false,
        cancellationDate: Date? = nil,
        cancellationReason: String? = nil,
        ownershipType: String? = nil,
        offerCodeRefName: String? = nil,
        promotionalOfferID: String? = nil,
        source: FactSource = .v1,
        statedAt: Date? = nil,
        offerType: Int? = nil,
        appAccountToken: String? = nil,
        productType: ProductType? = nil,
        quantity: Int? = nil,
        priceMilliunits: Int64? = nil,
        currency: String? = nil,
        storefront: String? = nil,
        revocationType: String? = nil,
        revocationPercentage: Int? = nil,
        appTransactionID: String? = nil,
        offerDiscountType: String? = nil,
        offerPeriod: String? = nil,
        billingPlanType: String? = nil,
        commitmentExpiresAt: Date? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.bundleID = bundleID
        self.environment = environment
        self.subscriptionGroupID = subscriptionGroupID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.isUpgraded = isUpgraded
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.ownershipType = ownershipType
        self.offerCodeRefName = offerCodeRefName
        self.promotionalOfferID = promotionalOfferID
        self.source = source
        self.statedAt = statedAt
        self.offerType = offerType
        self.appAccountToken = appAccountToken
        self.productType = productType
        self.quantity = quantity
        self.priceMilliunits = priceMilliunits
        self.currency = currency
        self.storefront = storefront
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.appTransactionID = appTransactionID
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.billingPlanType = billingPlanType
        self.commitmentExpiresAt = commitmentExpiresAt
    }

    /// The fact a receipt entry states; `nil` without a purchase date (it cannot be placed in time).
    public init?(receiptTransaction t: ReceiptTransaction, bundleID: String, environment: AppStoreEnvironment) {
        guard let purchaseDate = t.purchaseDate else { return nil }
        self.init(
            transactionID: t.transactionID,
            originalTransactionID: t.originalTransactionID,
            productID: t.productID,
            bundleID: bundleID,
            environment: environment,
            subscriptionGroupID: t.subscriptionGroupIdentifier,
            purchaseDate: purchaseDate,
            originalPurchaseDate: t.originalPurchaseDate,
            expiresDate: t.expiresDate,
            webOrderLineItemID: t.webOrderLineItemID,
            isTrialPeriod: t.isTrialPeriod,
            isInIntroOfferPeriod: t.isInIntroOfferPeriod,
            isUpgraded: t.isUpgraded,
            cancellationDate: t.cancellationDate,
            cancellationReason: t.cancellationReason,
            ownershipType: t.inAppOwnershipType,
            offerCodeRefName: t.offerCodeRefName,
            promotionalOfferID: t.promotionalOfferID,
            quantity: t.quantity
        )
    }

    /// Refunded or revoked. An upgrade also sets `cancellation_date` in older receipts, but
    /// it ends the period for the new product rather than taking the content away.
    public var isRevoked: Bool {
        cancellationDate != nil && !isUpgraded
    }

    /// A purchase that is not a period of an auto-renewable subscription: Apple gives no
    /// expiry date (consumables, non-consumables, non-renewing subscriptions).
    public var isOneTimePurchase: Bool {
        expiresDate == nil && productType != .autoRenewable
    }
}
