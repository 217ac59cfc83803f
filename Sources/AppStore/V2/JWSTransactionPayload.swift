import Foundation

/// A decoded signed transaction (`JWSTransactionDecodedPayload`).
///
/// From a notification's `signedTransactionInfo`, a StoreKit 2 transaction sent by an app,
/// or an App Store Server API answer. Decode it only from a verified JWS.
public struct JWSTransactionPayload: Sendable, Decodable, Hashable {
    /// `transactionId`.
    public var transactionID: String?
    /// `originalTransactionId`: the subscription's identity across renewals.
    public var originalTransactionID: String?
    /// `webOrderLineItemId`.
    public var webOrderLineItemID: String?
    /// `bundleId`.
    public var bundleID: String?
    /// `productId`.
    public var productID: String?
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// `purchaseDate`.
    public var purchaseDate: Date?
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: Date?
    /// `expiresDate` (subscriptions only).
    public var expiresDate: Date?
    /// `quantity`.
    public var quantity: Int?
    /// `type` exactly as sent (`Auto-Renewable Subscription`, …).
    public var typeRaw: String?
    /// `appAccountToken`: the UUID the app set at purchase, linking the app's user.
    public var appAccountToken: String?
    /// `inAppOwnershipType` exactly as sent.
    public var inAppOwnershipTypeRaw: String?
    /// `signedDate`: when Apple signed this transaction; the certificate validation time.
    public var signedDate: Date?
    /// `revocationDate`: set when refunded or revoked.
    public var revocationDate: Date?
    /// `revocationReason` code (0 other, 1 app issue).
    public var revocationReason: Int?
    /// `revocationType` exactly as sent (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`).
    public var revocationTypeRaw: String?
    /// `revocationPercentage` in thousandths of a percent (a prorated refund's share).
    public var revocationPercentage: Int?
    /// `isUpgraded`: the customer upgraded to another subscription; this one ended at once.
    public var isUpgraded: Bool?
    /// `offerType` code (1 introductory, 2 promotional, 3 offer code, 4 win-back).
    public var offerTypeRaw: Int?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `offerDiscountType` exactly as sent.
    public var offerDiscountTypeRaw: String?
    /// `offerPeriod` (ISO 8601 duration).
    public var offerPeriod: String?
    /// `environment` exactly as sent.
    public var environmentRaw: String?
    /// `storefront` (three-letter country code).
    public var storefront: String?
    /// `storefrontId`.
    public var storefrontID: String?
    /// `transactionReason` exactly as sent (`PURCHASE`, `RENEWAL`).
    public var transactionReasonRaw: String?
    /// `price` in milliunits of `currency`.
    public var price: Int?
    /// `currency` (ISO 4217).
    public var currency: String?
    /// `appTransactionId`.
    public var appTransactionID: String?
    /// `billingPlanType` exactly as sent (`BILLED_UPFRONT`, `MONTHLY`: a monthly-billed
    /// subscription with a 12-month commitment, API 1.21).
    public var billingPlanTypeRaw: String?
    /// `commitmentInfo` of a monthly-billed commitment: which billing period this is and when
    /// the commitment ends.
    public var commitmentInfo: TransactionCommitmentInfo?

    /// The typed product type; `nil` when absent or unknown.
    public var type: ProductTypeV2? { typeRaw.flatMap(ProductTypeV2.init(rawValue:)) }
    /// The typed ownership type; `nil` when absent or unknown.
    public var inAppOwnershipType: InAppOwnershipType? {
        inAppOwnershipTypeRaw.flatMap(InAppOwnershipType.init(rawValue:))
    }
    /// The typed offer type; `nil` when absent or unknown.
    public var offerType: OfferTypeV2? { offerTypeRaw.flatMap(OfferTypeV2.init(rawValue:)) }
    /// The typed offer discount type; `nil` when absent or unknown.
    public var offerDiscountType: OfferDiscountType? {
        offerDiscountTypeRaw.flatMap(OfferDiscountType.init(rawValue:))
    }
    /// The typed transaction reason; `nil` when absent or unknown.
    public var transactionReason: TransactionReason? {
        transactionReasonRaw.flatMap(TransactionReason.init(rawValue:))
    }
    /// The normalised environment.
    public var environment: AppStoreEnvironment? {
        environmentRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        transactionID = try c.v2ID("transactionId")
        originalTransactionID = try c.v2ID("originalTransactionId")
        webOrderLineItemID = try c.v2ID("webOrderLineItemId")
        bundleID = try c.v2String("bundleId")
        productID = try c.v2String("productId")
        subscriptionGroupIdentifier = try c.v2ID("subscriptionGroupIdentifier")
        purchaseDate = try c.v2Date("purchaseDate")
        originalPurchaseDate = try c.v2Date("originalPurchaseDate")
        expiresDate = try c.v2Date("expiresDate")
        quantity = try c.v2Int("quantity")
        typeRaw = try c.v2String("type")
        appAccountToken = try c.v2String("appAccountToken")
        inAppOwnershipTypeRaw = try c.v2String("inAppOwnershipType")
        signedDate = try c.v2Date("signedDate")
        revocationDate = try c.v2Date("revocationDate")
        revocationReason = try c.v2Int("revocationReason")
        revocationTypeRaw = try c.v2String("revocationType")
        revocationPercentage = try c.v2Int("revocationPercentage")
        isUpgraded = try c.v2Bool("isUpgraded")
        offerTypeRaw = try c.v2Int("offerType")
        offerIdentifier = try c.v2String("offerIdentifier")
        offerDiscountTypeRaw = try c.v2String("offerDiscountType")
        offerPeriod = try c.v2String("offerPeriod")
        environmentRaw = try c.v2String("environment")
        storefront = try c.v2String("storefront")
        storefrontID = try c.v2ID("storefrontId")
        transactionReasonRaw = try c.v2String("transactionReason")
        price = try c.v2Int("price")
        currency = try c.v2String("currency")
        appTransactionID = try c.v2ID("appTransactionId")
        billingPlanTypeRaw = try c.v2String("billingPlanType")
        commitmentInfo = try c.v2Object(TransactionCommitmentInfo.self, "commitmentInfo")
    }
}

/// A transaction's `commitmentInfo` (API 1.21): the progress of a monthly-billed subscription
/// with a 12-month commitment.
public struct TransactionCommitmentInfo: Sendable, Decodable, Hashable {
    /// `billingPeriodNumber`: which monthly charge of the commitment this transaction is (1…12).
    public var billingPeriodNumber: Int?
    /// `totalBillingPeriods`: how many charges the commitment has.
    public var totalBillingPeriods: Int?
    /// `commitmentExpiresDate`: when the commitment ends.
    public var commitmentExpiresDate: Date?
    /// `commitmentPrice` in milliunits: the price of the whole commitment.
    public var commitmentPrice: Int?

    public init(billingPeriodNumber: Int?, totalBillingPeriods: Int?, commitmentExpiresDate: Date?, commitmentPrice: Int?) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        billingPeriodNumber = try c.v2Int("billingPeriodNumber")
        totalBillingPeriods = try c.v2Int("totalBillingPeriods")
        commitmentExpiresDate = try c.v2Date("commitmentExpiresDate")
        commitmentPrice = try c.v2Int("commitmentPrice")
    }
}
