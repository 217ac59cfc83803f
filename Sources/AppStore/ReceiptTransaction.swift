import Foundation

/// One purchase transaction: an entry of `latest_receipt_info[]` or `receipt.in_app[]`.
///
/// Every field is read leniently (ids as numbers or strings, booleans as `"true"`, `"1"`,
/// `1` or `true`, dates from the `_ms` fields) because Apple's types changed over the years.
public struct ReceiptTransaction: Sendable, Decodable, Hashable {
    /// `transaction_id`: unique per transaction (each renewal gets a new one).
    public var transactionID: String
    /// `original_transaction_id`: the first transaction of the subscription; the subscription's key.
    public var originalTransactionID: String
    /// `product_id`.
    public var productID: String
    /// `quantity`.
    public var quantity: Int?
    /// `purchase_date_ms`: the start of this transaction's period.
    public var purchaseDate: Date?
    /// `original_purchase_date_ms`.
    public var originalPurchaseDate: Date?
    /// `expires_date_ms` (legacy bodies: milliseconds in `expires_date`); `nil` for non-subscriptions.
    public var expiresDate: Date?
    /// `web_order_line_item_id`: stable across devices for one subscription period.
    public var webOrderLineItemID: String?
    /// `is_trial_period`: the period is a free trial.
    public var isTrialPeriod: Bool
    /// `is_in_intro_offer_period`: the period uses a paid introductory offer.
    public var isInIntroOfferPeriod: Bool
    /// `is_upgraded`: the period was ended early by an upgrade to another product.
    public var isUpgraded: Bool
    /// `cancellation_date_ms`: when Apple refunded or revoked it (older bodies: also upgrades).
    public var cancellationDate: Date?
    /// `cancellation_reason`: `"1"` an issue in the app, `"0"` another reason.
    public var cancellationReason: String?
    /// `subscription_group_identifier`.
    public var subscriptionGroupIdentifier: String?
    /// `in_app_ownership_type`: `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// `promotional_offer_id`.
    public var promotionalOfferID: String?
    /// `offer_code_ref_name`.
    public var offerCodeRefName: String?
    /// `bid`: legacy bodies name the bundle inside the transaction.
    public var bundleID: String?

    /// Builds a transaction in code (tests, the simulator); unspecified fields are absent.
    public init(
        transactionID: String,
        originalTransactionID: String,
        productID: String,
        quantity: Int? = 1,
        purchaseDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        webOrderLineItemID: String? = nil,
        isTrialPeriod: Bool = false,
        isInIntroOfferPeriod: Bool = false,
        isUpgraded: Bool = false,
        cancellationDate: Date? = nil,
        cancellationReason: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        inAppOwnershipType: String? = nil,
        promotionalOfferID: String? = nil,
        offerCodeRefName: String? = nil,
        bundleID: String? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.isUpgraded = isUpgraded
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.inAppOwnershipType = inAppOwnershipType
        self.promotionalOfferID = promotionalOfferID
        self.offerCodeRefName = offerCodeRefName
        self.bundleID = bundleID
    }

    /// Decodes one transaction object; fails only without an id or a product id.
    ///
    /// A transaction lacking `transaction_id` takes `original_transaction_id` (and the
    /// reverse): Apple gives a subscription's first transaction the same value for both,
    /// and the only bodies seen without one are trimmed first-purchase (`INITIAL_BUY`) ones.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        let id = c.lenientString("transaction_id")
        let originalID = c.lenientString("original_transaction_id")
        guard let transactionID = id ?? originalID, let originalTransactionID = originalID ?? id else {
            throw DecodingError.keyNotFound(
                AppleKey("transaction_id"),
                .init(codingPath: decoder.codingPath, debugDescription: "no transaction_id nor original_transaction_id")
            )
        }
        guard let productID = c.lenientString("product_id") else {
            throw DecodingError.keyNotFound(
                AppleKey("product_id"),
                .init(codingPath: decoder.codingPath, debugDescription: "transaction without product_id")
            )
        }
        self.init(
            transactionID: transactionID,
            originalTransactionID: originalTransactionID,
            productID: productID,
            quantity: c.lenientInt("quantity"),
            purchaseDate: try c.lenientDate("purchase_date_ms", "purchase_date"),
            originalPurchaseDate: try c.lenientDate("original_purchase_date_ms", "original_purchase_date"),
            expiresDate: try c.lenientDate("expires_date_ms", "expires_date"),
            webOrderLineItemID: c.lenientString("web_order_line_item_id"),
            isTrialPeriod: c.lenientBool("is_trial_period") ?? false,
            isInIntroOfferPeriod: c.lenientBool("is_in_intro_offer_period") ?? false,
            isUpgraded: c.lenientBool("is_upgraded") ?? false,
            cancellationDate: try c.lenientDate("cancellation_date_ms", "cancellation_date"),
            cancellationReason: c.lenientString("cancellation_reason"),
            subscriptionGroupIdentifier: c.lenientString("subscription_group_identifier"),
            inAppOwnershipType: c.lenientString("in_app_ownership_type"),
            promotionalOfferID: c.lenientString("promotional_offer_id"),
            offerCodeRefName: c.lenientString("offer_code_ref_name"),
            bundleID: c.lenientString("bid", "bundle_id")
        )
    }
}
