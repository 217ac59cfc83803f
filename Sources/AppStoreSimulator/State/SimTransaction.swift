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

    /// Refunded or revoked by Apple (an upgrade's cancellation date does not count; a
    /// reversed refund has none left).
    public var isRefunded: Bool {
        cancellationDate != nil && !isUpgraded
    }

    /// `in_app_ownership_type` / `inAppOwnershipType`.
    var ownershipType: String {
        isFamilyShared ? "FAMILY_SHARED" : "PURCHASED"
    }
}
