import AppStore
import Foundation
import JSON
import Settings
import Store

/// Turns a raw intake body into an inbox entry, or into the contract's error, without I/O.
///
/// Order matters for security: the body is authenticated (bundle id known, `password`
/// equal to its shared secret in constant time) before it is decoded or stored, and the
/// stored copy never contains `password`.
public struct NotificationIntakeParser: Sendable {
    private let apps: AppRegistry

    /// Creates a parser for the configured apps.
    public init(apps: AppRegistry) {
        self.apps = apps
    }

    /// Parses a body: a version 1 notification is authenticated and prepared for the inbox
    /// here; a version 2 `signedPayload` is handed back for signature verification.
    public func parse(_ bytes: [UInt8]) throws(IntakeRefusal) -> IntakeBody {
        guard !bytes.isEmpty else { throw IntakeRefusal.malformed("the body is empty") }
        // One strict parse: duplicate keys are refused, so the stored copy and the typed
        // view below cannot read different values for the same field.
        let tree: JSONValue
        do {
            tree = try StrictJSONParser.parse(bytes)
        } catch {
            throw IntakeRefusal.malformed("the body is not valid JSON: \(error)")
        }
        guard let object = tree.objectMembers else { throw IntakeRefusal.malformed("the body must be a JSON object") }
        if let signed = object["signedPayload"] {
            guard let jws = signed.stringValue else { throw IntakeRefusal.malformed("signedPayload must be a string (a compact JWS)") }
            return .signed(jws)
        }
        // Authenticate first: a sender without the secret costs no typed decode.
        let credentials = try? tree.decode(NotificationV1Credentials.self)
        guard let bundleID = credentials?.bundleID, !bundleID.isEmpty else {
            throw IntakeRefusal.malformed("the notification has no bid (bundle id)")
        }
        guard let app = apps.app(bundleID: bundleID), let password = credentials?.password, app.sharedSecret?.matches(password) == true
        else {
            throw IntakeRefusal.unauthorized("unknown bundle id or wrong shared secret")
        }
        if let number = StorableJSON.firstUnstorableNumber(in: tree) {
            let shown = number.text.count > 24 ? String(number.text.prefix(24)) + "…" : number.text
            throw IntakeRefusal.malformed(
                "the body holds a number beyond what can be stored (\(shown)): at most 131072 digits before the point and 16383 after")
        }
        let notification: NotificationV1
        do {
            notification = try NotificationV1.decode(from: tree)
        } catch {
            throw IntakeRefusal.malformed("not a version 1 App Store notification: \(DecodingProblem.describe(error))")
        }
        guard let environment = notification.environment ?? notification.unifiedReceipt?.environment else {
            throw IntakeRefusal.malformed("the notification names no environment (expected PROD or Sandbox)")
        }
        try IntakeLimits.check(notification)
        let stored = CanonicalJSONWriter.bytes(tree.removingMember("password"))
        // PostgreSQL cannot store U+0000 in text or jsonb; the canonical writer spells it `\u0000`.
        if IntakeLimits.containsNUL(stored) {
            throw IntakeRefusal.malformed("the body contains a NUL character (\\u0000), which cannot be stored")
        }
        let digest = ContentHash.sha256Hex(stored)
        return .v1(
            InboxEntry(
                source: .v1, dedupeKey: DedupeKey.v1(bodyDigest: digest), notificationType: notification.notificationTypeRaw,
                environment: environment, bundleID: bundleID, originalTransactionID: notification.originalTransactionIDs.first,
                // The body without `password`, keys sorted: its digest is the dedupe key.
                body: String(decoding: stored, as: UTF8.self)
            ))
    }
}

/// What a parsed intake body is.
public enum IntakeBody: Sendable {
    /// A version 1 notification, authenticated and ready for the inbox.
    case v1(InboxEntry)
    /// A version 2 notification's `signedPayload`, not yet verified.
    case signed(String)
}

/// Short, safe descriptions of JSON decoding failures (no values quoted).
enum DecodingProblem {
    static func describe(_ error: any Error) -> String {
        if let error = error as? AppleValueError { return error.description }
        guard let error = error as? DecodingError else { return "unreadable" }
        switch error {
        case .keyNotFound(let key, _): return "\(key.stringValue) is missing"
        case .typeMismatch(_, let context): return "\(path(context)) has the wrong type"
        case .valueNotFound(_, let context): return "\(path(context)) is null"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "invalid JSON" : "\(path(context)) is invalid"
        @unknown default: return "unreadable"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}
