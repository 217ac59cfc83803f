import Access
import Foundation
import Postgres

/// `console_users`, each change written with its `audit_log` row.
public struct ConsoleUserStore: Sendable {
    /// Why a user could not be changed.
    public enum Failure: Error, Sendable, Equatable {
        /// A user of that name exists (or existed: removed users' names stay taken).
        case duplicateName(String)
        /// No user has that name (or it was removed).
        case unknownName(String)
    }

    private let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// Stores a user with an audit row naming `actor`.
    public func add(name: String, role: ConsoleRole, passwordHash: String, actor: String) async throws {
        do {
            try await client.withTransaction { session in
                try session.execute(
                    PostgresQuery(
                        """
                        INSERT INTO console_users (name, role, password_hash, created_by)
                        VALUES (\(name), \(role.rawValue), \(passwordHash), \(actor))
                        """
                    ).prepared())
                try AuditLog.record(
                    action: "console_user_added", actor: actor, appUserID: nil, detail: ["name": name, "role": role.rawValue],
                    in: session)
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            throw Failure.duplicateName(name)
        }
    }

    /// Removes the user `name` (its row stays, marked; its sessions end) with an audit row naming
    /// `actor`.
    public func remove(name: String, actor: String) async throws {
        try await client.withTransaction { session in
            let removed = try session.execute(
                PostgresQuery(
                    "UPDATE console_users SET removed_at = now() WHERE name = \(name) AND removed_at IS NULL"
                ).prepared())
            guard removed == 1 else { throw Failure.unknownName(name) }
            // Signed out everywhere at once.
            try session.execute(PostgresQuery("DELETE FROM console_sessions WHERE user_name = \(name)").prepared())
            try AuditLog.record(action: "console_user_removed", actor: actor, appUserID: nil, detail: ["name": name], in: session)
        }
    }

    /// Replaces the password of the live user `name` (its sessions end) with an audit row
    /// naming `actor`.
    public func setPassword(name: String, passwordHash: String, actor: String) async throws {
        try await client.withTransaction { session in
            let changed = try session.execute(
                PostgresQuery(
                    "UPDATE console_users SET password_hash = \(passwordHash) WHERE name = \(name) AND removed_at IS NULL"
                ).prepared())
            guard changed == 1 else { throw Failure.unknownName(name) }
            try session.execute(PostgresQuery("DELETE FROM console_sessions WHERE user_name = \(name)").prepared())
            try AuditLog.record(action: "console_user_password_changed", actor: actor, appUserID: nil, detail: ["name": name], in: session)
        }
    }

    /// Every user ever added, removed ones included, oldest first.
    public func list() async throws -> [ConsoleUserRecord] {
        try await client.query(
            PostgresQuery(
                "SELECT name, role, password_hash, created_at, created_by, removed_at FROM console_users ORDER BY created_at, name"
            ).prepared()
        ).map(Self.record(from:))
    }

    /// A `console_users` row.
    static func record(from row: PostgresRow) throws -> ConsoleUserRecord {
        ConsoleUserRecord(
            name: try row.decode("name"), role: try role(from: row), passwordHash: try row.decode("password_hash"),
            createdAt: try row.decode("created_at"), createdBy: try row.decode("created_by"), removedAt: try row.decode("removed_at"))
    }

    /// The `role` column of a row (of `console_users`, or joined with it).
    static func role(from row: PostgresRow) throws -> ConsoleRole {
        let text: String = try row.decode("role")
        guard let role = ConsoleRole(rawValue: text) else { throw StoreError("console_users holds an unknown role \(text)") }
        return role
    }
}
