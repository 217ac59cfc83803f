import Foundation

/// One API key as stored: its name, the digest of its text, what it may do, and its dates.
public struct APIKeyRecord: Sendable, Equatable {
    /// The key's name (`paywall`), unique; what logs, metrics and the audit log show.
    public let name: String
    /// SHA-256 of the key's text.
    public let digest: [UInt8]
    /// What it may do.
    public let scopes: Set<Scope>
    /// The apps it sees.
    public let apps: AppScope
    /// When it was made.
    public let createdAt: Date
    /// When it stops working; nil: never.
    public let expiresAt: Date?
    /// When it was revoked; nil: it was not.
    public let revokedAt: Date?
    /// When a request last presented it (kept to the minute, not per request); nil: never.
    public let lastUsedAt: Date?

    /// Creates a record.
    public init(
        name: String, digest: [UInt8], scopes: Set<Scope>, apps: AppScope, createdAt: Date, expiresAt: Date?, revokedAt: Date?,
        lastUsedAt: Date?
    ) {
        self.name = name
        self.digest = digest
        self.scopes = scopes
        self.apps = apps
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.lastUsedAt = lastUsedAt
    }

    /// The principal a request presenting this key acts as.
    public var principal: Principal {
        Principal(name: name, kind: .apiKey, scopes: scopes, apps: apps)
    }

    /// True when it has expired at `now`.
    public func isExpired(at now: Date) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }
}
