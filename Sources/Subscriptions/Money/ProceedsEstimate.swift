import Foundation

/// Tax rates per storefront (`"tax_rates": {"DEU": 0.19}`): prices include them.
public struct TaxRates: Sendable, Equatable {
    public let rates: [String: Decimal]

    public init(_ rates: [String: Decimal] = [:]) {
        self.rates = rates
    }

    /// `price` without the storefront's tax: `price / (1 + rate)`; the price itself where no
    /// rate is given.
    public func excludingTax(_ price: Decimal, storefront: String?) -> Decimal {
        guard let storefront, let rate = rates[storefront] else { return price }
        return price / (1 + rate)
    }
}

/// What a transaction brought: what the customer paid (less what a refund gave back) and the
/// developer's estimated proceeds after tax and Apple's commission.
public struct TransactionMoney: Sendable, Equatable {
    /// What the customer paid and kept paid: the price, `1 - revocationPercentage` of it after
    /// a prorated refund, 0 after a full one.
    public let revenue: Decimal
    /// `revenue` without tax, less the commission.
    public let proceeds: Decimal
    /// ISO 4217 currency of both.
    public let currency: String

    /// The money of a transaction of `price` in `currency`, sold in `storefront`, at `rate`.
    ///
    /// - Parameters:
    ///   - refund: nil when not refunded; the share Apple refunded (`1` for a full refund or
    ///     one without `revocationType`) when it was.
    public static func of(
        price: Decimal, currency: String, storefront: String?, refund: Decimal?, commission: CommissionRate, taxRates: TaxRates
    ) -> TransactionMoney {
        let kept = refund.map { price * max(0, 1 - min($0, 1)) } ?? price
        let proceeds = taxRates.excludingTax(kept, storefront: storefront) * (1 - commission.share)
        return TransactionMoney(revenue: kept, proceeds: proceeds, currency: currency)
    }
}
