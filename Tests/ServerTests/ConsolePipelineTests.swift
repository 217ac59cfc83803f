import AppStore
import Composition
import Foundation
import Postgres
import Store
import Subscriptions
import TestSupport
import Testing
import UseCases

/// The console's pipeline panel and its notifications and webhooks lists against a real
/// database: the counts move as notifications and webhook events die, and the lists page
/// through every row once.
@Suite("Console reads: pipeline health and operations lists")
struct ConsolePipelineTests {
    @Test("pending, dead, processed, webhook and consumption counts move as the pipeline does")
    func countsMove() async throws {
        try await TestDatabase.withClient { database, _ in
            let health = PipelineHealth(database: database)
            let empty = try await health.snapshot()
            #expect(empty.notificationsUnfinished == 0 && empty.deadNotifications == 0 && empty.deadWebhooks == 0)
            #expect(empty.oldestUnfinishedNotificationAt == nil && empty.newestProcessedNotificationAt == nil)

            try await ConsoleFixture.notify(3, about: "6300000000000001", tag: "pipeline", in: database)
            let waiting = try await health.snapshot()
            #expect(waiting.notificationsPending == 3 && waiting.oldestPendingNotificationAt != nil)
            #expect(waiting.oldestUnfinishedNotificationAt == waiting.oldestPendingNotificationAt)

            let inbox = NotificationInbox(client: database)
            let claimed = try await inbox.claimDue(limit: 2, lease: .seconds(60))
            #expect(claimed.count == 2)
            #expect(try await inbox.markDead(claimed[0], reason: "unreadable body"))
            try await database.withTransaction { session in try NotificationInbox.markProcessed(claimed[1], in: session) }
            let after = try await health.snapshot(reasons: 3)
            #expect(after.notificationsPending == 1 && after.deadNotifications == 1)
            #expect(after.topDeadReasons == [ReasonCount(reason: "unreadable body", count: 1)])
            #expect(after.newestProcessedNotificationAt != nil)

            // Facts write webhook events; one of them dies.
            try await ConsoleFixture.importCatalog(database)
            try await ConsoleFixture.apply(
                [ConsoleFixture.period("6300000000000001", of: "6300000000000001", start: Date())], user: "pat", now: Date(), in: database)
            let events = try await health.snapshot()
            #expect(events.webhooksPending > 0 && events.deadWebhooks == 0 && events.oldestUnfinishedWebhookAt != nil)
            let outbox = WebhookOutbox(client: database)
            let delivery = try #require(try await outbox.claimDue(limit: 1, lease: .seconds(60), bundleIDs: [ConsoleFixture.app]).first)
            #expect(try await outbox.markDead(delivery, status: 410, reason: "gone"))
            let dead = try await health.snapshot()
            #expect(dead.deadWebhooks == 1 && dead.webhooksUnfinished == events.webhooksUnfinished - 1)

            let requestedAt = Date()
            try await database.withTransaction { session in
                try ConsumptionStore.record(
                    NewConsumptionRequest(
                        notificationUUID: UUID().uuidString, environment: .production, bundleID: ConsoleFixture.app,
                        transactionID: "6300000000000001", originalTransactionID: "6300000000000001", productID: ConsoleFixture.monthly,
                        autoRenewable: true, reason: "UNINTENDED_PURCHASE", requestedAt: requestedAt), in: session)
            }
            let consumption = try await health.snapshot()
            #expect(consumption.consumptionRequestsPending == 1)
            let deadline = try #require(consumption.earliestConsumptionDeadline)
            #expect(abs(deadline.timeIntervalSince(requestedAt) - NewConsumptionRequest.answerWindow) < 1)
        }
    }

    @Test("notifications and webhooks lists: filters, every row once over pages, unknown states refused")
    func listsPage() async throws {
        try await TestDatabase.withClient { database, _ in
            try await ConsoleFixture.notify(23, about: "6300000000000002", batch: 10, tag: "list", in: database)
            try await ConsoleFixture.notify(4, about: nil, user: "pat", source: .receipt, tag: "list-receipt", in: database)
            let inbox = NotificationInbox(client: database)
            for claim in try await inbox.claimDue(limit: 5, lease: .seconds(60)) {
                #expect(try await inbox.markDead(claim, reason: "bad"))
            }
            let lists = OperationsLists(database: database)

            func every(state: String?, type: String?, size: Int) async throws -> [Int64] {
                var ids: [Int64] = []
                var cursor: ListCursor?
                repeat {
                    let page = try await lists.notifications(state: state, type: type, before: cursor, limit: size)
                    #expect(page.items.count <= size)
                    ids += page.items.map(\.id)
                    cursor = page.next.flatMap { ListCursor(text: $0.text) }
                } while cursor != nil
                return ids
            }
            let newestFirst = try await database.query("SELECT id FROM notifications ORDER BY received_at DESC, id DESC").map {
                try $0.decode("id", as: Int64.self)
            }
            #expect(newestFirst.count == 27)
            #expect(try await every(state: nil, type: nil, size: 4) == newestFirst)
            #expect(try await every(state: nil, type: nil, size: 200) == newestFirst)
            #expect(try await every(state: "dead", type: nil, size: 2).count == 5)
            let pendingRenewals = try await database.query(
                "SELECT count(*) AS n FROM notifications WHERE state = 'pending' AND notification_type = 'DID_RENEW'")[0].decode(
                    "n", as: Int.self)
            #expect(try await every(state: "pending", type: "DID_RENEW", size: 3).count == pendingRenewals)
            #expect(try await every(state: "", type: " \n", size: 50).count == 27, "empty filters filter nothing")
            #expect(try await every(state: nil, type: "DID_RENEW\0<b>", size: 50).isEmpty)
            await #expect(throws: UseCaseError.self) { try await lists.notifications(state: "'; DROP", type: nil) }

            try await ConsoleFixture.importCatalog(database)
            for index in 0..<6 {
                let id = String(6_300_000_000_000_100 + index)
                try await ConsoleFixture.apply(
                    [ConsoleFixture.period(id, of: id, start: Date())], user: "pat-\(index)", now: Date(), in: database)
            }
            let outbox = WebhookOutbox(client: database)
            let delivery = try #require(try await outbox.claimDue(limit: 1, lease: .seconds(60), bundleIDs: [ConsoleFixture.app]).first)
            #expect(try await outbox.markDead(delivery, status: nil, reason: "refused"))
            let allEvents = try await database.query("SELECT id FROM webhook_events ORDER BY created_at DESC, id DESC").map {
                try $0.decode("id", as: Int64.self)
            }
            #expect(allEvents.count >= 6, "one event per new subscription at least")
            var events: [Int64] = []
            var cursor: ListCursor?
            repeat {
                let page = try await lists.webhookEvents(state: nil, before: cursor, limit: 4)
                events += page.items.map(\.event.id)
                cursor = page.next
            } while cursor != nil
            #expect(events == allEvents)
            #expect(try await lists.webhookEvents(state: "dead").items.map(\.event.id) == [delivery.event.id])
            await #expect(throws: UseCaseError.self) { try await lists.webhookEvents(state: "processed") }
        }
    }
}
