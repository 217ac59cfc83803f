import AppStore
import Foundation
import Store
import Subscriptions

/// The contract's subscription JSON (DESIGN.md): every field always present, absent values `null`.
public struct SubscriptionDocument: Sendable {
    let view: SubscriptionView
    let includeTransactions: Bool

    /// Wraps a view; `includeTransactions` adds the `"transactions"` array.
    public init(_ view: SubscriptionView, includeTransactions: Bool) {
        self.view = view
        self.includeTransactions = includeTransactions
    }
}

/// One transaction inside a subscription document.
public struct TransactionDocument: Sendable {
    let fact: TransactionFact
}
