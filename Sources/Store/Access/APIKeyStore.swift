import Access
import AppStore
import Foundation
import Postgres

/// `api_keys`: the keys of the query API, each change written with its `audit_log` row.
/// Only the SHA-256 of a key's text is stored.
public struct APIKeyStore: Sendable {
    /// Why a key could not be changed.
    public enum Failure: Error, Sendable, Equatable {
        /// A key of that name exists (or existed: names of revoked keys stay taken).
        case duplicateName(String)
        /// No key has that name.
        case unknownName(String)
    }

    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Stores `key` with an audit row naming `actor`.
    public func create(_ key: APIKeyRecord, actor: String) async throws {
        do {
            try await client.withTransaction { session in
                try session.execute(
                    PostgresQuery(
                        """
                        INSERT INTO api_keys (name, key_digest, scopes, apps, created_at, created_by, expires_at)
                        VALUES (\(key.name), \(LowercaseHex.encode(key.digest)), \(key.scopes.sorted().map(\.rawValue))::text[],
                                \(key.apps.bundleIDs)::text[], \(key.createdAt), \(actor), \(key.expiresAt))
                        """
                    ).prepared())
                var detail = ["name": key.name, "scopes": key.scopes.sorted().map(\.rawValue).joined(separator: ",")]
                detail["apps"] = key.apps.bundleIDs.isEmpty ? "*" : key.apps.bundleIDs.joined(separator: ",")
                detail["expires_at"] = key.expiresAt.map { ISO8601DateFormatter().string(from: $0) }
                try AuditLog.record(action: "key_created", actor: actor, appUserID: nil, detail: detail, in: session)
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            throw Failure.duplicateName(key.name)
        }
    }

    /// Revokes the key named `name` with an audit row naming `actor`; the key as it is now
    /// (revoking a revoked key changes nothing and writes no row).
    public func revoke(name: String, actor: String) async throws -> APIKeyRecord {
        try await client.withTransaction { session in
            guard
                let row = try session.queryFirst(
                    PostgresQuery("SELECT \(unescaped: Self.columns) FROM api_keys WHERE name = \(name) FOR UPDATE").prepared())
            else { throw Failure.unknownName(name) }
            let key = try Self.record(row)
            guard key.revokedAt == nil else { return key }
            guard
                let revoked = try session.queryFirst(
                    PostgresQuery(
                        "UPDATE api_keys SET revoked_at = now() WHERE name = \(name) RETURNING \(unescaped: Self.columns)"
                    ).prepared())
            else { throw StoreError("UPDATE … RETURNING gave no row") }
            try AuditLog.record(action: "key_revoked", actor: actor, appUserID: nil, detail: ["name": name], in: session)
            return try Self.record(revoked)
        }
    }

    /// Every key ever made, revoked ones included, oldest first.
    public func list() async throws -> [APIKeyRecord] {
        try await client.query(PostgresQuery("SELECT \(unescaped: Self.columns) FROM api_keys ORDER BY created_at, name").prepared())
            .map(Self.record)
    }

    /// The keys not revoked: what a process accepts.
    public func live() async throws -> [APIKeyRecord] {
        try await client.query(
            PostgresQuery("SELECT \(unescaped: Self.columns) FROM api_keys WHERE revoked_at IS NULL").prepared()
        ).map(Self.record)
    }

    /// Moves each named key's `last_used_at` forward to the time given (never back: another
    /// process may have seen a later use).
    public func recordUse(_ uses: [String: Date]) async throws {
        guard !uses.isEmpty else { return }
        let names = uses.keys.sorted()
        try await client.execute(
            PostgresQuery(
                """
                UPDATE api_keys k SET last_used_at = greatest(k.last_used_at, u.at)
                FROM unnest(\(names)::text[], \(PostgresTextArray(encoding: names.map { uses[$0] }))::timestamptz[]) AS u(name, at)
                WHERE k.name = u.name
                """
            ).prepared())
    }

    private static let columns: StaticString = "name, key_digest, scopes, apps, created_at, expires_at, revoked_at, last_used_at"

    private static func record(_ row: PostgresRow) throws -> APIKeyRecord {
        let scopes: [String] = try row.decode("scopes")
        let digest: String = try row.decode("key_digest")
        return APIKeyRecord(
            name: try row.decode("name"), digest: try bytes(hex: digest),
            scopes: Set(scopes.compactMap(Scope.init(rawValue:))), apps: AppScope(bundleIDs: try row.decode("apps")),
            createdAt: try row.decode("created_at"), expiresAt: try row.decode("expires_at"), revokedAt: try row.decode("revoked_at"),
            lastUsedAt: try row.decode("last_used_at"))
    }

    private static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { throw StoreError("api_keys.key_digest is not hex") }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw StoreError("api_keys.key_digest is not hex")
            }
            return byte
        }
    }
}
