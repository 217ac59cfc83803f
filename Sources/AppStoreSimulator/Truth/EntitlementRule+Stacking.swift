import Foundation

extension EntitlementRule {
    /// One purchase's place in a run of stacked non-renewing subscriptions.
    public struct StackedPeriod: Sendable, Hashable {
        /// The product bought.
        public var productID: String
        /// When this purchase starts to count: its purchase date, or the end of the one before.
        public var start: Date
        /// `start` plus the product's period.
        public var end: Date
        /// The end of the run of periods this one belongs to.
        public var chainEnd: Date
    }

    /// Stacks `purchases` (non-revoked non-renewing ones, in any order): sorted by purchase
    /// date, each covers `[max(purchase, end of the one before), that + period)`; a purchase
    /// made after the one before ended starts a new chain. Purchases of products without a
    /// period in `catalog` are left out.
    public static func stack(_ purchases: [SimPurchase], catalog: ProductCatalog) -> [StackedPeriod] {
        let sorted = purchases.sorted { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) }
        var periods: [StackedPeriod] = []
        var chainStart = 0
        for purchase in sorted {
            guard let length = catalog.purchaseProduct(purchase.productID)?.period else { continue }
            let previousEnd = periods.last?.end
            let start = max(purchase.purchaseDate, previousEnd ?? purchase.purchaseDate)
            if let previousEnd, purchase.purchaseDate > previousEnd {
                chainStart = periods.count
            }
            let end = length.end(from: start)
            periods.append(StackedPeriod(productID: purchase.productID, start: start, end: end, chainEnd: end))
            for index in chainStart..<periods.count {
                periods[index].chainEnd = end
            }
        }
        return periods
    }

    /// The stacked period covering `date`: its product, and the end of its chain.
    static func nonRenewing(_ purchases: [SimPurchase], catalog: ProductCatalog, at date: Date) -> (productID: String, end: Date)? {
        stack(purchases, catalog: catalog).first { $0.start <= date && date < $0.end }.map { ($0.productID, $0.chainEnd) }
    }
}
