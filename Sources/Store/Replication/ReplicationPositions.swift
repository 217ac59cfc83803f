import Postgres

/// Where the primary's write-ahead log ends, and how far a streaming replica has replayed it
/// (bytes from the start of the log), so a reader can tell how far behind the replica is.
public enum ReplicationPositions {
    /// The primary's current WAL write position.
    public static func primary(_ client: PostgresClient) async throws -> UInt64 {
        let rows = try await client.query(
            PostgresQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS position").prepared())
        guard let row = rows.first else { throw StoreError("pg_current_wal_lsn() returned no row") }
        return UInt64(clamping: try row.decode("position", as: Int64.self))
    }

    /// How far `client`'s server has replayed the primary's WAL; nil when it is not a standby
    /// (its reads would not be the primary's data at all) or has replayed nothing yet.
    public static func replayed(_ client: PostgresClient) async throws -> UInt64? {
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT pg_is_in_recovery() AS standby,
                       pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint AS position
                """
            ).prepared())
        guard let row = rows.first, try row.decode("standby", as: Bool.self) else { return nil }
        return try row.decode("position", as: Int64?.self).map { UInt64(clamping: $0) }
    }
}
