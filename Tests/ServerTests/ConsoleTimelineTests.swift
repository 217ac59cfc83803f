import AppStore
import Composition
import Foundation
import Postgres
import Store
import Subscriptions
import TestSupport
import Testing
import UseCases

/// A customer's timeline in the console against a real database: a customer with hundreds of
/// items (renewals applied one by one, notifications stored in batches that share a time,
/// queued receipts, grants) pages through every item exactly once, in the order of the
/// timeline, whatever the page size.
@Suite("Console reads: customer timeline")
struct ConsoleTimelineTests {
    static let user = "tim"
    static let subscription = "6200000000000001"
    static let sandboxSubscription = "6200000000000500"
    static let start = Date(timeIntervalSince1970: 1_760_000_000)

    /// tim: a Production subscription renewed 60 times (with two lapses), each renewal applied
    /// on its own; a Sandbox one whose 40 periods arrive at once, two sharing a purchase date;
    /// 150 notifications in batches of 25, 10 queued receipts (half about the subscription),
    /// 12 grants (4 revoked). Someone else's purchase and notifications beside them.
    private func withBusyCustomer(_ body: (PostgresClient) async throws -> Void) async throws {
        try await TestDatabase.withClient { database, _ in
            try await ConsoleFixture.importCatalog(database)
            for index in 0..<60 {
                // Periods 20 and 40 start after a lapse: the subscription expires, then comes back.
                let lapse = Double(index / 20) * 10
                let begins = Self.start + (Double(index) * 30 + lapse) * ConsoleFixture.day
                let id = index == 0 ? Self.subscription : String(6_200_000_000_001_000 + index)
                // The period before a lapse is applied after it ended: the subscription expires.
                let appliedAfter = index % 20 == 19 ? 35 : 1.0
                try await ConsoleFixture.apply(
                    [ConsoleFixture.period(id, of: Self.subscription, start: begins)], autoRenew: index % 7 != 6, user: Self.user,
                    now: begins + appliedAfter * ConsoleFixture.day, in: database)
            }
            var sandbox: [TransactionFact] = (0..<40).map { (index: Int) -> TransactionFact in
                let id = index == 0 ? Self.sandboxSubscription : String(6_200_000_000_000_500 + index)
                let begins = Self.start + Double(index) * 7 * ConsoleFixture.day
                return ConsoleFixture.period(id, of: Self.sandboxSubscription, start: begins, days: 7, environment: .sandbox)
            }
            sandbox.append(
                ConsoleFixture.period(
                    "6200000000000599", of: Self.sandboxSubscription, start: Self.start + 39 * 7 * ConsoleFixture.day, days: 7,
                    environment: .sandbox))
            try await ConsoleFixture.apply(sandbox, user: Self.user, now: Self.start + 300 * ConsoleFixture.day, in: database)
            try await ConsoleFixture.notify(150, about: Self.subscription, batch: 25, tag: "tim", in: database)
            try await ConsoleFixture.notify(5, about: nil, user: Self.user, source: .receipt, tag: "tim-receipt", in: database)
            try await ConsoleFixture.notify(5, about: Self.subscription, user: Self.user, source: .receipt, tag: "tim-both", in: database)
            let grants = ManualGrants(database: database)
            for index in 0..<12 {
                let grant = try await grants.add(
                    appUserID: Self.user, entitlement: "pro", expiresAt: nil, reason: "comp \(index)", actor: "cli:tester")
                if index % 3 == 0 { _ = try await grants.revoke(id: grant.id, appUserID: Self.user, reason: "done", actor: "cli:tester") }
            }
            try await ConsoleFixture.apply(
                [ConsoleFixture.period("6200000000009001", of: "6200000000009001", start: Self.start)], user: "someone-else",
                now: Self.start + ConsoleFixture.day, in: database)
            try await ConsoleFixture.notify(30, about: "6200000000009001", batch: 10, tag: "else", in: database)
            try await body(database)
        }
    }

    @Test("300+ items page through exactly once, in timeline order, at any page size; a page read again is the same page")
    func pagesThroughEveryItemOnce() async throws {
        try await withBusyCustomer { database in
            let expected = try await Self.everyItem(of: Self.user, in: database)
            #expect(expected.count >= 300, "\(expected.count) items")
            let directory = CustomerDirectory(database: database)
            for size in [7, 50, 200] {
                var seen: [String] = []
                var cursor: TimelineCursor?
                var pages = 0
                repeat {
                    let page = try await directory.timeline(appUserID: Self.user, before: cursor, limit: size)
                    #expect(page.items.count <= size)
                    #expect(page.next == nil || page.items.count == size, "only the last page is short")
                    seen += page.items.map { "\($0.kind.rawValue) \($0.key)" }
                    // The same cursor, carried through a link, gives the same page.
                    if pages == 2, let cursor {
                        let again = try await directory.timeline(
                            appUserID: Self.user, before: TimelineCursor(text: cursor.text), limit: size)
                        #expect(again == page)
                    }
                    cursor = page.next
                    pages += 1
                } while cursor != nil && pages < 1_000
                #expect(Set(seen).count == seen.count, "page size \(size): no item twice")
                #expect(seen == expected, "page size \(size): every item once, in order")
            }
        }
    }

