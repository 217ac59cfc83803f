import Foundation

/// The `receipt` object of a verifyReceipt response: the decoded app receipt.
public struct ReceiptBody: Sendable, Decodable {
    /// `bundle_id` (iOS 6 style receipts: `bid`).
    public var bundleID: String?
    /// `in_app`: the purchases the receipt holds (finished consumables drop out).
    public var inApp: [ReceiptTransaction]
    /// `original_application_version`: the app version the customer first bought.
    public var originalApplicationVersion: String?
    /// An iOS 6 style receipt is itself one transaction; `nil` for modern receipts.
    public var legacyTransaction: ReceiptTransaction?
    /// `request_date_ms`: when the verifyReceipt request reached Apple, by Apple's clock —
    /// the time Apple's answer speaks for, comparable with a signed payload's `signedDate`.
    public var requestDate: Date?

    /// Builds a receipt body in code (tests, the simulator).
    public init(
        bundleID: String?,
        inApp: [ReceiptTransaction] = [],
        originalApplicationVersion: String? = nil,
        legacyTransaction: ReceiptTransaction? = nil,
        requestDate: Date? = nil
    ) {
        self.bundleID = bundleID
        self.inApp = inApp
        self.originalApplicationVersion = originalApplicationVersion
        self.legacyTransaction = legacyTransaction
        self.requestDate = requestDate
    }

    /// Decodes leniently; only a non-object fails.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        let isLegacy = !c.contains(AppleKey("in_app")) && c.contains(AppleKey("product_id"))
        self.init(
            bundleID: c.lenientString("bundle_id", "bid"),
            inApp: try c.lenientObjects(ReceiptTransaction.self, "in_app"),
            originalApplicationVersion: c.lenientString("original_application_version"),
            legacyTransaction: isLegacy ? try AppleValueError.passing { try ReceiptTransaction(from: decoder) } : nil,
            requestDate: try c.lenientDate("request_date_ms", "request_date")
        )
    }
}
