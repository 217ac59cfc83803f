import Foundation

/// One one-time purchase as the subscriber JSON's `purchases` shows it.
public struct PurchaseSummary: Sendable, Hashable {
    /// The purchase as stored.
    public let fact: TransactionFact
    /// Apple's type for it, else the catalog's; nil when neither says.
    public let type: ProductType?
    /// The end of its own period (non-renewing subscriptions, trial products); nil otherwise.
    public let expiresAt: Date?

    /// A purchase with its type and period end.
    public init(fact: TransactionFact, type: ProductType?, expiresAt: Date?) {
        self.fact = fact
        self.type = type
        self.expiresAt = expiresAt
    }

    /// The purchases of `holdings`, oldest first.
    public static func purchases(of holdings: CustomerHoldings, catalog: ProductCatalog) -> [PurchaseSummary] {
        holdings.oneTimePurchases
            .sorted { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) }
            .map { fact in
                PurchaseSummary(
                    fact: fact, type: fact.productType ?? catalog.product(fact.productID)?.type,
                    expiresAt: EntitlementRule.periodEnd(of: fact, catalog: catalog))
            }
    }

    /// What the customer paid as decimal text (`9990` milliunits → `"9.99"`): at least two
    /// decimals, more only when Apple's milliunits need them; nil when Apple did not say.
    public var price: String? {
        guard let milliunits = fact.priceMilliunits else { return nil }
        let sign = milliunits < 0 ? "-" : ""
        let magnitude = milliunits.magnitude
        let whole = magnitude / 1000
        let fraction = magnitude % 1000
        let decimals = fraction % 10 == 0 ? String(format: "%02d", Int(fraction / 10)) : String(format: "%03d", Int(fraction))
        return "\(sign)\(whole).\(decimals)"
    }
}
