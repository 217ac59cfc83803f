import Foundation

/// Prices and estimated proceeds of single purchases (DESIGN.md, "Money and reports"): Apple's
/// price, else the catalog's; the operator's tax rates and each app's Small Business Program
/// periods; Apple's commission as the reports count it (``ReportPricing``).
public struct PurchasePricing: Sendable, Equatable {
    /// Tax per storefront, which prices include.
    public let taxRates: TaxRates
    /// The Small Business Program periods per app (absent: never a member).
    public let smallBusiness: [String: SmallBusinessProgram]

    public init(taxRates: TaxRates = TaxRates(), smallBusiness: [String: SmallBusinessProgram] = [:]) {
        self.taxRates = taxRates
        self.smallBusiness = smallBusiness
    }

    /// A stable text naming every setting the proceeds depend on; empty for the defaults
    /// (no tax rates, no app in the program). Stored answers fold it into their format, so
    /// a restart with other settings does not serve the proceeds computed under the old ones.
    public var fingerprint: String {
        guard !taxRates.rates.isEmpty || smallBusiness.values.contains(where: { !$0.periods.isEmpty }) else { return "" }
        let taxes = taxRates.rates.keys.sorted().map { "\($0)=\(taxRates.rates[$0] ?? 0)" }
        let members = smallBusiness.filter { !$0.value.periods.isEmpty }
        let programs = members.keys.sorted().map { bundleID in
            let periods = (members[bundleID]?.periods ?? []).map { period in
                "\(period.from.timeIntervalSince1970)-\(period.until.map { "\($0.timeIntervalSince1970)" } ?? "")"
            }
            return "\(bundleID)=\(periods.joined(separator: "+"))"
        }
        return "tax:\(taxes.joined(separator: ","));sbp:\(programs.joined(separator: ","))"
    }

    /// The money of each transaction of an auto-renewable subscription (one original
    /// transaction in one environment) under `catalog`, by transaction id; unpriced ones are
    /// left out. The commission of each period depends on the paid service before it.
    public func money(ofSubscription transactions: [TransactionFact], catalog: ProductCatalog) -> [String: PurchaseMoney] {
        guard let first = transactions.first else { return [:] }
        let chain = ReportedSubscription(
            originalTransactionID: first.originalTransactionID, bundleID: first.bundleID, environment: first.environment,
            transactions: transactions, renewal: nil, isAutoRenewable: true)
        return money(of: chain, catalog: catalog)
    }

    /// The money of a one-time purchase (consumable, non-consumable, non-renewing
    /// subscription) under `catalog`; nil when unpriced.
    public func money(ofPurchase fact: TransactionFact, catalog: ProductCatalog) -> PurchaseMoney? {
        let chain = ReportedSubscription(
            originalTransactionID: fact.originalTransactionID, bundleID: fact.bundleID, environment: fact.environment,
            transactions: [fact], renewal: nil, isAutoRenewable: false)
        return money(of: chain, catalog: catalog)[fact.transactionID]
    }

    private func money(of chain: ReportedSubscription, catalog: ProductCatalog) -> [String: PurchaseMoney] {
        let smallBusiness = smallBusiness
        let pricing = ReportPricing(catalog: catalog, taxRates: taxRates, smallBusiness: { smallBusiness[$0] ?? SmallBusinessProgram() })
        var result: [String: PurchaseMoney] = [:]
        for transaction in chain.transactions {
            guard let price = ReportPricing.price(of: transaction, catalog: catalog) else { continue }
            let money = pricing.money(of: transaction, in: chain, price: (price.amount, price.currency), refunds: true)
            result[transaction.transactionID] = PurchaseMoney(
                price: price.amount, currency: price.currency, source: price.source, proceeds: money.proceeds)
        }
        return result
    }
}
