import Crypto
import Foundation
import ServiceSupport
import Settings

/// The Standard Webhooks `webhook-signature` header (https://www.standardwebhooks.com):
/// `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed as ``WebhookSecret`` says;
/// during a rotation one such signature per secret, space-separated (`v1,<new> v1,<old>`).
public enum StandardWebhookSignature {
    /// The header's value for event `id` with `body` sent at `timestamp` (UNIX seconds),
    /// signed with each of `secrets`, in their order.
    public static func header(secrets: [WebhookSecret], id: String, timestamp: Int64, body: [UInt8]) -> String {
        secrets.map { signature(key: $0.standardKeyBytes, id: id, timestamp: timestamp, body: body) }.joined(separator: " ")
    }

    /// One `v1,<base64>` signature under the HMAC `key`.
    public static func signature(key: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> String {
        var message = Array("\(id).\(timestamp).".utf8)
        message.append(contentsOf: body)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return "v1," + Data(code).base64EncodedString()
    }

    /// True when one of the header's space-separated `v1,` signatures is that of `body` under
    /// `key` (constant-time comparison). What a receiver does; the tests use it too.
    public static func isValid(header: String, key: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> Bool {
        let expected = Array(signature(key: key, id: id, timestamp: timestamp, body: body).utf8)
        return header.split(separator: " ").contains { ConstantTime.equals(Array($0.utf8), expected) }
    }
}
