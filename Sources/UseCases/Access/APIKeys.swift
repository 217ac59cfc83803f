import Access
import Foundation
import Store

/// Making, listing and revoking API keys (`subscriptionctl keys`), each change audited
/// under the principal that made it.
public struct APIKeys: Sendable {
    /// A new key: its record and its text, which is shown once and stored nowhere.
    public struct Created: Sendable {
        /// The key as stored.
        public let record: APIKeyRecord
        /// `sk_…`: the only time it exists outside the caller's hands.
        public let text: String
    }

    private let repository: any APIKeyRepository
    public let configuredApps: Set<String>

    /// - Parameter configuredApps: the bundle ids a key may be limited to.
    public init(repository: any APIKeyRepository, configuredApps: Set<String>) {
        self.repository = repository
        self.configuredApps = configuredApps
    }

    /// Makes a key named `name` with `scopes`, limited to `apps` (empty: every app), working
    /// until `expiresAt` (a time in the past makes a key born expired).
    public func create(
        name: String, scopes: Set<Scope>, apps: [String], expiresAt: Date?, by principal: Principal, now: Date = Date()
    ) async throws -> Created {
        guard principal.may(.admin) else { throw UseCaseError.forbidden("making keys needs the admin scope") }
        try Self.check(name: name)
        guard !scopes.isEmpty else { throw UseCaseError.malformed("a key needs at least one scope: --scope read, for example") }
        if let unknown = apps.first(where: { !configuredApps.contains($0) }) {
            throw UseCaseError.malformed(
                "--app \(unknown) is not a configured app (configured: \(configuredApps.sorted().joined(separator: ", ")))")
        }
        let text = APIKeySecret.generate()
        let record = APIKeyRecord(
            name: name, digest: APIKeySecret.digest(of: text), scopes: scopes, apps: AppScope(bundleIDs: apps),
            createdAt: now, expiresAt: expiresAt, revokedAt: nil, lastUsedAt: nil)
        do {
            try await repository.create(record, actor: principal.actor)
        } catch APIKeyStore.Failure.duplicateName(let taken) {
            throw UseCaseError.alreadyExists("a key named \(taken) exists already (names of revoked keys stay taken)")
        }
        return Created(record: record, text: text)
    }

    /// Revokes the key named `name`: every process refuses it within about a second.
    public func revoke(name: String, by principal: Principal) async throws -> APIKeyRecord {
        guard principal.may(.admin) else { throw UseCaseError.forbidden("revoking keys needs the admin scope") }
        do {
            return try await repository.revoke(name: name, actor: principal.actor)
        } catch APIKeyStore.Failure.unknownName(let unknown) {
            throw UseCaseError.notFound("no key is named \(unknown)")
        }
    }

    /// Every key ever made, oldest first.
    public func list() async throws -> [APIKeyRecord] {
        try await repository.list()
    }

    /// Names are what logs, metrics and the audit log show: a letter or digit, then up to 63
    /// letters, digits, dots, dashes or underscores; `admin-token` is `ADMIN_TOKEN`'s.
    static func check(name: String) throws {
        guard PrincipalName.isValid(name) else {
            throw UseCaseError.malformed(
                "key name \"\(name)\" must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit")
        }
        guard name != KeyRing.adminTokenName else {
            throw UseCaseError.malformed("\(KeyRing.adminTokenName) is the name ADMIN_TOKEN goes by; choose another")
        }
    }
}
