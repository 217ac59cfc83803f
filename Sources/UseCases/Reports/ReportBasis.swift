import AppStore
import Crypto
import Foundation
import Settings
import Store
import Subscriptions

/// What the rollups' shares are computed with: the catalog's prices and periods, tax rates
/// and the Small Business Program (exchange rates are applied when a report is read).
public struct ReportBasis: Sendable {
    public let catalog: ProductCatalog
    public let pricing: ReportPricing
    /// A digest of everything above: shares counted under another are recounted.
    public let fingerprint: String

    public init(catalog: ProductCatalog, money: MoneySettings) {
        self.catalog = catalog
        self.pricing = ReportPricing(catalog: catalog, taxRates: money.taxRates, smallBusiness: { money.smallBusinessProgram(of: $0) })
        var text = "rollups 1\n"
        for product in catalog.products.sorted(by: { $0.productID < $1.productID }) {
            let prices = (product.prices ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.amount) \($0.value.currency)" }
            text +=
                "\(product.productID) \(product.type.rawValue) \(product.period.map { "\($0)" } ?? "-") "
                + "\(product.price.map { "\($0.amount) \($0.currency)" } ?? "-") \(prices.joined(separator: ","))\n"
        }
        text += PurchasePricing(taxRates: money.taxRates, smallBusiness: money.smallBusiness).fingerprint
        self.fingerprint = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// True when `transaction` belongs to an auto-renewable subscription: the catalog says so,
    /// else the transaction, else it expires inside a subscription group.
    public func isAutoRenewable(_ transaction: TransactionFact) -> Bool {
        if let type = catalog.product(transaction.productID)?.type ?? transaction.productType { return type == .autoRenewable }
        return transaction.expiresDate != nil && transaction.subscriptionGroupID != nil
    }

    /// The shares of `keys` now (empty for a chain without facts any more).
    func shares(
        of keys: [ReportRollupStore.ChainKey], _ counter: any ReportRollupCounter
    ) throws
        -> [ReportRollupStore.ChainKey: ChainRollup]
    {
        var shares = Dictionary(uniqueKeysWithValues: keys.map { ($0, ChainRollup()) })
        for chain in try counter.facts(of: keys, isAutoRenewable: isAutoRenewable) {
            let key = ReportRollupStore.ChainKey(
                environment: chain.environment.rawValue, originalTransactionID: chain.originalTransactionID)
            shares[key] = ChainRollup.of(ChainContributions.of(chain, pricing: pricing))
        }
        return shares
    }
}
