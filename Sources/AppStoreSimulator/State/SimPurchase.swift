import Foundation

/// One purchase of a consumable, non-consumable or non-renewing product: an `in_app` entry
/// without `expires_date`, a v2 transaction of type `Consumable`, `Non-Consumable` or
/// `Non-Renewing Subscription`.
public struct SimPurchase: Sendable, Hashable {
    /// `transaction_id` (also its `original_transaction_id`).
    public var transactionID: String
    /// `product_id`.
    public var productID: String
    /// The product's type.
    public var kind: SimPurchaseProduct.Kind
    /// `purchase_date`.
    public var purchaseDate: Date
    /// `quantity`.
    public var quantity: Int
    /// What it cost, in milliunits of `currency` (v2's `price`).
    public var priceMilliunits: Int
    /// v2's `currency`.
    public var currency: String
    /// The storefront it was bought in (v2's `storefront`).
    public var storefront: String
    /// `cancellation_date` / `revocationDate`: when Apple refunded it.
    public var cancellationDate: Date?
    /// `cancellation_reason` / `revocationReason`: `"1"` app issue, `"0"` other.
    public var cancellationReason: String?
    /// The refund was prorated (v2's `revocationType` `REFUND_PRORATED`, else `REFUND_FULL`).
    public var proratedRefund: Bool
    /// For a prorated refund, the share Apple gave back in thousandths of a percent (v2's
    /// `revocationPercentage`, 0...100000).
    public var refundPercentage: Int?

    /// A purchase from its parts.
    public init(
        transactionID: String,
        productID: String,
        kind: SimPurchaseProduct.Kind,
        purchaseDate: Date,
        quantity: Int = 1,
        priceMilliunits: Int = 0,
        currency: String = SimStorefront.usa.currency,
        storefront: String = SimStorefront.usa.code,
        cancellationDate: Date? = nil,
        cancellationReason: String? = nil,
        proratedRefund: Bool = false,
        refundPercentage: Int? = nil
    ) {
        self.transactionID = transactionID
        self.productID = productID
        self.kind = kind
        self.purchaseDate = purchaseDate
        self.quantity = quantity
        self.priceMilliunits = priceMilliunits
        self.currency = currency
        self.storefront = storefront
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.proratedRefund = proratedRefund
        self.refundPercentage = refundPercentage
    }

    /// Refunded by Apple at or before `date`: it grants nothing.
    public func isRevoked(at date: Date) -> Bool {
        cancellationDate.map { $0 <= date } ?? false
    }

    /// v2's `revocationType`, once refunded.
    var revocationType: String? {
        cancellationDate == nil ? nil : proratedRefund ? "REFUND_PRORATED" : "REFUND_FULL"
    }
}
