import AppStore
import Foundation
import Subscriptions

/// A one-time purchase frozen in the outbox (`webhook_events.purchase`), as the subscriber
/// JSON's `purchases` shows it, so every attempt of its event sends the same bytes.
struct StoredPurchaseState: OutboxFrozenState {
    var transactionID: String
    var originalTransactionID: String
    var productID: String
    var bundleID: String
    var environment: AppStoreEnvironment
    var purchaseDate: Date
    var type: String?
    var expiresAt: Date?
    var quantity: Int?
    var priceMilliunits: Int64?
    var currency: String?
    var storefront: String?
    var cancellationDate: Date?
    var cancellationReason: String?
    var revocationType: String?

    init(_ purchase: PurchaseSummary) {
        let fact = purchase.fact
        transactionID = fact.transactionID
        originalTransactionID = fact.originalTransactionID
        productID = fact.productID
        bundleID = fact.bundleID
        environment = fact.environment
        purchaseDate = fact.purchaseDate
        type = purchase.type?.rawValue
        expiresAt = purchase.expiresAt
        quantity = fact.quantity
        priceMilliunits = fact.priceMilliunits
        currency = fact.currency
        storefront = fact.storefront
        cancellationDate = fact.cancellationDate
        cancellationReason = fact.cancellationReason
        revocationType = fact.revocationType
    }

    /// The purchase again.
    var summary: PurchaseSummary {
        PurchaseSummary(
            fact: TransactionFact(
                transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID, bundleID: bundleID,
                environment: environment, purchaseDate: purchaseDate, cancellationDate: cancellationDate,
                cancellationReason: cancellationReason, productType: type.flatMap(ProductType.init(rawValue:)), quantity: quantity,
                priceMilliunits: priceMilliunits, currency: currency, storefront: storefront, revocationType: revocationType),
            type: type.flatMap(ProductType.init(rawValue:)), expiresAt: expiresAt)
    }
}
