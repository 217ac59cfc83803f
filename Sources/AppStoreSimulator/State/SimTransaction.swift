import Foundation

/// One subscription period the customer bought: a `latest_receipt_info` entry.
public struct SimTransaction: Sendable, Hashable {
    /// `transaction_id`.
    public var transactionID: String
    /// `original_transaction_id`: the same for every period of the subscription.
    public var originalTransactionID: String
    /// `product_id`.
    public var productID: String
    /// `subscription_group_identifier`.
    public var groupID: String
    /// `purchase_date`: when this period was bought or renewed.
    public var purchaseDate: Date
    /// `original_purchase_date`: when the subscription was first bought.
    public var originalPurchaseDate: Date
    /// `expires_date`.
    public var expiresDate: Date
    /// `web_order_line_item_id`.
    public var webOrderLineItemID: String
    /// `is_trial_period`.
    public var isTrialPeriod: Bool
    /// `is_in_intro_offer_period`.
    public var isInIntroOfferPeriod: Bool
    /// `is_upgraded`: an upgrade ended this period early.
    public var isUpgraded: Bool = false
    /// `cancellation_date`: a refund, or (with `isUpgraded`) the moment of the upgrade.
    public var cancellationDate: Date?
    /// Bought by an automatic (or recovered) renewal rather than by the customer: v2's
    /// `transactionReason` `RENEWAL` instead of `PURCHASE`.
    public var isRenewal: Bool = false
    /// `cancellation_reason`: `"1"` app issue, `"0"` other; refunds and revocations only.
    public var cancellationReason: String?
    /// The promotional offer or offer code this period was bought with, if any.
    public var offer: SimOffer?
    /// A family member's access through Family Sharing (`in_app_ownership_type`
    /// `FAMILY_SHARED`) rather than the customer's own purchase.
    public var isFamilyShared: Bool = false
    /// The storefront it was bought in (v2's `storefront`).
    public var storefront: String = SimStorefront.usa.code
    /// What Apple charged for the period (v2's `price` and `currency`): nothing for a free trial.
    public var charge = SimCharge.free(SimStorefront.usa.currency)
    /// For a prorated refund, the share Apple gave back in thousandths of a percent (v2's
    /// `revocationPercentage`, 0...100000); `nil` for a full refund.
    public var refundPercentage: Int?

    /// A period from its parts; a refund or upgrade adds `cancellationDate`.
    public init(
        transactionID: String,
        originalTransactionID: String,
        productID: String,
        groupID: String,
        purchaseDate: Date,
        originalPurchaseDate: Date,
        expiresDate: Date,
        webOrderLineItemID: String,
        isTrialPeriod: Bool = false,
        isInIntroOfferPeriod: Bool = false,
        storefront: String = SimStorefront.usa.code,
        charge: SimCharge = .free(SimStorefront.usa.currency)
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.groupID = groupID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.storefront = storefront
        self.charge = charge
    }

    /// Refunded or revoked by Apple (an upgrade's cancellation date does not count; a
    /// reversed refund has none left).
    public var isRefunded: Bool {
        cancellationDate != nil && !isUpgraded
    }

    /// v2's `revocationType` once refunded (`REFUND_PRORATED` or `REFUND_FULL`); a family
    /// member's revoked access states none, as before Apple added the field.
    var revocationType: String? {
        guard isRefunded, !isFamilyShared else { return nil }
        return refundPercentage == nil ? "REFUND_FULL" : "REFUND_PRORATED"
    }

    /// `in_app_ownership_type` / `inAppOwnershipType`.
    var ownershipType: String {
        isFamilyShared ? "FAMILY_SHARED" : "PURCHASED"
    }
}
