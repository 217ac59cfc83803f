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

    /// Builds a receipt body in code (tests, the simulator).
    public init(
        bundleID: String?,
        inApp: [ReceiptTransaction] = [],
        originalApplicationVersion: String? = nil,
        legacyTransaction: ReceiptTransaction? = nil
    ) {
        self.bundleID = bundleID
        self.inApp = inApp
        self.originalApplicationVersion = originalApplicationVersion
        self.legacyTransaction = legacyTransaction
    }

    /// Decodes leniently; only a non-object fails.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        let isLegacy = !c.contains(AppleKey("in_app")) && c.contains(AppleKey("product_id"))
        self.init(
            bundleID: c.lenientString("bundle_id", "bid"),
            inApp: try c.lenientObjects(ReceiptTransaction.self, "in_app"),
            originalApplicationVersion: c.lenientString("original_application_version"),
            legacyTransaction: isLegacy ? try AppleValueError.passing { try ReceiptTransaction(from: decoder) } : nil
        )
    }
}
