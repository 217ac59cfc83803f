import AppStore
import Crypto
import Foundation
import ServiceSupport
import Settings

/// The `Subscriptiond-Signature` header: `v1=` and the hex HMAC-SHA256, keyed with the
/// webhook secret's text, of the timestamp, a dot and the raw body; during a rotation one
/// such signature per secret, comma-separated (`v1=<new>,v1=<old>`).
public enum WebhookSignature {
    /// The header's value for `body` sent at `timestamp` (UNIX seconds).
    public static func header(secret: Secret, timestamp: Int64, body: [UInt8]) -> String {
        "v1=" + hex(secret: secret.revealed, timestamp: timestamp, body: body)
    }

    /// The header's value signed with each of `secrets`, in their order.
    public static func header(secrets: [WebhookSecret], timestamp: Int64, body: [UInt8]) -> String {
        secrets.map { header(secret: $0.text, timestamp: timestamp, body: body) }.joined(separator: ",")
    }

    /// True when `header` carries a `v1=` signature of `body` at `timestamp` under `secret`
    /// (constant-time comparison). What a receiver does; the tests use it too.
    public static func isValid(header: String, secret: String, timestamp: Int64, body: [UInt8]) -> Bool {
        let expected = "v1=" + hex(secret: secret, timestamp: timestamp, body: body)
        return header.split(separator: ",").contains { candidate in
            ConstantTime.equals(Array(candidate.trimmingCharacters(in: .whitespaces).utf8), Array(expected.utf8))
        }
    }

    private static func hex(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        var message = Array("\(timestamp).".utf8)
        message.append(contentsOf: body)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Array(secret.utf8)))
        return LowercaseHex.encode(code)
    }
}
