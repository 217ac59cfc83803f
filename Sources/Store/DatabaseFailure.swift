import Postgres

/// What a database error means to an edge that answers a client, so no edge looks into the
/// database client's own errors.
public enum DatabaseFailure: Sendable, Equatable {
    /// Unreachable, past a deadline, out of connections, a deadlock or serialization
    /// failure: the same request can succeed later (503).
    case unavailable
    /// A text value the database cannot store: it holds a NUL character (400).
    case unstorableText

    /// The failure `error` is, or nil when it is not a database failure of either kind.
    public init?(_ error: any Error) {
        guard let error = error as? PostgresError else { return nil }
        if error.isTransient {
            self = .unavailable
        } else if error.code == .invalidParameter {
            self = .unstorableText
        } else {
            return nil
        }
    }
}
