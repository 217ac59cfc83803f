import Access
import Crypto
import Foundation
import Settings
import Store

/// `GET /v1/subscribers/{app_user_id}/app-account-token`: the stable UUID the app passes to
/// StoreKit as `appAccountToken`, so that a purchase carrying it belongs to that user without
/// any call (DESIGN.md, "Who owns a purchase").
///
/// A token is made the first time it is asked for and stored, so it stays the same for its
/// user. It is a UUIDv5 in the installation's random namespace (made by the migration) of the
/// app, the user and 16 random bytes: nobody can compute it, and a user forgotten and asked for
/// again gets a new token (the old one is kept among the forgotten, naming nobody).
public struct AppAccountTokens: Sendable {
    private let store: any AppAccountTokenRepository
    private let apps: AppRegistry

    /// Tokens of the configured `apps`, kept in `store`.
    public init(store: any AppAccountTokenRepository, apps: AppRegistry) {
        self.store = store
        self.apps = apps
    }

    /// The token of `appUserID` in `bundleID` (nil: the only configured app), recorded so that
    /// purchases carrying it link to the user: the stored one, else a new one.
    public func token(for appUserID: String, bundleID: String?, visibleTo visible: AppScope = .all) async throws -> String {
        guard let bundleID = bundleID ?? (apps.bundleIDs.count == 1 ? apps.bundleIDs.first : nil) else {
            throw UseCaseError.malformed("bundle_id is required when several apps are configured")
        }
        try visible.require(bundleID)
        guard apps.app(bundleID: bundleID) != nil else { throw UseCaseError.malformed("\(bundleID) is not a configured app") }
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let candidate = Self.uuid(namespace: try await store.namespace(), bundleID: bundleID, appUserID: appUserID, salt: salt)
        return try await store.token(bundleID: bundleID, appUserID: appUserID, recordingIfNone: candidate)
    }

    /// The UUIDv5 of (app, user, salt) in `namespace` (RFC 9562, section 5.5): SHA-1 of the
    /// namespace and the bundle id, a NUL, the user id and then, when given, a NUL and the
    /// salt, with the version and variant bits set; lower-case text, as transactions carry it.
    /// Tokens stored before 0021 were made without a salt and stay as they are.
    static func uuid(namespace: [UInt8], bundleID: String, appUserID: String, salt: [UInt8] = []) -> String {
        let name = Array(bundleID.utf8) + [0] + Array(appUserID.utf8) + (salt.isEmpty ? [] : [0] + salt)
        var digest = Array(Insecure.SHA1.hash(data: namespace + name).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20),
        ]
        return parts.joined(separator: "-")
    }
}
