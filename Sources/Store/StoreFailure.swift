import Postgres

/// What a database error means, judged once for every layer above the Store: the worker
/// (retry or dead), intake (which entry of a batch), the HTTP edge (503 or 400) and the CLI
/// (exit 3 or 2) all ask this, and none looks into the database client's own errors.
///
/// It is an error itself, so a port's stand-in (a test's, in memory) can fail the way the
/// database would, classified the same way.
public enum StoreFailure: Error, Sendable, Equatable {
    /// The database cannot be reached: refused, the connection lost, no pool connection in time.
    case unreachable
    /// Reached, but it cannot do it now: a deadline, a deadlock or serialization failure,
    /// resources, a standby reached during a failover.
    case busy
    /// A text value the database cannot store (a NUL character), refused before it was sent.
    case unstorableText
    /// The statement was refused for its data (SQLSTATE class 22, 23 or 54): the same data
    /// will be refused again.
    case dataRefused
    /// The connection settings are wrong.
    case misconfigured
    /// Any other refusal or failure of the database: an answer that did not decode, a closed client.
    case other

    /// The failure `error` is, or nil when it is not a database error.
    public init?(_ error: any Error) {
        if let failure = error as? StoreFailure {
            self = failure
            return
        }
        guard let error = error as? PostgresError else { return nil }
        switch error.code {
        case .unreachable, .connectionLost, .poolTimeout: self = .unreachable
        case .invalidParameter: self = .unstorableText
        case .invalidConfiguration: self = .misconfigured
        case .decoding, .clientClosed: self = .other
        case .server:
            if error.isTransient {
                self = .busy
            } else if let state = error.sqlState, state.hasPrefix("22") || state.hasPrefix("23") || state.hasPrefix("54") {
                self = .dataRefused
            } else {
                self = .other
            }
        }
    }

    /// A line about `error` safe to show: the database's own message, without values.
    public static func reason(_ error: any Error) -> String {
        (error as? PostgresError)?.message ?? "\(error)"
    }

    /// Whether the same work can succeed later (the database unreachable or busy).
    public var canHeal: Bool { self == .unreachable || self == .busy }

    /// Whether the work's own data was refused: doing it again with the same data fails again.
    public var isCausedByData: Bool { self == .unstorableText || self == .dataRefused }
}
