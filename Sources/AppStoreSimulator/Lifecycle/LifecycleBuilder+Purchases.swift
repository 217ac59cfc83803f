import Foundation

/// Consumables, non-consumables and non-renewing subscriptions: bought once, refunded perhaps,
/// and measured in real days (Apple accelerates only auto-renewable periods in the sandbox).
extension LifecycleBuilder {
    /// Buys `product` now (`ONE_TIME_CHARGE` in v2; silent in v1, where the app posts its
    /// receipt); returns the transaction id.
    @discardableResult
    mutating func buy(_ product: SimPurchaseProduct) -> String {
        let charge = product.charge(in: storefront)
        let purchase = SimPurchase(
            transactionID: ids.nextTransactionID(), productID: product.productID, kind: product.kind,
            purchaseDate: now, priceMilliunits: charge.milliunits, currency: charge.currency, storefront: storefront
        )
        modifyPurchases { $0.append(purchase) }
        record(.oneTimeCharge, purchase: purchase.transactionID)
        return purchase.transactionID
    }

    /// Apple refunds the purchase `transactionID` now (`REFUND` in both versions), in full or
    /// `prorated` (by the share of a pass's own period not yet used; all of anything else), for
    /// `reason` (`"0"` other, `"1"` app issue).
    mutating func refundPurchase(_ transactionID: String, reason: String, prorated: Bool = false) {
        let moment = now
        let catalog = self.catalog
        modifyPurchases { purchases in
            guard let index = purchases.firstIndex(where: { $0.transactionID == transactionID }) else { return }
            let bought = purchases[index]
            let end = catalog.purchaseProduct(bought.productID)?.period.map { $0.end(from: bought.purchaseDate) }
            purchases[index].cancellationDate = moment
            purchases[index].cancellationReason = reason
            purchases[index].proratedRefund = prorated
            purchases[index].refundPercentage =
                prorated ? end.map { Self.unusedShare(from: bought.purchaseDate, to: $0, at: moment) } ?? 100_000 : nil
        }
        record(.oneTimeRefund, purchase: transactionID)
    }

    /// Lets `days` real days pass, in either environment.
    mutating func wait(days: Int) {
        advance(to: now.addingTimeInterval(TimeInterval(days) * 86_400))
    }
}
