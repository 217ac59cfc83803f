import AppStoreSimulator
import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport
import Testing

/// Several `subscriptiond` processes on one PostgreSQL behave as one: each runs intake, the
/// worker, webhook delivery and the status sweep, Apple's deliveries are spread over them as
/// a load balancer would, and one dies by SIGKILL in the middle.
@Suite("Three subscriptiond processes on one database, one killed midway, behave as one")
struct MultiProcessTests {
    static let customers = 60
    static let seed: UInt64 = 20_261_127

    @Test(
        "every customer agrees, nothing acknowledged is lost, every event is written once and arrives in order per subscription and user"
    )
    func threeProcessesOneKilled() async throws {
        let simulator = AppStoreSimulator(configuration: .demo(seed: Self.seed, sharedSecret: RunningService.sharedSecret))
        try simulator.addRandomCustomers(Self.customers, seed: Self.seed, notificationVersions: .mixed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sim-root-multi-\(UUID().uuidString).pem")
        try Data(try simulator.signingPKI().root.pem.utf8).write(to: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await SimulatorServer.start(simulator: simulator)
        defer { Task { await server.shutdown() } }
        let receiver = WebhookReceiver(secret: WebhookDeliveryTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let app = try #require(simulator.configuration.apps.first)

        try await TestDatabase.withClient { database, testDatabase in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(database)
            let settings = try SimulatorAppsConfig.settings(for: simulator).merging([
                "VERIFY_RECEIPT_URL": server.productionURL.absoluteString,
                "VERIFY_RECEIPT_SANDBOX_URL": server.sandboxURL.absoluteString,
                "APPSTORE_ROOT_CERTIFICATES": root.path, "APPSTORE_APP_APPLE_ID": String(app.appAppleID),
                "ADMIN_TOKEN": RunningService.adminToken,
                "WEBHOOK_URL": receiver.url, "WEBHOOK_SECRET": WebhookDeliveryTests.secret,
                // A dead process's claims are taken over within seconds.
                "WORKER_LEASE_MS": "2000", "WEBHOOK_LEASE_MS": "2000", "WORKER_CONCURRENCY": "4",
                // The simulator's histories reach years back.
                "NOTIFICATION_MAX_AGE_DAYS": "3650",
            ]) { _, new in new }
            let processes = (0..<3).map { _ in
                ServiceProcess(databaseURL: testDatabase.url, verify: nil, settings)
            }
            defer { processes.forEach { $0.kill() } }
            var ports: [Int] = []
            for process in processes { ports.append(try await process.start()) }
            let targets = try ports.map { try #require(URL(string: "http://127.0.0.1:\($0)/notifications/appstore")) }

            // Apple delivers every notification twice, shuffled, over the three; the second
            // process is killed once a third of the distinct notifications are stored.
            let notifications = simulator.notifications()
            let plan = DeliveryPlan.order(notifications, duplicates: 2, shuffle: true, seed: Self.seed)
            let sender = NotificationSender(
                targets: targets[0], Array(targets.dropFirst()), retry: .persistent, timeout: .seconds(30), concurrency: 6)
            let delivery = Task { await sender.deliver(plan) }
            let reachedThird = try await Polling.until(seconds: 120) {
                try await Self.count(database, "SELECT count(*) AS n FROM notifications") >= notifications.count / 3
            }
            #expect(reachedThird, "the inbox never reached a third of the notifications")
            processes[1].kill()
            let storedAtKill = try await Self.count(database, "SELECT count(*) AS n FROM notifications")
            #expect(storedAtKill < notifications.count, "the kill came after everything was stored")
            let report = await delivery.value
            #expect(
                report.failed.isEmpty,
                "\(report.failed.count) undelivered; answers \(report.statuses), transport errors \(report.transportErrors); logs: \(processes.map { String($0.logText.suffix(1_500)) })"
            )
            #expect(report.delivered == plan.count)

            // Every stored notification ends processed by the two that live; none twice.
            let settled = try await Polling.until(seconds: 300) {
                try await Self.count(database, "SELECT count(*) AS n FROM notifications WHERE state <> 'processed'") == 0
            }
            let states = try await database.query("SELECT state || '=' || count(*) AS line FROM notifications GROUP BY state").map {
                try $0.decode("line", as: String.self)
            }
            #expect(settled, "the inbox did not settle: \(states)")
            let processedTwice = try await Self.count(
                database,
                """
                SELECT count(*) AS n FROM (SELECT notification_id FROM notification_attempts WHERE outcome = 'processed'
                                           GROUP BY notification_id HAVING count(*) > 1) twice
                """)
            #expect(processedTwice == 0)

            // Every customer agrees with the simulator, asked of a process that lived.
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(ports[2])")), adminToken: RunningService.adminToken,
                simulator: simulator)
            let statusMismatches = try await check.statusMismatches()
            #expect(statusMismatches.isEmpty, "\(statusMismatches.count) mismatches: \(statusMismatches.prefix(10))")
            let unlinked = try await check.linkCustomers()
            #expect(unlinked.isEmpty, "receipts not accepted: \(unlinked.prefix(10))")
            _ = try await Polling.until(seconds: 120) {
                try await Self.count(database, "SELECT count(*) AS n FROM notifications WHERE state <> 'processed'") == 0
            }
            let results = try await check.compare(
                productIDs: simulator.configuration.catalog.products.map(\.productID), until: Date().addingTimeInterval(60))
            let disagreeing = results.filter { !$0.agrees }
            #expect(
                disagreeing.isEmpty,
                "\(disagreeing.count) customers disagree: \(disagreeing.prefix(5).map { "\($0.truth.appUserID): \($0.mismatches)" })")
            #expect(results.count == Self.customers)

            try await Self.expectEventsWrittenOnceAndDeliveredInOrder(database, receiver)
        }
    }

    /// Every webhook event delivered; none of the events that can happen only once written
    /// twice; and per subscription (or per user, for entitlement events) the receiver first
    /// saw them in the order they were written.
    static func expectEventsWrittenOnceAndDeliveredInOrder(_ database: PostgresClient, _ receiver: WebhookReceiver) async throws {
        let delivered = try await Polling.until(seconds: 120) {
            try await count(database, "SELECT count(*) AS n FROM webhook_events WHERE state <> 'delivered'") == 0
        }
        #expect(delivered, "webhook events left undelivered")
        for (what, subject) in [
            ("subscription_created", "environment || ':' || original_transaction_id"),
            ("purchase_created", "environment || ':' || original_transaction_id"),
            ("renewed", "environment || ':' || original_transaction_id || ':' || (subscription->>'latestTransactionID')"),
        ] {
            let repeated = try await database.query(
                PostgresQuery(
                    sql: """
                        SELECT \(subject) AS subject, string_agg(coalesce(previous_status, '-') || '>' || coalesce(subscription->>'status', '-')
                                                                 || ' ' || created_at::text, '; ' ORDER BY id) AS events
                        FROM webhook_events WHERE type = '\(what)' GROUP BY 1 HAVING count(*) > 1
                        """)
            ).map { "\(try $0.decode("subject", as: String?.self) ?? "NULL"): \(try $0.decode("events", as: String.self))" }
            #expect(repeated.isEmpty, "\(what) written more than once: \(repeated)")
        }
        let rows = try await database.query(
            """
            SELECT event_id, coalesce(environment || ':' || original_transaction_id, 'user:' || app_user_id) AS order_key
            FROM webhook_events ORDER BY id
            """)
        #expect(rows.count > Self.customers, "too few events to judge: \(rows.count)")
        var written: [String: [String]] = [:]
        var keyOfEvent: [String: String] = [:]
        for row in rows {
            let (event, key) = (try row.decode("event_id", as: String.self), try row.decode("order_key", as: String.self))
            written[key, default: []].append(event)
            keyOfEvent[event] = key
        }
        #expect(Set(keyOfEvent.keys).isSubset(of: receiver.acknowledged), "events written but never acknowledged")
        var firstArrivals: [String: [String]] = [:]
        var seen: Set<String> = []
        for delivery in receiver.deliveries where seen.insert(delivery.eventID).inserted {
            guard let key = keyOfEvent[delivery.eventID] else { continue }
            firstArrivals[key, default: []].append(delivery.eventID)
        }
        let outOfOrder = written.filter { firstArrivals[$0.key] != $0.value }.map(\.key)
        #expect(outOfOrder.isEmpty, "events that arrived out of order for \(outOfOrder.prefix(5))")
    }

    static func count(_ database: PostgresClient, _ query: String) async throws -> Int {
        try await database.query(PostgresQuery(sql: query))[0].decode("n", as: Int.self)
    }
}
