extension NotificationV1: CustomStringConvertible, CustomDebugStringConvertible {
    /// A log-safe summary: never the shared secret, never the receipt.
    public var description: String {
        let ids = originalTransactionIDs.joined(separator: ",")
        return "NotificationV1(type: \(notificationTypeRaw), environment: \(environmentRaw ?? "-"), "
            + "bid: \(bundleID ?? "-"), original_transaction_ids: [\(ids)])"
    }

    /// The same log-safe summary, so `String(reflecting:)` cannot leak `password` either.
    public var debugDescription: String { description }
}
