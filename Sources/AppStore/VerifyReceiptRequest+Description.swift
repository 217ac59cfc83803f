extension VerifyReceiptRequest: CustomStringConvertible, CustomDebugStringConvertible {
    /// A log-safe summary: the receipt's length only, and whether a secret is set.
    public var description: String {
        "VerifyReceiptRequest(receipt-data: \(receiptData.utf8.count) bytes, password: \(password == nil ? "none" : "redacted"), "
            + "exclude-old-transactions: \(excludeOldTransactions.map(String.init) ?? "-"))"
    }

    /// The same log-safe summary, so `String(reflecting:)` cannot leak the secret either.
    public var debugDescription: String { description }
}
