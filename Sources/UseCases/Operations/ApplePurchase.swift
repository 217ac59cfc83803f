import AppStore
import Foundation

/// One purchase as Apple signed it, for an operator to read: what Look Up Order ID and Get
/// Refund History answer.
public struct ApplePurchase: Sendable, Hashable {
    public let transactionID: String
    public let originalTransactionID: String
    public let productID: String
    /// Apple's `type` (`Auto-Renewable Subscription`, `Consumable`, …).
    public let type: String?
    public let purchaseDate: Date?
    public let expiresDate: Date?
    /// When Apple refunded it, if it did, and why (`revocationReason`: 0 other, 1 an issue in the app).
    public let revocationDate: Date?
    public let revocationReason: Int?

    /// The purchase a verified transaction describes.
    public init(_ transaction: JWSTransactionPayload) {
        transactionID = transaction.transactionID ?? ""
        originalTransactionID = transaction.originalTransactionID ?? ""
        productID = transaction.productID ?? ""
        type = transaction.typeRaw
        purchaseDate = transaction.purchaseDate
        expiresDate = transaction.expiresDate
        revocationDate = transaction.revocationDate
        revocationReason = transaction.revocationReason
    }
}
