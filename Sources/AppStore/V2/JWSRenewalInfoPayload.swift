import Foundation

/// A decoded signed renewal info (`JWSRenewalInfoDecodedPayload`).
///
/// From a notification's `signedRenewalInfo` or an App Store Server API answer. Decode it
/// only from a verified JWS.
public struct JWSRenewalInfoPayload: Sendable, Decodable, Hashable {
    /// `originalTransactionId`.
    public var originalTransactionID: String?
    /// `productId`: the product of the current period.
    public var productID: String?
    /// `autoRenewProductId`: the product the next renewal will be.
    public var autoRenewProductID: String?
    /// `autoRenewStatus` (0 off, 1 on).
    public var autoRenewStatus: Int?
    /// `expirationIntent` code (1–5 as in version 1).
    public var expirationIntentRaw: Int?
    /// `gracePeriodExpiresDate`.
    public var gracePeriodExpiresDate: Date?
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool?
    /// `offerType` code.
    public var offerTypeRaw: Int?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `offerDiscountType` exactly as sent.
    public var offerDiscountTypeRaw: String?
    /// `offerPeriod` (ISO 8601 duration).
    public var offerPeriod: String?
    /// `priceIncreaseStatus` (0 not yet consented, 1 consented or not needed).
    public var priceIncreaseStatus: Int?
    /// `renewalDate`.
    public var renewalDate: Date?
    /// `recentSubscriptionStartDate`.
    public var recentSubscriptionStartDate: Date?
    /// `renewalPrice` in milliunits of `currency`.
    public var renewalPrice: Int?
    /// `currency` (ISO 4217).
    public var currency: String?
    /// `appAccountToken`.
    public var appAccountToken: String?
    /// `eligibleWinBackOfferIds`.
    public var eligibleWinBackOfferIDs: [String]?
    /// `renewalBillingPlanType` exactly as sent (`BILLED_UPFRONT`, `MONTHLY`): how the next
    /// period will be billed (API 1.21).
    public var renewalBillingPlanTypeRaw: String?
    /// `environment` exactly as sent.
    public var environmentRaw: String?
    /// `signedDate`: when Apple signed this renewal info; the certificate validation time.
    public var signedDate: Date?

    /// The auto-renew switch as a boolean; `nil` when absent or not 0/1.
    public var willAutoRenew: Bool? {
        switch autoRenewStatus {
        case 0: false
        case 1: true
        default: nil
        }
    }
    /// The typed expiration intent.
    public var expirationIntent: ExpirationIntent? {
        expirationIntentRaw.flatMap { ExpirationIntent(appleCode: String($0)) }
    }
    /// The typed offer type; `nil` when absent or unknown.
    public var offerType: OfferTypeV2? { offerTypeRaw.flatMap(OfferTypeV2.init(rawValue:)) }
    /// The normalised environment.
    public var environment: AppStoreEnvironment? {
        environmentRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        originalTransactionID = try c.v2ID("originalTransactionId")
        productID = try c.v2String("productId")
        autoRenewProductID = try c.v2String("autoRenewProductId")
        autoRenewStatus = try c.v2Int("autoRenewStatus")
        expirationIntentRaw = try c.v2Int("expirationIntent")
        gracePeriodExpiresDate = try c.v2Date("gracePeriodExpiresDate")
        isInBillingRetryPeriod = try c.v2Bool("isInBillingRetryPeriod")
        offerTypeRaw = try c.v2Int("offerType")
        offerIdentifier = try c.v2String("offerIdentifier")
        offerDiscountTypeRaw = try c.v2String("offerDiscountType")
        offerPeriod = try c.v2String("offerPeriod")
        priceIncreaseStatus = try c.v2Int("priceIncreaseStatus")
        renewalDate = try c.v2Date("renewalDate")
        recentSubscriptionStartDate = try c.v2Date("recentSubscriptionStartDate")
        renewalPrice = try c.v2Int("renewalPrice")
        currency = try c.v2String("currency")
        appAccountToken = try c.v2String("appAccountToken")
        eligibleWinBackOfferIDs = try c.v2Strings("eligibleWinBackOfferIds")
        renewalBillingPlanTypeRaw = try c.v2String("renewalBillingPlanType")
        environmentRaw = try c.v2String("environment")
        signedDate = try c.v2Date("signedDate")
    }
}
