import AppStore
import Foundation
import Store
import Subscriptions

/// The contract's subscription JSON (DESIGN.md): every field always present, absent values `null`.
public struct SubscriptionDocument: Sendable {
    /// The subscription as read.
    public let view: SubscriptionView
    let includeTransactions: Bool
    /// Each transaction's price and estimated proceeds by transaction id (unpriced ones
    /// absent); nil: the document shows no money (a webhook event's subscription).
    let money: [String: PurchaseMoney]?

    /// Wraps a view without money (a webhook event's subscription); `includeTransactions`
    /// adds the `"transactions"` array.
    public init(_ view: SubscriptionView, includeTransactions: Bool) {
        self.view = view
        self.includeTransactions = includeTransactions
        self.money = nil
    }

    /// Wraps a view as the read endpoints show it: each transaction, and the subscription for
    /// its latest period, with `price`, `currency`, `storefront`, `price_source` and `proceeds`
    /// under `pricing` and `catalog`.
    public init(_ view: SubscriptionView, includeTransactions: Bool, pricing: PurchasePricing, catalog: ProductCatalog) {
        self.view = view
        self.includeTransactions = includeTransactions
        self.money = pricing.money(ofSubscription: view.transactions, catalog: catalog)
    }

    /// The price and estimated proceeds of one of its transactions; nil when unpriced or the
    /// document shows no money.
    public func money(of transactionID: String) -> PurchaseMoney? {
        money?[transactionID]
    }

    /// The transaction of the latest period (the snapshot's), whose money the subscription shows.
    public var latestTransaction: TransactionFact? {
        view.transactions.last { $0.transactionID == view.snapshot.latestTransactionID }
    }
}

/// One transaction inside a subscription document.
public struct TransactionDocument: Sendable {
    let fact: TransactionFact
    /// False: no money fields (the document shows none).
    let showsMoney: Bool
    let money: PurchaseMoney?
}
