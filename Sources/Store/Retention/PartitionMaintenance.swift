import Foundation
import Postgres

/// The monthly partitions of the append-only tables (migration 0020): made ahead of time, and
/// dropped whole once old and finished, instead of deleting rows.
///
/// `notifications` and `notification_attempts` are partitioned by the notification's arrival,
/// `webhook_events` by its creation. A month is dropped only when it ended before the cut-off
/// and none of its rows is still pending or retrying; the dedupe keys of Apple's notifications
/// outlive it for at least ``keyDays`` so that Apple's late retries and backfills stay
/// duplicates.
public struct PartitionMaintenance: Sendable {
    /// The partitioned tables whose months are made ahead.
    public static let partitionedTables = ["notifications", "notification_attempts", "webhook_events"]
    /// The tables whose finished months retention drops (attempts go with their notifications).
    static let droppedTables = ["notifications", "webhook_events"]
    /// How long a dedupe key is kept at least: Apple refuses nothing younger than 180 days
    /// (`NOTIFICATION_MAX_AGE_DAYS`), and v1 retries end within days.
    public static let keyDays = 181

    private let client: PostgresClient

    /// Creates the job's repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Makes every table's partitions from this month through `monthsAhead` months on;
    /// how many it made. Rows the default partition took for such a month move into it.
    ///
    /// Attaching a month locks the default partition, which every claim of the worker reads:
    /// a lock not had within 2 seconds (a long transaction holds it) fails the call rather
    /// than queue the claims behind it; the next pass makes the month.
    @discardableResult
    public func makeMonths(from now: Date, monthsAhead: Int = 2) async throws -> Int {
        try await client.withTransaction { session in
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.advisoryLockKey))")
            try session.execute("SET LOCAL lock_timeout = '2s'")
            var made = 0
            for table in Self.partitionedTables {
                let row = try session.queryFirst(
                    """
                    SELECT ensure_monthly_partitions(\(table), \(now), \(now)::timestamptz + make_interval(months => \(monthsAhead)::integer)) AS made
                    """)
                made += try row?.decode("made", as: Int.self) ?? 0
            }
            return made
        }
    }

    /// Drops every month that ended before `cutoff` and holds nothing waiting, then the dedupe
    /// keys of queued work in the months dropped, and every key older than both `cutoff` and
    /// ``keyDays`` (in batches of `batchSize`). What it dropped.
    public func dropFinishedMonths(before cutoff: Date, now: Date, batchSize: Int = 10_000) async throws -> PartitionDrop {
        let (dropped, queuedKeysRemoved) = try await client.withTransaction { session in
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.advisoryLockKey))")
            var dropped: [String] = []
            for table in Self.droppedTables {
                for row in try session.query("SELECT drop_finished_months(\(table), \(cutoff)) AS partition") {
                    dropped.append(try row.decode("partition"))
                }
            }
            // Our own queued work (receipts, transaction lookups) is deduplicated only while it
            // is stored: its keys go with their month, in the same transaction, so that the same
            // request queued again is stored anew, never answered as a duplicate of a row that is gone.
            let droppedInbox = dropped.filter { $0.hasPrefix("notifications_p") }
            guard !droppedInbox.isEmpty else { return (dropped, 0) }
            let queuedKeys = try session.execute(
                """
                DELETE FROM notification_keys AS k USING unnest(\(droppedInbox)::text[]) AS dropped (name)
                WHERE k.received_at >= to_date(right(dropped.name, 7), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC'
                  AND k.received_at < (to_date(right(dropped.name, 7), 'YYYY_MM') + interval '1 month')::timestamp AT TIME ZONE 'UTC'
                  AND NOT starts_with(k.dedupe_key, \(DedupeKey.v1(bodyDigest: "")))
                  AND NOT starts_with(k.dedupe_key, \(DedupeKey.v2(notificationUUID: "")))
                """)
            return (dropped, queuedKeys)
        }
        // Apple's deliveries keep theirs for at least keyDays.
        var keysRemoved = queuedKeysRemoved
        let keyCutoff = min(cutoff, now.addingTimeInterval(-Double(Self.keyDays) * 86_400))
        while true {
            let removed = try await client.execute(
                """
                DELETE FROM notification_keys WHERE dedupe_key IN (
                    SELECT dedupe_key FROM notification_keys WHERE received_at < \(keyCutoff) LIMIT \(max(1, batchSize)))
                """)
            keysRemoved += removed
            if removed < max(1, batchSize) { break }
        }
        return PartitionDrop(partitions: dropped.sorted(), keysRemoved: keysRemoved)
    }

    // Arbitrary constant: "subscriptiond partitions" for pg_advisory_xact_lock, so that two
    // processes never make or drop the same month at once.
    private static let advisoryLockKey: Int64 = 0x5355_4250_4152_5449
}

/// What one pass of ``PartitionMaintenance/dropFinishedMonths(before:now:batchSize:)`` removed.
public struct PartitionDrop: Sendable, Equatable {
    /// The partitions dropped, by name (`notifications_p2026_01`).
    public let partitions: [String]
    /// Dedupe keys deleted.
    public let keysRemoved: Int
}
