import CLibPQ

/// What a failover does to a connection, and what the client does about it.
///
/// A connection that meets a read-only transaction error (SQLSTATE 25006: it reached a
/// standby, or a primary demoted under it) or an administrator or crash shutdown (57P01,
/// 57P02, 57P03) is retired: the pool drops it and the next lease opens a new one, which
/// libpq sends to whichever host takes writes when the URL names several hosts with
/// `target_session_attrs=read-write`.
///
/// A commit whose wait for the synchronous standby was cancelled (`pg_cancel_backend`, a
/// cancel request; `statement_timeout` is off while a commit waits) returns success with a
/// WARNING, though the standby may not have it and a failover can lose it. Such an answer
/// is turned into a lost connection, so no caller acknowledges anything on its strength.
extension PostgresConnection {
    /// True for the SQLSTATEs after which this connection must not carry another statement.
    static func retires(sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return ["25006", "57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// `host:port` of the server libpq connected to (the one it chose among several hosts).
    var serverAddress: String {
        let host = PQhost(handle).map { String(cString: $0) } ?? "?"
        let port = PQport(handle).map { String(cString: $0) } ?? "?"
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Watches the server's notices for a cancelled synchronous-replication wait; every
    /// other notice goes to libpq's own receiver as before.
    func watchForUnconfirmedCommits() {
        let previous = PQsetNoticeReceiver(handle, unconfirmedCommitReceiver, Unmanaged.passUnretained(self).toOpaque())
        defaultNoticeReceiver = previous
    }

    /// The error a statement ends with when its commit was not confirmed by the synchronous standby.
    static var unconfirmedCommit: PostgresError {
        PostgresError(
            .connectionLost,
            message:
                "the commit's wait for the synchronous standby was cancelled: it may be lost in a failover, so it is not taken as committed"
        )
    }
}

/// The notice receiver of every connection (C calling convention, so it captures nothing:
/// the connection comes through `argument`, unretained, valid while libpq runs on it).
private let unconfirmedCommitReceiver: PQnoticeReceiver = { argument, result in
    guard let argument else { return }
    let connection = Unmanaged<PostgresConnection>.fromOpaque(argument).takeUnretainedValue()
    if let result, let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) {
        // PostgreSQL's two texts (syncrep.c); the cancel keeps the local commit and says so.
        let text = String(cString: message)
        if text.hasPrefix("canceling wait for synchronous replication") || text.hasPrefix("canceling the wait for synchronous replication")
        {
            connection.commitUnconfirmed = true
        }
    }
    connection.defaultNoticeReceiver?(nil, result)
}
