import Foundation
import Testing

/// The operator-CLI tests. Each starts subscriptiond with a database filled through the
/// pipeline; they run one at a time so that together they hold few PostgreSQL connections
/// next to the rest of the suite.
@Suite("subscriptionctl operator commands", .serialized)
struct CLIOperatorTests {
    @Suite("inspection: subscriber, subscription, notifications, stats")
    struct Inspection {
        @Test("subscriber show and subscription show: contract JSON, the story in words, exit 1 for unknown ids")
        func subscriberAndSubscription() async throws {
            try await OperatorFixture.with { fixture in
                let alice = try await fixture.json(["subscriber", "show", "alice"])
                #expect(alice["app_user_id"] as? String == "alice")
                let owned = try #require(alice["subscriptions"] as? [[String: Any]])
                #expect(
                    Set(owned.compactMap { $0["original_transaction_id"] as? String }) == [
                        OperatorFixture.trialID, OperatorFixture.refundedID,
                    ])
                #expect(alice["entitled_groups"] as? [String] == ["20500000"])
                #expect(owned.allSatisfy { $0.keys.contains("expiration_intent") && $0["transactions"] == nil })
                let aliceTable = try await fixture.ctl(["subscriber", "show", "alice"])
                #expect(aliceTable.stdout.contains("SUBSCRIPTION"))
                #expect(aliceTable.stdout.contains("revoked"))

                let nobody = try await fixture.ctl(["subscriber", "show", "nobody"])
                #expect(nobody.status == 1)
                #expect(nobody.stderr == "subscriptionctl: no subscriber with app_user_id nobody\n")
                #expect(nobody.stdout.isEmpty)

                // Every status the pipeline produced, read back through the CLI.
                for customer in OperatorFixture.customers {
                    let id = customer.life().originalTransactionID
                    guard let status = customer.status else {
                        #expect(try await fixture.ctl(["subscription", "show", id]).status == 1, "\(customer.name)")
                        continue
                    }
                    let story = try await fixture.json(["subscription", "show", id])
                    #expect(story["status"] as? String == status, "\(customer.name)")
                    #expect(story["transactions"] is [Any], "\(customer.name)")
                    #expect(story["renewal_info"] is [String: Any], "\(customer.name)")
                    #expect(
                        (story["status_reason"] as? String)?.hasPrefix(status.replacingOccurrences(of: "_", with: " ")) == true,
                        "\(customer.name): \(story["status_reason"] ?? "")")
                }

                let cancelled = try await fixture.json(["subscription", "show", OperatorFixture.cancelledID])
                #expect(cancelled["expiration_intent"] as? String == "customer_cancelled")
                #expect((cancelled["status_reason"] as? String)?.contains("expired: customer cancelled, auto-renew was turned off") == true)
                let transactions = try #require(cancelled["transactions"] as? [[String: Any]])
                #expect(transactions.map { $0["is_trial_period"] as? Bool } == [true, false, false])
                let notifications = try #require(cancelled["notifications"] as? [[String: Any]])
                #expect(
                    notifications.map { $0["notification_type"] as? String } == [
                        "INITIAL_BUY", "DID_RENEW", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS",
                    ])
                #expect(notifications.allSatisfy { $0["state"] as? String == "processed" })
                #expect((cancelled["renewal_info"] as? [String: Any])?["auto_renew_status"] as? Bool == false)
                #expect((cancelled["status_events"] as? [Any])?.isEmpty == false)

                let text = try await fixture.ctl(["subscription", "show", OperatorFixture.cancelledID])
                #expect(text.status == 0)
                for fragment in [
                    "expired: customer cancelled, auto-renew was turned off", "trial", "paid", "DID_CHANGE_RENEWAL_STATUS",
                    "renewal info", "10 days ago", "TRANSACTION",
                ] {
                    #expect(text.stdout.contains(fragment), "missing \(fragment)")
                }
                #expect(!text.stdout.contains("\u{1B}["), "colour codes in a pipe")

                let refunded = try await fixture.ctl(["subscription", "show", OperatorFixture.refundedID])
                #expect(refunded.stdout.contains("revoked: refunded"))
                let upgraded = try await fixture.ctl(["subscription", "show", OperatorFixture.upgradedID])
                #expect(upgraded.stdout.contains("upgraded (period ended early)"))

