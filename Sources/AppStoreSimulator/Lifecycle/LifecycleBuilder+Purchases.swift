import Foundation

/// Consumables, non-consumables and non-renewing subscriptions: bought once, refunded perhaps,
/// and measured in real days (Apple accelerates only auto-renewable periods in the sandbox).
extension LifecycleBuilder {
    /// Buys `product` now (`ONE_TIME_CHARGE` in v2; silent in v1, where the app posts its
    /// receipt); returns the transaction id.
    @discardableResult
    mutating func buy(_ product: SimPurchaseProduct) -> String {
        let purchase = SimPurchase(
            transactionID: ids.nextTransactionID(), productID: product.productID, kind: product.kind,
            purchaseDate: now, priceMilliunits: SignedTransactionRenderer.milliunits(product.price)
        )
        modifyPurchases { $0.append(purchase) }
        record(.oneTimeCharge, purchase: purchase.transactionID)
        return purchase.transactionID
    }

    /// Apple refunds the purchase `transactionID` now (`REFUND` in both versions), in full or
    /// `prorated`, for `reason` (`"0"` other, `"1"` app issue).
    mutating func refundPurchase(_ transactionID: String, reason: String, prorated: Bool = false) {
        let moment = now
        modifyPurchases { purchases in
            guard let index = purchases.firstIndex(where: { $0.transactionID == transactionID }) else { return }
            purchases[index].cancellationDate = moment
            purchases[index].cancellationReason = reason
            purchases[index].proratedRefund = prorated
        }
        record(.oneTimeRefund, purchase: transactionID)
    }

    /// Lets `days` real days pass, in either environment.
    mutating func wait(days: Int) {
        advance(to: now.addingTimeInterval(TimeInterval(days) * 86_400))
    }
}
