import AppStore
import Foundation

/// What Apple said, at one moment, about the next renewal of one subscription.
///
/// Unlike transactions, renewal info is replaced rather than merged: the newest statement
/// (`isNewer(than:)`) wins.
public struct RenewalFact: Sendable, Hashable, Codable {
    /// The subscription this describes.
    public var originalTransactionID: String
    /// The app's bundle id.
    public var bundleID: String
    /// Production or sandbox; never mixed.
    public var environment: AppStoreEnvironment
    /// The product of the current period.
    public var productID: String?
    /// The product the next period renews to.
    public var autoRenewProductID: String?
    /// Whether the subscription will renew; `nil` when Apple did not say.
    public var autoRenewStatus: Bool?
    /// Why the subscription expired, when it did.
    public var expirationIntent: ExpirationIntent?
    /// Apple is still trying to charge for the renewal.
    public var isInBillingRetryPeriod: Bool
    /// End of the grace period during a billing retry.
    public var gracePeriodExpiresDate: Date?
    /// Apple's `price_consent_status`.
    public var priceConsentStatus: String?
    /// The win-back offers Apple would show the customer now (v2 `eligibleWinBackOfferIds`;
    /// nil when Apple did not say, as v1 never does).
    public var eligibleWinBackOfferIDs: [String]?
    /// When Apple said it: the upstream response time of a verify, or when a notification was processed.
    public var observedAt: Date
    /// Apple's `renewalPrice` (milliunits) and its `currency`: what the next renewal will cost
    /// (signed renewal info only).
    public var renewalPriceMilliunits: Int64?
    public var renewalCurrency: String?

    /// `renewalPrice` in units of its currency; nil when Apple stated none.
    public var renewalPrice: (amount: Decimal, currency: String?)? {
        renewalPriceMilliunits.map { (Decimal.scaled($0, exponent: -3), renewalCurrency) }
    }

    /// Builds a fact field by field.
    public init(
        originalTransactionID: String,
        bundleID: String,
        environment: AppStoreEnvironment,
        productID: String? = nil,
        autoRenewProductID: String? = nil,
        autoRenewStatus: Bool? = nil,
        expirationIntent: ExpirationIntent? = nil,
        isInBillingRetryPeriod: Bool = false,
        gracePeriodExpiresDate: Date? = nil,
        priceConsentStatus: String? = nil,
        eligibleWinBackOfferIDs: [String]? = nil,
        observedAt: Date,
        renewalPriceMilliunits: Int64? = nil,
        renewalCurrency: String? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.bundleID = bundleID
        self.environment = environment
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID
        self.autoRenewStatus = autoRenewStatus
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.priceConsentStatus = priceConsentStatus
        self.eligibleWinBackOfferIDs = eligibleWinBackOfferIDs
        self.observedAt = observedAt
        self.renewalPriceMilliunits = renewalPriceMilliunits
        self.renewalCurrency = renewalCurrency
    }

    /// The fact a `pending_renewal_info` entry states; `nil` without an original transaction id.
    public init?(
        pendingRenewalInfo info: PendingRenewalInfo,
        bundleID: String,
        environment: AppStoreEnvironment,
        observedAt: Date
    ) {
        guard let originalTransactionID = info.originalTransactionID else { return nil }
        self.init(
            originalTransactionID: originalTransactionID,
            bundleID: bundleID,
            environment: environment,
            productID: info.productID,
            autoRenewProductID: info.autoRenewProductID,
            autoRenewStatus: info.autoRenewStatus,
            expirationIntent: info.expirationIntent,
            isInBillingRetryPeriod: info.isInBillingRetryPeriod ?? false,
            gracePeriodExpiresDate: info.gracePeriodExpiresDate,
            priceConsentStatus: info.priceConsentStatus,
            observedAt: observedAt
        )
    }

    /// Whether this statement should replace `other`.
    ///
    /// A strictly later `observedAt` wins. At the same instant the larger content key wins,
    /// so two workers storing the pair in opposite orders still end with the same row.
    public func isNewer(than other: RenewalFact) -> Bool {
        if observedAt != other.observedAt { return observedAt > other.observedAt }
        return other.contentKey.lexicographicallyPrecedes(contentKey)
    }

    /// The newest of several statements (see `isNewer(than:)`), independent of their order.
    public static func newest(_ facts: [RenewalFact]) -> RenewalFact? {
        facts.reduce(nil) { best, fact in
            guard let best else { return fact }
            return fact.isNewer(than: best) ? fact : best
        }
    }

    /// Every field but `observedAt`, as text in a fixed order; absent and present values never collide.
    private var contentKey: [String] {
        func text(_ value: String?) -> String { value.map { "=" + $0 } ?? "" }
        return [
            originalTransactionID, bundleID, environment.rawValue,
            text(productID), text(autoRenewProductID),
            text(autoRenewStatus.map { $0 ? "1" : "0" }),
            text(expirationIntent?.rawValue),
            isInBillingRetryPeriod ? "1" : "0",
            text(gracePeriodExpiresDate.map { String($0.timeIntervalSince1970) }),
            text(priceConsentStatus),
            text(eligibleWinBackOfferIDs.map { $0.joined(separator: ",") }),
            text(renewalPriceMilliunits.map(String.init)), text(renewalCurrency),
        ]
    }
}
