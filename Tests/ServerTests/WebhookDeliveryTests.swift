import AppStore
import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import Settings
import Store
import Subscriptions
import TestSupport
import Testing
import Webhooks

@Suite("Webhooks: every committed change reaches the app's backend, signed, in order per subscription")
struct WebhookDeliveryTests {
    static let secret = "webhook-secret-0123456789abcdef-0123456789"
    static let seed: UInt64 = 20_261_122

    @Test("a simulated population: every status change arrives, signed, in order, with stable ids; rolled-back work sends nothing")
    func populationArrivesInOrder() async throws {
        let receiver = WebhookReceiver(secret: Self.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let simulator = AppStoreSimulator(configuration: .demo(seed: Self.seed, sharedSecret: RunningService.sharedSecret))
        try simulator.addRandomCustomers(40, seed: Self.seed)
        let server = try await SimulatorServer.start(simulator: simulator)
        defer { Task { await server.shutdown() } }
        let settings = try SimulatorAppsConfig.settings(for: simulator).merging([
            "VERIFY_RECEIPT_URL": server.productionURL.absoluteString, "VERIFY_RECEIPT_SANDBOX_URL": server.sandboxURL.absoluteString,
            "WEBHOOK_URL": receiver.url, "WEBHOOK_SECRET": Self.secret,
        ]) { _, new in new }
        try await RunningService.with(settings: settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let plan = DeliveryPlan.order(simulator.notifications(), duplicates: 2, shuffle: true, seed: Self.seed)
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 8).deliver(plan)
            #expect(report.failed.isEmpty, "\(report.failureSummary)")
            try await service.waitUntilSettled(timeout: .seconds(120))
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: simulator)
            let unlinked = try await check.linkCustomers()
            #expect(unlinked.isEmpty)
            try await service.waitUntilSettled(timeout: .seconds(120))
            try await service.waitUntilWebhooksSettled(timeout: .seconds(120))

            let outbox = try await service.database.query(
                """
                SELECT id, event_id, type, state,
                       -- entitlement_changed is ordered per user; every other event per subscription.
                       coalesce(original_transaction_id, 'user:' || app_user_id) AS order_key
                FROM webhook_events ORDER BY id
                """
            ).map { row in
                (
                    id: try row.decode("id", as: Int64.self), eventID: try row.decode("event_id", as: String.self),
                    type: try row.decode("type", as: String.self), subscription: try row.decode("order_key", as: String.self),
                    state: try row.decode("state", as: String.self)
                )
            }
            let subscriptions = try await service.database.query("SELECT count(*) AS n FROM subscriptions")[0].decode("n", as: Int.self)
            #expect(subscriptions > 0)
            // One subscription_created per subscription (redeliveries add none), lifecycle events, and the links.
            #expect(outbox.filter { $0.type == "subscription_created" }.count == subscriptions)
            #expect(Set(outbox.map(\.type)).isSubset(of: Set(WebhookEventType.allCases.map(\.rawValue))))
            #expect(outbox.contains { $0.type == "user_linked" })
            #expect(outbox.allSatisfy { $0.state == "delivered" })

            let deliveries = receiver.deliveries
            #expect(deliveries.allSatisfy { $0.signatureValid }, "every signature verifies with the receiver's secret")
            #expect(deliveries.allSatisfy { $0.headerEventID == $0.eventID })
            #expect(Set(outbox.map(\.eventID)).isSubset(of: receiver.acknowledged), "every event arrived")
            #expect(Set(deliveries.map(\.eventID)).isSubset(of: Set(outbox.map(\.eventID))), "nothing arrived that is not in the outbox")
            // Per subscription (per user for entitlements), first arrivals are in outbox (commit) order.
            var firstArrival: [String: Int] = [:]
            for (index, delivery) in deliveries.enumerated() where firstArrival[delivery.eventID] == nil {
                firstArrival[delivery.eventID] = index
            }
            for (subscription, events) in Dictionary(grouping: outbox, by: \.subscription) {
                let arrivals = events.map { firstArrival[$0.eventID] ?? -1 }
                #expect(arrivals == arrivals.sorted(), "events of \(subscription) arrived out of order")
            }
            // A wrong secret is detectable: the same bytes do not verify under another key.
            let sample = try #require(deliveries.first)
            #expect(
                !WebhookSignature.isValid(
                    header: WebhookSignature.header(secret: Secret(Self.secret), timestamp: 1, body: sample.body),
                    secret: Self.secret + "x", timestamp: 1, body: sample.body))
        }
    }

    @Test("a change whose transaction rolls back writes no event; the committed twin writes one")
    func rolledBackWorkSendsNothing() async throws {
        try await RunningService.with(runsWorker: false) { service in
            let id = "7100000000000001"
            let answer = NotificationBodies.bytes([
                "status": 0, "environment": "Production",
                "latest_receipt_info": [
                    [
                        "transaction_id": id, "original_transaction_id": id, "product_id": "com.example.pro.monthly",
                        "purchase_date_ms": NotificationBodies.ms(Date().addingTimeInterval(-86_400)),
                        "expires_date_ms": NotificationBodies.ms(Date().addingTimeInterval(29 * 86_400)),
                    ]
                ],
            ])
            let facts = ReceiptFacts(
                verifyResponse: try VerifyReceiptResponse.decode(from: answer), bundleID: RunningService.bundleID, observedAt: Date())
            struct Rollback: Error {}
            await #expect(throws: Rollback.self) {
                try await service.database.withTransaction { session in
                    try FactStore.applyForTests(facts, receiptObservedAt: Date(), notificationID: nil, appUserID: "user-1", in: session)
                    throw Rollback()
                }
            }
            let count = { try await service.database.query("SELECT count(*) AS n FROM webhook_events")[0].decode("n", as: Int.self) }
            #expect(try await count() == 0)
            try await service.database.withTransaction { session in
                try FactStore.applyForTests(facts, receiptObservedAt: Date(), notificationID: nil, appUserID: "user-1", in: session)
            }
            #expect(try await count() == 1)
            let row = try await service.database.query("SELECT type, to_json(app_user_ids)::text AS users FROM webhook_events")[0]
            #expect(try row.decode("type", as: String.self) == "subscription_created")
            #expect(try row.decode("users", as: String.self) == #"["user-1"]"#)

            // The operator's view: list, show (the exact body), replay, stats.
            let list = try await CLI.run(["webhooks", "list", "--json"], databaseURL: service.databaseURL)
            #expect(list.status == 0)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
            let events = try #require(listed["events"] as? [[String: Any]])
            #expect(events.count == 1 && events.first?["type"] as? String == "subscription_created")
            let eventID = try #require(events.first?["event_id"] as? String)
            let show = try await CLI.run(["webhooks", "show", eventID, "--json"], databaseURL: service.databaseURL)
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            let payload = try #require(shown["payload"] as? [String: Any])
            #expect(payload["id"] as? String == eventID)
            #expect((payload["subscription"] as? [String: Any])?["status"] as? String == "active")
            // (Not id 1: the rolled-back insert used it up.)
            let outboxID = try #require(events.first?["id"] as? Int)
            #expect(try await CLI.run(["webhooks", "replay", String(outboxID)], databaseURL: service.databaseURL).status == 0)
            #expect(try await CLI.run(["webhooks", "replay", "999"], databaseURL: service.databaseURL).status == 1)
            // An event dead for days, replayed, gets the whole retry window again from the replay.
            try await service.database.execute("UPDATE webhook_events SET state = 'dead', created_at = now() - interval '4 days'")
            #expect(try await CLI.run(["webhooks", "replay", "--dead"], databaseURL: service.databaseURL).status == 0)
            let replayed = try #require(try await WebhookQueries(client: service.database).detail(id: String(outboxID)))
            #expect(Date().timeIntervalSince(replayed.event.createdAt) > 3 * 86_400)
            #expect(abs(replayed.event.retryWindowStart.timeIntervalSinceNow) < 300, "the window starts at the replay")
            #expect(WebhookRetryPolicy().nextAttempt(after: 1, windowStart: replayed.event.retryWindowStart, now: Date()) != nil)
            let stats = try await CLI.run(["stats", "--json"], databaseURL: service.databaseURL)
            let counted = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
            #expect(((counted["webhooks"] as? [String: Any])?["by_state"] as? [String: Int])?["pending"] == 1)
        }
    }

    @Test("the receiver refuses connections, then answers 500, then hangs past the timeout, then recovers: every event arrives")
    func receiverOutageThenRecovery() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        let receiver = WebhookReceiver(secret: Self.secret)
        try await receiver.start()
        let url = receiver.url
        let port = receiver.port
        await receiver.stop()
        let settings = [
            "VERIFY_RECEIPT_URL": verify.productionURL, "VERIFY_RECEIPT_SANDBOX_URL": verify.sandboxURL,
            "WEBHOOK_URL": url, "WEBHOOK_SECRET": Self.secret, "WEBHOOK_TIMEOUT_MS": "300",
        ]
        try await RunningService.with(verifyServer: verify, settings: settings) { service in
            let ids = (0..<12).map { String(7_200_000_000_000_000 + $0) }
            for id in ids {
                #expect(try await service.postNotification(NotificationBodies.renewal(originalTransactionID: id)).status == 200)
            }
            try await service.waitUntilSettled()
            try await Self.waitForRetries(service)  // connection refused
            try await receiver.start(port: port)
            receiver.behave(.status(500))
            try await Self.waitForDeliveries(receiver, atLeast: 3)
            receiver.behave(.hang(.seconds(1)))
            try await Self.waitForDeliveries(receiver, atLeast: receiver.deliveries.count + 3)
            receiver.behave(.acknowledge)
            try await service.waitUntilWebhooksSettled()
            let events = try await service.database.query("SELECT event_id, state, attempts, last_error FROM webhook_events")
            #expect(events.count == ids.count)
            for row in events {
                #expect(try row.decode("state", as: String.self) == "delivered")
                #expect(receiver.acknowledged.contains(try row.decode("event_id", as: String.self)))
            }
            let attempts = try events.map { try $0.decode("attempts", as: Int.self) }
            #expect(attempts.contains { $0 > 2 }, "the outage must have caused retries")
            #expect(receiver.deliveries.allSatisfy { $0.signatureValid })
        }
        await receiver.stop()
    }

    static func waitForRetries(_ service: RunningService) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let rows = try await service.database.query("SELECT count(*) AS n FROM webhook_events WHERE state = 'retrying'")
            if try rows[0].decode("n", as: Int.self) > 0 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no event was retried while the receiver refused connections")
    }

    static func waitForDeliveries(_ receiver: WebhookReceiver, atLeast count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && receiver.deliveries.count < count {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(receiver.deliveries.count >= count)
    }
}
