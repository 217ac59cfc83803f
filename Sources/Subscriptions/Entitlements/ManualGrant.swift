import Foundation

/// An entitlement an operator granted by hand (support, comps), until `expiresAt` or for good.
public struct ManualGrant: Sendable, Hashable {
    /// The grant's id (for `DELETE` and `grants revoke`).
    public let id: Int64
    /// The app user it was granted to.
    public let appUserID: String
    /// The entitlement granted.
    public let entitlement: String
    /// When it ends; nil for good.
    public let expiresAt: Date?
    /// Why (the audit trail's words).
    public let reason: String
    /// When it was granted.
    public let createdAt: Date
    /// When it was revoked, if it was.
    public let revokedAt: Date?

    /// Creates a grant field by field.
    public init(id: Int64, appUserID: String, entitlement: String, expiresAt: Date?, reason: String, createdAt: Date, revokedAt: Date?) {
        self.id = id
        self.appUserID = appUserID
        self.entitlement = entitlement
        self.expiresAt = expiresAt
        self.reason = reason
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// Whether it grants its entitlement at `now`.
    public func isActive(at now: Date) -> Bool {
        revokedAt == nil && expiresAt.map { now < $0 } ?? true
    }
}
