import Foundation
import Postgres

/// One partitioned table's months, for `subscriptionctl stats`.
public struct PartitionedTableStats: Sendable, Equatable {
    /// The table (`notifications`, `notification_attempts`, `webhook_events`).
    public let table: String
    /// Its monthly partitions' months, oldest first, as `2026-11`.
    public let months: [String]
    /// Rows in its default partition: rows of months that had no partition when they were
    /// written (the month's partition takes them when made).
    public let defaultRows: Int
}

extension StatsQueries {
    /// Every partitioned table's months and the rows waiting in its default partition.
    public func partitions() async throws -> [PartitionedTableStats] {
        try await client.withConnection { session in
            let months = try session.query(
                """
                SELECT p.relname AS parent, to_char(to_date(right(c.relname, 7), 'YYYY_MM'), 'YYYY-MM') AS month
                FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid JOIN pg_class AS p ON p.oid = i.inhparent
                WHERE p.relname = ANY(\(PartitionMaintenance.partitionedTables)::text[]) AND c.relname ~ '_p[0-9]{4}_[0-9]{2}$'
                ORDER BY 1, 2
                """)
            var byTable: [String: [String]] = [:]
            for row in months { byTable[try row.decode("parent"), default: []].append(try row.decode("month")) }
            let defaults = try session.queryFirst(
                """
                SELECT (SELECT count(*) FROM notifications_default) AS notifications,
                       (SELECT count(*) FROM notification_attempts_default) AS notification_attempts,
                       (SELECT count(*) FROM webhook_events_default) AS webhook_events
                """)
            return try PartitionMaintenance.partitionedTables.map { table in
                PartitionedTableStats(
                    table: table, months: byTable[table] ?? [], defaultRows: try defaults?.decode(table, as: Int.self) ?? 0)
            }
        }
    }
}
