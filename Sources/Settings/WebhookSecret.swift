import Foundation

/// One secret that signs an app's webhooks, as configured, with the HMAC key each header uses.
///
/// `Subscriptiond-Signature` is keyed with the secret's text as configured, always (receivers
/// of that header keep working whatever the secret looks like, `whsec_` included). The
/// Standard Webhooks `webhook-signature` is keyed as the standard's libraries key it: a
/// `whsec_` secret is the base64 of the key, decoded; any other secret is its UTF-8 bytes
/// (hand those bytes to the libraries, e.g. `Webhook(secret.encode())` in Python).
public struct WebhookSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The prefix of a Standard Webhooks secret, whose rest is the base64 of its key.
    public static let standardPrefix = "whsec_"
    /// The shortest secret accepted without the prefix.
    public static let minimumLength = 32
    /// The shortest key a `whsec_` secret may carry (the standard's minimum).
    public static let minimumStandardKeyBytes = 24

    /// The secret's text as configured: the key of `Subscriptiond-Signature`.
    public let text: Secret
    /// The key of the Standard Webhooks `webhook-signature`.
    private let standardKey: [UInt8]

    /// Checks a configured secret; `setting` names it in the one line a mistake stops startup
    /// with (never the secret itself).
    public init(_ value: String, setting: String) throws {
        guard !value.isEmpty else {
            throw ConfigurationError(setting, "is empty: give a secret of at least \(Self.minimumLength) characters")
        }
        if value.hasPrefix(Self.standardPrefix) {
            guard let key = Self.base64Key(String(value.dropFirst(Self.standardPrefix.count))) else {
                throw ConfigurationError(
                    setting,
                    "starts with \(Self.standardPrefix) but what follows is not valid base64 (a Standard Webhooks secret is whsec_ and the base64 of its key)"
                )
            }
            guard key.count >= Self.minimumStandardKeyBytes else {
                throw ConfigurationError(
                    setting,
                    "holds a key of \(key.count) bytes after \(Self.standardPrefix): use at least \(Self.minimumStandardKeyBytes) (e.g. `echo whsec_$(openssl rand -base64 32)`)"
                )
            }
            self.standardKey = key
        } else {
            guard value.count >= Self.minimumLength else {
                throw ConfigurationError(
                    setting, "is too short: use at least \(Self.minimumLength) characters (e.g. `openssl rand -hex 32`)")
            }
            self.standardKey = Array(value.utf8)
        }
        self.text = Secret(value)
    }

    /// The Standard Webhooks HMAC key (never for logging).
    public var standardKeyBytes: [UInt8] { standardKey }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }

    /// The bytes of standard base64 text, with or without its `=` padding (as the standard's
    /// libraries read it); nil for anything else.
    private static func base64Key(_ text: String) -> [UInt8]? {
        guard !text.isEmpty else { return nil }
        let padded = text.count % 4 == 0 ? text : text + String(repeating: "=", count: 4 - text.count % 4)
        return Data(base64Encoded: padded).map { Array($0) }
    }
}
