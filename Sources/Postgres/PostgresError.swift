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
        /// No pool connection came free in time.
        case poolTimeout
        /// A parameter value cannot be sent (a NUL character in text).
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
        case .server:
            // Class 08 is connection exceptions, 57P0x operator intervention/shutdown,
            // 40001/40P01 serialization failure and deadlock.
            guard let sqlState else { return false }
            return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState == "40001" || sqlState == "40P01"
        case .decoding, .clientClosed, .invalidConfiguration, .invalidParameter: return false
        }
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
