import Foundation

/// One console user as stored: never the password, only its bcrypt hash.
public struct ConsoleUserRecord: Sendable, Equatable {
    public let name: String
    public let role: ConsoleRole
    public let passwordHash: String
    public let createdAt: Date
    public let createdBy: String
    public let removedAt: Date?

    public init(name: String, role: ConsoleRole, passwordHash: String, createdAt: Date, createdBy: String, removedAt: Date?) {
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.removedAt = removedAt
    }
}