                let unknown = try await fixture.ctl(["subscription", "show", "999"])
                #expect(unknown.status == 1)
                #expect(unknown.stderr == "subscriptionctl: no subscription with original_transaction_id 999\n")
                let missing = try await fixture.ctl(["subscription", "show"])
                #expect(missing.status == 2)
                #expect(missing.stderr.split(separator: "\n").count == 1)
                #expect(missing.stderr.contains("original-transaction-id"))
            }
        }

        @Test("notifications list filters and orders; show prints the body without a secret and the history")
        func notificationsListAndShow() async throws {
            try await OperatorFixture.with { fixture in
                let all = try #require(
                    try await fixture.json(["notifications", "list", "--limit", "500"])["notifications"] as? [[String: Any]])
                #expect(all.count == fixture.notificationCount)
                let received = all.compactMap { $0["received_at"] as? String }
                #expect(received == received.sorted(by: >), "newest first")

                let dead = try #require(
                    try await fixture.json(["notifications", "list", "--state", "dead"])["notifications"] as? [[String: Any]])
                #expect(
                    Set(dead.compactMap { $0["original_transaction_id"] as? String }) == [
                        OperatorFixture.deadSecretID, OperatorFixture.deadReceiptID,
                    ])
                #expect(dead.allSatisfy { ($0["last_error"] as? String)?.isEmpty == false && $0["next_attempt_at"] is NSNull })
                let retrying = try #require(
                    try await fixture.json(["notifications", "list", "--state", "retrying"])["notifications"] as? [[String: Any]])
                #expect(retrying.count == 1)
                #expect(retrying.first?["next_attempt_at"] is String)
                let renewals = try #require(
                    try await fixture.json(["notifications", "list", "--type", "DID_RENEW"])["notifications"] as? [[String: Any]])
                let expectedRenewals = OperatorFixture.customers.flatMap { $0.life().notifications }.filter {
                    $0["notification_type"] as? String == "DID_RENEW"
                }
                #expect(renewals.count == expectedRenewals.count)
                #expect((try await fixture.json(["notifications", "list", "--limit", "3"])["notifications"] as? [Any])?.count == 3)
                #expect(
                    (try await fixture.json(["notifications", "list", "--since", "2999-01-01"])["notifications"] as? [Any])?.isEmpty == true
                )
                #expect(
                    (try await fixture.json(["notifications", "list", "--since", "2000-01-01T00:00:00Z", "--bundle-id", "com.example.app"])[
                        "notifications"] as? [Any])?.count == min(50, all.count))

                let none = try await fixture.ctl(["notifications", "list", "--bundle-id", "com.other.app"])
                #expect(none.status == 0)
                #expect(none.stdout == "no notifications match\n")
                let table = try await fixture.ctl(["notifications", "list", "--state", "dead"])
                #expect(table.stdout.hasPrefix("ID"))
                #expect(table.stdout.contains("INITIAL_BUY"))
                for bad in [["--state", "finished"], ["--since", "yesterday"], ["--limit", "0"]] {
                    let rejected = try await fixture.ctl(["notifications", "list"] + bad)
                    #expect(rejected.status == 2, "\(bad)")
                    #expect(rejected.stderr.split(separator: "\n").count == 1, "\(bad): \(rejected.stderr)")
                }

                let deadID = try #require(dead.first?["id"] as? Int)
                let shown = try await fixture.json(["notifications", "show", String(deadID)])
                #expect(shown["state"] as? String == "dead")
                let body = try #require(shown["body"] as? [String: Any])
                #expect(body["notification_type"] as? String == "INITIAL_BUY")
                #expect(body["password"] == nil)
                let history = try #require(shown["history"] as? [[String: Any]])
                #expect(history.count == 1)
                #expect(history.first?["outcome"] as? String == "dead")
                let shownText = try await fixture.ctl(["notifications", "show", String(deadID)])
                #expect(shownText.stdout.contains("history"))
                #expect(shownText.stdout.contains("\"notification_type\" : \"INITIAL_BUY\""))
                #expect(!shownText.stdout.contains(RunningService.sharedSecret))

                let unknown = try await fixture.ctl(["notifications", "show", "987654"])
                #expect(unknown.status == 1)
                #expect(unknown.stderr == "subscriptionctl: no notification with id 987654\n")
                #expect(try await fixture.ctl(["notifications", "show", "twelve"]).status == 2)
            }
        }

        @Test("stats counts inbox states, top reasons, statuses and environments; a database that is not there is exit 3")
        func stats() async throws {
            try await OperatorFixture.with { fixture in
                let stats = try await fixture.json(["stats"])
                let inbox = try #require(stats["notifications"] as? [String: Any])
                #expect(
                    inbox["by_state"] as? [String: Int] == [
                        "pending": 0, "retrying": 1, "dead": 2, "processed": fixture.notificationCount - 3,
                    ])
                #expect(inbox["oldest_pending_received_at"] is NSNull)
                let reasons = try #require(inbox["top_reasons"] as? [String: [[String: Any]]])
                #expect(reasons["dead"]?.count == 2)
                #expect(reasons["retrying"]?.count == 1)
                #expect((reasons["retrying"]?.first?["reason"] as? String)?.contains("21005") == true)
                let subscriptions = try #require(stats["subscriptions"] as? [String: Any])
                #expect(
                    subscriptions["by_status"] as? [String: Int] == [
                        "active": 4, "grace_period": 1, "billing_retry": 1, "expired": 2, "revoked": 1,
                    ])
                #expect(subscriptions["by_environment"] as? [String: Int] == ["Production": 8, "Sandbox": 1])
                #expect(subscriptions["total"] as? Int == 9)
                let partitions = try #require(stats["partitions"] as? [[String: Any]])
                #expect(partitions.map { $0["table"] as? String } == ["notifications", "notification_attempts", "webhook_events"])
                for table in partitions {
                    // This month and the two after it, made by the migration; nothing in the default.
                    #expect((table["months"] as? [String])?.count == 3, "\(table)")
                    #expect(table["default_rows"] as? Int == 0)
                }

                let text = try await fixture.ctl(["stats"])
                #expect(text.status == 0)
                for fragment in ["oldest pending: none", "top reasons, dead (2):", "grace_period", "Sandbox", "notification_attempts  3"] {
                    #expect(text.stdout.contains(fragment), "missing \(fragment)")
                }

                let unreachable = try await CLI.run(["stats"], databaseURL: "postgresql://nobody@127.0.0.1:1/none")
                #expect(unreachable.status == 3)
                #expect(unreachable.stderr.hasPrefix("subscriptionctl: database unreachable"))
                #expect(unreachable.stdout.isEmpty)
            }
        }
    }
}
