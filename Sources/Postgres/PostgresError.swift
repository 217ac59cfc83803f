/// An error from the PostgreSQL layer.
///
/// `description` is safe to show to users and to log: it carries the SQLSTATE and the
/// server's primary message, never the statement's parameters. The server's `DETAIL`
/// (which can quote row values) is kept for `debugDescription` only.
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, coarsely: callers branch on this.
    public enum Code: Sendable, Equatable {
        /// No connection could be made: the server is down, unreachable, or refused us.
        case unreachable
        /// An established connection broke while in use.
        case connectionLost
        /// The server rejected the statement; `sqlState` says why.
        case server
        /// A value in a row could not be decoded into the requested Swift type.
        case decoding
        /// The client was shut down.
        case clientClosed
        /// The connection string could not be parsed.
        case invalidConfiguration
        /// Every pooled connection stayed leased for the whole lease timeout.
        case poolTimeout
        /// A bound value cannot be sent as given (a text value containing U+0000).
        case invalidParameter
    }

    /// The kind of failure.
    public let code: Code
    /// The five-character SQLSTATE, when the server sent one.
    public let sqlState: String?
    /// A message safe to show: no parameter values, no password.
    public let message: String
    /// Extra detail that may contain data values; for `debugDescription` only.
    let detail: String?

    init(_ code: Code, sqlState: String? = nil, message: String, detail: String? = nil) {
        self.code = code
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
    }

    /// True when the server or the network, not the statement, failed: retrying later can succeed.
    public var isTransient: Bool {
        switch code {
        case .unreachable, .connectionLost, .poolTimeout: return true
        case .server: return sqlState.map(Self.isTransient(sqlState:)) ?? false
        case .decoding, .clientClosed, .invalidConfiguration, .invalidParameter: return false
        }
    }

    /// True for the SQLSTATEs a retry can cure: class 08 (connection exception), class 53
    /// (insufficient resources), 57P (shutdown, crash, cannot connect now), 57014 (statement
    /// timeout or cancel), 55P03 (lock not available), 40001/40P01 (serialization failure,
    /// deadlock) and 25006 (read-only transaction: we reached a standby during failover).
    public static func isTransient(sqlState: String) -> Bool {
        if sqlState.hasPrefix("08") || sqlState.hasPrefix("53") || sqlState.hasPrefix("57P") { return true }
        return ["57014", "55P03", "40001", "40P01", "25006"].contains(sqlState)
    }

    /// True for a unique-constraint violation (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    public var description: String {
        if let sqlState { return "PostgreSQL error \(sqlState): \(message)" }
        return "PostgreSQL \(code): \(message)"
    }

    public var debugDescription: String {
        guard let detail else { return description }
        return "\(description) (detail: \(detail))"
    }
}