    @Test("items say what happened and lead to their detail pages; a purchase's timeline holds only that purchase")
    func itemsAndPurchaseTimeline() async throws {
        try await withBusyCustomer { database in
            let directory = CustomerDirectory(database: database)
            var items: [TimelineItem] = []
            var cursor: TimelineCursor?
            repeat {
                let page = try await directory.timeline(appUserID: Self.user, before: cursor, limit: 200)
                items += page.items
                cursor = page.next
            } while cursor != nil
            #expect(Set(items.map(\.kind)) == Set(TimelineItem.Kind.allCases), "every kind of item is there")
            #expect(zip(items, items.dropFirst()).allSatisfy { $0.at >= $1.at }, "newest first")
            let first = try #require(items.first { $0.kind == .transaction && $0.key == "Production:\(Self.subscription)" })
            #expect(first.title == "Purchase of \(ConsoleFixture.monthly)")
            #expect(first.reference == .transaction(id: Self.subscription, environment: "Production"))
            let grant = try #require(items.first { $0.kind == .audit })
            #expect(grant.title.hasSuffix("by cli:tester") && grant.detail?.contains("entitlement: pro") == true, "\(grant)")
            #expect(items.contains { $0.kind == .statusChange && $0.title == "Status active → expired" }, "the lapses")
            let receipts = items.filter { $0.kind == .notification && $0.title == "Queued receipt" }
            #expect(receipts.count == 10, "queued receipts, each once though five are also about the subscription")
            for item in items where item.kind == .notification {
                guard case .notification(let id) = item.reference else {
                    Issue.record("\(item)")
                    continue
                }
                #expect(item.key == String(repeating: "0", count: 20 - String(id).count) + String(id))
            }

            var purchase: [TimelineItem] = []
            cursor = nil
            repeat {
                let page = try await directory.timeline(
                    originalTransactionID: Self.sandboxSubscription, environment: "Sandbox", before: cursor, limit: 9)
                purchase += page.items
                cursor = page.next
            } while cursor != nil
            #expect(purchase.filter { $0.kind == .transaction }.count == 41)
            #expect(!purchase.contains { $0.kind == .audit || $0.kind == .notification }, "nothing of the user's own")
            #expect(
                purchase.filter { $0.kind != .webhookEvent } == items.filter { Self.concernsSandboxPurchase($0) },
                "the customer's items of that purchase")
            #expect(Set(purchase.filter { $0.kind == .webhookEvent }).isSubset(of: Set(items)))

            #expect(try await directory.timeline(appUserID: "nobody").items.isEmpty)
            #expect(try await directory.timeline(appUserID: "tim\0").items.isEmpty, "NUL names nobody, and fails nothing")
            let made = TimelineCursor(at: Date(timeIntervalSince1970: 0), kind: .audit, key: "'; <b>\u{1F642}")
            #expect(try await directory.timeline(appUserID: Self.user, before: made).items.isEmpty, "nothing before 1970")
            #expect(TimelineCursor(text: "12.nonsense.1") == nil && TimelineCursor(text: "999999999999999999999.audit.1") == nil)
        }
    }

    /// Whether `item` is about the Sandbox subscription (webhook events do not say).
    private static func concernsSandboxPurchase(_ item: TimelineItem) -> Bool {
        switch item.reference {
        case .subscription(let id, _): id == sandboxSubscription
        case .transaction(_, let environment): environment == "Sandbox"
        case .webhookEvent, .notification, .audit: false
        }
    }

    /// The oracle: every item of `user`, read whole and sorted here, as `KIND KEY`.
    static func everyItem(of user: String, in database: PostgresClient) async throws -> [String] {
        try await database.query(
            """
            WITH linked AS (SELECT environment, original_transaction_id FROM subscribers WHERE app_user_id = \(user))
            SELECT kind, key FROM (
                SELECT 'notification' AS kind, 3 AS rank, received_at AS at, lpad(id::text, 20, '0') AS key FROM notifications n
                WHERE app_user_id = \(user) OR (environment, original_transaction_id) IN (SELECT * FROM linked)
                UNION ALL
                SELECT 'transaction', 1, purchase_date, environment || ':' || transaction_id FROM transactions
                WHERE (environment, original_transaction_id) IN (SELECT * FROM linked)
                UNION ALL
                SELECT 'renewal', 2, observed_at, environment || ':' || original_transaction_id FROM renewal_info
                WHERE (environment, original_transaction_id) IN (SELECT * FROM linked)
                UNION ALL
                SELECT 'statusChange', 4, occurred_at, lpad(id::text, 20, '0') FROM status_events
                WHERE (environment, original_transaction_id) IN (SELECT * FROM linked)
                UNION ALL
                SELECT 'webhookEvent', 5, created_at, lpad(id::text, 20, '0') FROM webhook_events
                WHERE app_user_id = \(user) OR (environment, original_transaction_id) IN (SELECT * FROM linked)
                UNION ALL
                SELECT 'audit', 6, occurred_at, lpad(id::text, 20, '0') FROM audit_log WHERE app_user_id = \(user)
            ) AS every_item
            ORDER BY at DESC, rank DESC, key COLLATE "C" DESC
            """
        ).map { "\(try $0.decode("kind", as: String.self)) \(try $0.decode("key", as: String.self))" }
    }
}
