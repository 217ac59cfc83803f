import Access
import Foundation

/// Where API keys are kept, with their audit rows (`APIKeyStore` in production).
public protocol APIKeyRepository: Sendable {
    /// Stores a new key; throws `APIKeyStore.Failure.duplicateName` when the name is taken.
    func create(_ key: APIKeyRecord, actor: String) async throws
    /// Revokes a key; throws `APIKeyStore.Failure.unknownName` when there is none.
    func revoke(name: String, actor: String) async throws -> APIKeyRecord
    /// Every key ever made, oldest first.
    func list() async throws -> [APIKeyRecord]
    /// The keys not revoked.
    func live() async throws -> [APIKeyRecord]
    /// Moves each key's last use forward.
    func recordUse(_ uses: [String: Date]) async throws
}
