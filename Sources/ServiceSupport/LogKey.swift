/// The metadata keys of our log lines, in one place so they stay consistent.
public enum LogKey {
    /// An error's safe description.
    public static let error = "error"
    /// An inbox notification's id.
    public static let notificationID = "notification.id"
    /// A notification's type.
    public static let notificationType = "notification.type"
    /// An app's bundle id.
    public static let bundleID = "bundle_id"
    /// An original transaction id.
    public static let originalTransactionID = "original_transaction_id"
    /// Processing attempt number.
    public static let attempt = "attempt"
    /// An outbound webhook event's id (`evt_…`).
    public static let webhookEventID = "webhook.event_id"
    /// How many entries an intake batch held.
    public static let batchSize = "batch.size"
    /// An upstream verifyReceipt status.
    public static let upstreamStatus = "upstream.status"
}
