import Crypto
import Foundation
import Postgres
import Settings
import Store

/// `GET /v1/subscribers/{app_user_id}/app-account-token`: the stable UUID the app passes to
/// StoreKit as `appAccountToken`, so that a purchase carrying it belongs to that user without
/// any call (DESIGN.md, "Who owns a purchase").
///
/// The UUIDv5 namespace is random per installation (made by the migration), so a token is
/// stable for its user and nobody else can compute it.
public struct AppAccountTokens: Sendable {
    private let store: AppAccountTokenStore
    private let apps: AppRegistry

    public init(database: PostgresClient, apps: AppRegistry) {
        store = AppAccountTokenStore(client: database)
        self.apps = apps
    }

    /// The token of `appUserID` in `bundleID` (nil: the only configured app), recorded so that
    /// purchases carrying it link to the user.
    public func token(for appUserID: String, bundleID: String?) async throws -> String {
        guard let bundleID = bundleID ?? (apps.bundleIDs.count == 1 ? apps.bundleIDs.first : nil) else {
            throw UseCaseError.malformed("bundle_id is required when several apps are configured")
        }
        guard apps.app(bundleID: bundleID) != nil else { throw UseCaseError.malformed("\(bundleID) is not a configured app") }
        let token = Self.uuid(namespace: try await store.namespace(), bundleID: bundleID, appUserID: appUserID)
        try await store.record(token: token, bundleID: bundleID, appUserID: appUserID)
        return token
    }

    /// The UUIDv5 of (app, user) in `namespace` (RFC 9562, section 5.5): SHA-1 of the namespace
    /// and the bundle id, a NUL and the user id, with the version and variant bits set;
    /// lower-case text, as transactions carry it.
    static func uuid(namespace: [UInt8], bundleID: String, appUserID: String) -> String {
        var digest = Array(Insecure.SHA1.hash(data: namespace + Array(bundleID.utf8) + [0] + Array(appUserID.utf8)).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20),
        ]
        return parts.joined(separator: "-")
    }
}
