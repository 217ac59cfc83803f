/// The inbox's dedupe keys, one format per source and all of them here: a redelivered
/// notification or a repeated request finds its stored entry by its key.
public enum DedupeKey {
    /// A version 1 notification: the SHA-256 (hex) of its body as received.
    public static func v1(bodyDigest: String) -> String { "v1:" + bodyDigest }

    /// A version 2 notification: Apple's `notificationUUID` (taken only from a verified payload).
    public static func v2(notificationUUID: String) -> String { "v2:" + notificationUUID }

    /// A receipt queued by `POST /v1/receipts`: the SHA-256 (hex) of its stored body.
    public static func queuedReceipt(bodyDigest: String) -> String { "receipt:" + bodyDigest }

    /// A transaction lookup queued by `POST /v1/transactions`: the SHA-256 (hex) of its stored body.
    public static func queuedLookup(bodyDigest: String) -> String { "transaction:" + bodyDigest }
}
