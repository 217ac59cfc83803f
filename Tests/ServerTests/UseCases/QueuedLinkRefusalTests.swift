import Access
import Composition
import Foundation
import Logging
import Postgres
import Settings
import Store
import Subscriptions
import Testing

@testable import UseCases

/// A purchase queued for the worker (Apple did not answer in time) whose link the app's
/// policy refuses: Apple's facts are still applied, without the link, and the refusal is
/// noted on the notification instead of failing it again and again.
@Suite("Use case: a queued purchase whose link is refused")
struct QueuedLinkRefusalTests {
    @Test("under link_policy refuse, B's queued receipt for A's subscription is processed without linking B, with a note")
    func refusedInTheWorker() async throws {
        try await UseCaseHarness.with { base in
            let harness = base.with(
                apps: AppRegistry([
                    AppCredentials(
                        bundleID: UseCaseHarness.bundleID, sharedSecret: Secret(RunningService.sharedSecret), linkPolicy: .refuse)
                ]))
            harness.verify.answerOneActivePeriodPerReceipt()
            let submission = try ReceiptSubmission(
                receiptData: UseCaseHarness.receipt("4300000000000001"), bundleID: nil, apps: harness.apps)
            guard
                case .applied = try await harness.purchases().record(
                    receipt: submission, appUserID: "user-a", visibleTo: .all, logger: harness.logger)
            else {
                Issue.record("A's receipt was not applied")
                return
            }
            // B's submission waits for Apple too briefly: queued.
            harness.verify.inject([.hang(.seconds(2))])
            guard
                case .queued = try await harness.purchases(wait: .milliseconds(200)).record(
                    receipt: submission, appUserID: "user-b", visibleTo: .all, logger: harness.logger)
            else {
                Issue.record("B's receipt was not queued")
                return
            }
            let processor = NotificationProcessor(
                database: harness.database, evidence: harness.evidence, apps: harness.apps, retryPolicy: RetryPolicy())
            let inbox = NotificationInbox(client: harness.database)
            let claimed = try await inbox.claimDue(limit: 10, lease: .seconds(60))
            #expect(claimed.count == 1)
            for notification in claimed {
                let outcome = try await processor.process(notification, logger: harness.logger)
                guard case .processed = outcome else {
                    Issue.record("expected processed, got \(outcome)")
                    continue
                }
            }
            let row = try #require(
                try await harness.database.query(
                    """
                    SELECT n.state, a.error AS note FROM notifications n JOIN notification_attempts a ON a.notification_id = n.id
                    """
                ).first)
            #expect(try row.decode("state", as: String.self) == "processed")
            #expect(try row.decode("note", as: String?.self)?.contains("not linked to its app user") == true, "the attempt's note says why")
            let links = try await harness.database.query("SELECT app_user_id FROM subscribers").map {
                try $0.decode("app_user_id", as: String.self)
            }
            #expect(links == ["user-a"], "A keeps it; B was never linked")
        }
    }
}
