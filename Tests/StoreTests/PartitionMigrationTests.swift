import AppStore
import Foundation
import Postgres
import Store
import TestSupport
import Testing

/// Migration 0020 on a database filled by schema 0019, and the monthly partitions after it.
@Suite("Monthly partitions: 0020 converts a filled database without losing a row; retention drops finished months")
struct PartitionMigrationTests {
    /// A database at schema 0019 holding 14 months of history: notifications (one month with
    /// work still waiting), their attempts, webhook events (one month with an event waiting)
    /// and status events that name notifications.
    private func withFilledDatabase(_ body: (PostgresClient, [Migration]) async throws -> Void) async throws {
        try await TestDatabase.withClient { client, _ in
            try await client.withConnection { session in
                try session.runScript("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
            }
            let migrations = try Migration.load(from: TestEnvironment.schemaDirectory())
            let before = migrations.filter { $0.version < "0020" }
            #expect(before.last?.name == "0019_promotional_offer_rules")
            _ = try await MigrationRunner(client: client, migrations: before).migrate()
            try await client.withConnection { session in try session.runScript(Self.history) }
            try await body(client, migrations)
        }
    }

    /// Months 0 (this one) to 13 back, 40 notifications a month on its 10th day, processed, with
    /// one or two attempts; month 5 back also holds one still retrying. Events likewise, with
    /// one pending in month 6 back.
    static let history = """
        INSERT INTO notifications (source, dedupe_key, notification_type, environment, bundle_id, original_transaction_id,
                                   body, state, attempts, received_at, processed_at)
        SELECT 'v1', 'v1:key-' || m || '-' || i, 'DID_RENEW', 'Production', 'com.example.app', 'otx-' || i,
               jsonb_build_object('month', m, 'i', i, 'latest_receipt', 'AAAA'), 'processed', 1 + i % 2,
               date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(months => m) + interval '9 days'
                   + make_interval(mins => i),
               date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(months => m) + interval '9 days'
                   + make_interval(mins => i + 1)
        FROM generate_series(0, 13) AS m, generate_series(1, 40) AS i;
        INSERT INTO notifications (source, dedupe_key, notification_type, environment, bundle_id, body, state, attempts,
                                   last_error, received_at)
        VALUES ('v2', 'v2:waiting', 'DID_RENEW', 'Production', 'com.example.app', '{"signedPayload": "x"}', 'retrying', 1,
                'upstream down', date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '5 months' + interval '3 days');
        INSERT INTO notification_attempts (notification_id, attempt, started_at, finished_at, outcome, error, actor)
        SELECT n.id, a, n.received_at, n.received_at + interval '1 second', CASE WHEN a = n.attempts AND n.state = 'processed'
               THEN 'processed' ELSE 'retry' END, CASE WHEN a < n.attempts THEN 'timed out' END, NULL
        FROM notifications AS n, generate_series(1, n.attempts) AS a;
        INSERT INTO status_events (environment, original_transaction_id, old_status, new_status, notification_id, occurred_at)
        SELECT 'Production', original_transaction_id, 'active', 'expired', id, received_at FROM notifications WHERE id % 3 = 0 AND original_transaction_id IS NOT NULL;
        INSERT INTO webhook_events (event_id, type, bundle_id, environment, original_transaction_id, subscription, state,
                                    created_at, delivered_at)
        SELECT 'evt_' || md5(m || '-' || i), 'renewed', 'com.example.app', 'Production', 'otx-' || i,
               jsonb_build_object('status', 'active'), CASE WHEN m = 6 AND i = 1 THEN 'pending' ELSE 'delivered' END,
               date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(months => m) + interval '12 days',
               CASE WHEN m = 6 AND i = 1 THEN NULL ELSE now() END
        FROM generate_series(0, 13) AS m, generate_series(1, 25) AS i;
        """

    /// Each table's rows as text, in a stable order, hashed, with their count.
    private func fingerprints(_ client: PostgresClient) async throws -> [String] {
        let queries = [
            "SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY id)) AS h FROM notifications AS t",
            """
            SELECT count(*) AS n, md5(string_agg((notification_id, attempt, started_at, finished_at, outcome, error, actor)::text, '|'
                                                 ORDER BY notification_id, attempt)) AS h
            FROM notification_attempts
            """,
            "SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY id)) AS h FROM webhook_events AS t",
            "SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY id)) AS h FROM status_events AS t",
        ]
        var result: [String] = []
        for query in queries {
            let row = try #require(try await client.query(PostgresQuery(stringLiteral: query)).first)
            result.append("\(try row.decode("n", as: Int.self)) \(try row.decode("h", as: String.self))")
        }
        return result
    }

    private func partitions(_ client: PostgresClient, of parent: String) async throws -> [String] {
        try await client.query(
            """
            SELECT c.relname AS name FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
            WHERE i.inhparent = \(parent)::regclass ORDER BY 1
            """
        ).map { try $0.decode("name", as: String.self) }
    }

    private func count(_ client: PostgresClient, _ query: PostgresQuery) async throws -> Int {
        try #require(try await client.query(query).first).decode("n", as: Int.self)
    }

    @Test("every row of 0019 is in 0020's partitions, ids go on from the sequences, and retries are still duplicates")
    func migrationKeepsEveryRow() async throws {
        try await withFilledDatabase { client, migrations in
            let before = try await fingerprints(client)
            #expect(before[0].hasPrefix("561 "))
            let maxID = try await count(client, "SELECT max(id)::integer AS n FROM notifications")

            #expect(
                try await MigrationRunner(client: client, migrations: migrations.filter { $0.version <= "0020" }).migrate() == [
                    "0020_monthly_partitions"
                ])
            #expect(try await fingerprints(client) == before)
            for table in PartitionMaintenance.partitionedTables {
                let names = try await partitions(client, of: table)
                // 14 months of history, the two ahead, and the default.
                #expect(names.count == 17, "\(table): \(names)")
                #expect(try await count(client, PostgresQuery(stringLiteral: "SELECT count(*)::integer AS n FROM \(table)_default")) == 0)
            }
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM notification_keys") == 561)

            // What follows is this release's intake and worker, on its schema.
            _ = try await MigrationRunner(client: client, migrations: migrations).migrate()
            let inbox = NotificationInbox(client: client)
            let oldID = try await count(client, "SELECT id::integer AS n FROM notifications WHERE dedupe_key = 'v1:key-13-7'")
            let again = try await inbox.insert(Self.entry("v1:key-13-7"))
            #expect(again == .duplicate(id: Int64(oldID)))
            guard case .accepted(let newID) = try await inbox.insert(Self.entry("new")) else {
                Issue.record("a new key was not stored")
                return
            }
            #expect(newID > Int64(maxID))
            #expect(try await inbox.insert(Self.entry("new")) == .duplicate(id: newID))

            // The waiting notification from five months back is claimed and retried in its month.
            try await client.execute("UPDATE notifications SET next_attempt_at = now() WHERE dedupe_key = 'v2:waiting'")
            let claimed = try await inbox.claimDue(limit: 10, lease: .seconds(60))
            #expect(claimed.count == 2)
            for notification in claimed {
                #expect(try await inbox.scheduleRetry(notification, at: Date().addingTimeInterval(3_600), reason: "later"))
            }
            #expect(
                try await count(
                    client,
                    """
                    SELECT count(*)::integer AS n FROM notification_attempts
                    WHERE error = 'later' AND notification_received_at = (SELECT received_at FROM notifications WHERE dedupe_key = 'v2:waiting')
                    """) == 1)
        }
    }

    @Test("retention drops months that ended before the cut-off with nothing waiting, their attempts with them; keys stay 181 days")
    func retentionDropsFinishedMonths() async throws {
        try await withFilledDatabase { client, migrations in
            _ = try await MigrationRunner(client: client, migrations: migrations).migrate()
            // A receipt queued four months back, processed: its key goes with its month.
            let fourMonthsBack = try await count(
                client,
                """
                WITH stored AS (
                    INSERT INTO notifications (source, dedupe_key, environment, bundle_id, body, state, received_at)
                    SELECT 'receipt', 'receipt:abc', 'Production', 'com.example.app', '{}', 'processed', received_at
                    FROM notifications WHERE dedupe_key = 'v1:key-4-1'
                    RETURNING id, received_at
                ), key AS (
                    INSERT INTO notification_keys SELECT 'receipt:abc', id, received_at FROM stored RETURNING 1
                )
                SELECT count(*)::integer AS n FROM key
                """)
            #expect(fourMonthsBack == 1)
            let now = Date()
            let cutoff = now.addingTimeInterval(-90 * 86_400)
            let maintenance = PartitionMaintenance(client: client)
            let drop = try await maintenance.dropFinishedMonths(before: cutoff, now: now, batchSize: 7)

            let endedBefore: PostgresQuery = """
                SELECT count(*)::integer AS n FROM (
                    SELECT DISTINCT date_trunc('month', received_at AT TIME ZONE 'UTC') AS month FROM notifications
                ) AS months WHERE (month + interval '1 month') AT TIME ZONE 'UTC' <= \(cutoff)
                """
            // Only the month holding the retrying notification is left of those that ended.
            #expect(try await count(client, endedBefore) == 1)
            let waitingMonth = try await count(
                client,
                """
                SELECT count(*)::integer AS n FROM notifications
                WHERE date_trunc('month', received_at) = (SELECT date_trunc('month', received_at) FROM notifications WHERE dedupe_key = 'v2:waiting')
                """)
            #expect(waitingMonth == 41)
            let notificationsDropped = drop.partitions.filter { $0.hasPrefix("notifications_p") }
            let attemptsDropped = drop.partitions.filter { $0.hasPrefix("notification_attempts_p") }
            #expect(notificationsDropped.count >= 9 && attemptsDropped.count == notificationsDropped.count, "\(drop.partitions)")
            #expect(
                Set(attemptsDropped.map { $0.dropFirst("notification_attempts_".count) })
                    == Set(notificationsDropped.map { $0.dropFirst("notifications_".count) }))
            // No attempt outlives its notification.
            #expect(
                try await count(
                    client,
                    """
                    SELECT count(*)::integer AS n FROM notification_attempts AS a
                    WHERE NOT EXISTS (SELECT 1 FROM notifications AS n WHERE n.id = a.notification_id)
                    """) == 0)
            let remaining = try await count(client, "SELECT count(*)::integer AS n FROM notifications")
            // 561 rows of history and the receipt; 40 a dropped month, and the receipt's month was one.
            #expect(remaining == 561 + 1 - 40 * notificationsDropped.count - 1)

            // Events: the month with a pending event stays, the other ended months go.
            let eventsDropped = drop.partitions.filter { $0.hasPrefix("webhook_events_p") }
            #expect(eventsDropped.count == notificationsDropped.count)
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM webhook_events WHERE state = 'pending'") == 1)

            // Keys older than both the cut-off and 181 days are gone; younger ones outlive their rows.
            let keyCutoff = now.addingTimeInterval(-181 * 86_400)
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM notification_keys WHERE received_at < \(keyCutoff)") == 0)
            #expect(drop.keysRemoved > 0)
            let orphanKeys = try await count(
                client,
                """
                SELECT count(*)::integer AS n FROM notification_keys AS k
                WHERE NOT EXISTS (SELECT 1 FROM notifications AS n WHERE n.id = k.notification_id)
                """)
            #expect(orphanKeys > 0, "keys younger than 181 days outlive a dropped month")
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM notification_keys WHERE dedupe_key = 'receipt:abc'") == 0)
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM notification_keys WHERE dedupe_key = 'v1:key-4-1'") == 1)

            // A second pass finds nothing more.
            let again = try await maintenance.dropFinishedMonths(before: cutoff, now: now)
            #expect(again.partitions.isEmpty && again.keysRemoved == 0)
        }
    }

    @Test("a row for a month nobody made goes to the default partition and moves into the month once it is made")
    func defaultRowsMoveIntoTheirMonth() async throws {
        try await TestDatabase.withClient { client, _ in
            let later = Date().addingTimeInterval(200 * 86_400)
            try await client.execute(
                """
                INSERT INTO notifications (source, dedupe_key, environment, bundle_id, body, received_at)
                VALUES ('v1', 'from-the-future', 'Production', 'com.example.app', '{}', \(later))
                """)
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM notifications_default") == 1)
            let maintenance = PartitionMaintenance(client: client)
            #expect(try await maintenance.makeMonths(from: later, monthsAhead: 0) == 3)
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM notifications_default") == 0)
            #expect(try await count(client, "SELECT count(*)::integer AS n FROM notifications WHERE dedupe_key = 'from-the-future'") == 1)
            #expect(try await maintenance.makeMonths(from: later, monthsAhead: 0) == 0)
        }
    }

    private static func entry(_ key: String) -> InboxEntry {
        InboxEntry(
            source: .v1, dedupeKey: key, notificationType: "DID_RENEW", environment: .production, bundleID: "com.example.app",
            originalTransactionID: "1", body: #"{"k":"\#(key)"}"#)
    }
}
