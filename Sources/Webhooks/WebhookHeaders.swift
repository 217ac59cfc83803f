import Foundation
import HTTPClient
import Settings

/// The headers that identify and sign one delivery: subscriptiond's own
/// (`Subscriptiond-Event-Id`, `Subscriptiond-Timestamp`, `Subscriptiond-Signature`, unchanged
/// since the first release) and the Standard Webhooks ones (`webhook-id`, `webhook-timestamp`,
/// `webhook-signature`), so the standard's libraries verify a delivery in any language.
/// Both carry one signature per secret of the target.
public enum WebhookHeaders {
    /// The six headers for event `id` with `body`, sent at `timestamp` (UNIX seconds).
    public static func signed(id: String, timestamp: Int64, body: [UInt8], secrets: [WebhookSecret]) -> [HTTPHeader] {
        [
            HTTPHeader(name: "Subscriptiond-Event-Id", value: id),
            HTTPHeader(name: "Subscriptiond-Timestamp", value: String(timestamp)),
            HTTPHeader(name: "Subscriptiond-Signature", value: WebhookSignature.header(secrets: secrets, timestamp: timestamp, body: body)),
            HTTPHeader(name: "webhook-id", value: id),
            HTTPHeader(name: "webhook-timestamp", value: String(timestamp)),
            HTTPHeader(
                name: "webhook-signature",
                value: StandardWebhookSignature.header(secrets: secrets, id: id, timestamp: timestamp, body: body)),
        ]
    }
}
