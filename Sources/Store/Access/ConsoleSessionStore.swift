import Access
import Foundation
import Postgres

/// `console_sessions`: the signed-in console users, by the SHA-256 of their cookie's id.
/// Idleness is judged by the database's clock, so every process agrees.
public struct ConsoleSessionStore: Sendable {
    /// A live session as stored: whose it is and its CSRF token.
    public struct Stored: Sendable, Equatable {
        public let userName: String
        public let role: ConsoleRole
        public let csrfToken: String
    }

    private let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// The user `name` if it may sign in (added and not removed), or nil.
    public func activeUser(named name: String) async throws -> ConsoleUserRecord? {
        try await client.query(
            PostgresQuery(
                """
                SELECT name, role, password_hash, created_at, created_by, removed_at FROM console_users
                WHERE name = \(name) AND removed_at IS NULL
                """
            ).prepared()
        ).first.map(ConsoleUserStore.record(from:))
    }

    /// Stores a new session of `userName`, and drops sessions idle longer than `idle` (the
    /// table stays the size of the sessions in use).
    public func create(idDigest: [UInt8], userName: String, csrfToken: String, idle: Duration) async throws {
        try await client.withTransaction { session in
            try session.execute(
                PostgresQuery(
                    "DELETE FROM console_sessions WHERE last_seen_at < now() - make_interval(secs => \(idle.intervalSeconds))"
                ).prepared())
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO console_sessions (id_hash, user_name, csrf_token)
                    VALUES (\(PostgresBytes(idDigest)), \(userName), \(csrfToken))
                    """
                ).prepared())
        }
    }

    /// The session `idDigest` when it is live (used within `idle`, its user not removed),
    /// marked used now; nil otherwise.
    public func resume(idDigest: [UInt8], idle: Duration) async throws -> Stored? {
        try await client.query(
            PostgresQuery(
                """
                UPDATE console_sessions AS s SET last_seen_at = now()
                FROM console_users AS u
                WHERE s.id_hash = \(PostgresBytes(idDigest)) AND u.name = s.user_name AND u.removed_at IS NULL
                  AND s.last_seen_at >= now() - make_interval(secs => \(idle.intervalSeconds))
                RETURNING s.user_name, u.role, s.csrf_token
                """
            ).prepared()
        ).first.map { row in
            Stored(
                userName: try row.decode("user_name"), role: try ConsoleUserStore.role(from: row), csrfToken: try row.decode("csrf_token"))
        }
    }

    /// Ends the session `idDigest` (nothing when there is none).
    public func end(idDigest: [UInt8]) async throws {
        try await client.execute(
            PostgresQuery("DELETE FROM console_sessions WHERE id_hash = \(PostgresBytes(idDigest))").prepared())
    }
}
