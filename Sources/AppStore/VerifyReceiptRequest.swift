import Foundation

/// The JSON body POSTed to Apple's `verifyReceipt`.
public struct VerifyReceiptRequest: Sendable, Encodable, Hashable {
    /// `receipt-data`: the base64 receipt.
    public var receiptData: String
    /// `password`: the app's shared secret, required for auto-renewable subscriptions.
    public var password: String?
    /// `exclude-old-transactions`: only the latest renewal in `latest_receipt_info`.
    public var excludeOldTransactions: Bool?

    /// Creates a request; leave `password` nil only for apps without subscriptions.
    public init(receiptData: String, password: String?, excludeOldTransactions: Bool? = nil) {
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    private enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case password
        case excludeOldTransactions = "exclude-old-transactions"
    }

    /// The request body; absent options are left out rather than sent as `null`.
    public func jsonBytes() throws -> [UInt8] {
        let encoder = JSONEncoder()
        // Base64 is full of slashes; keep them unescaped so the body is plain to read.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
