import Foundation
import HTTPClient
import Postgres
import Server
import Testing
import UseCases

@Suite("Several subscriptiond processes share one inbox")
struct SharedInboxTests {
    static let notifications = 300

    @Test("two instances take notifications and process each exactly once")
    func twoInstances() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        try await RunningService.with(verifyServer: verify) { first in
            let second = try await RunningService.Instance.start(
                environment: first.environment, retryPolicy: RetryPolicy(baseDelay: .milliseconds(50)), runsWorker: true)
            let urls = [first.baseURL, "http://127.0.0.1:\(second.port)"]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<8 {
                    group.addTask {
                        for index in stride(from: lane, to: Self.notifications, by: 8) {
                            let body = NotificationBodies.renewal(originalTransactionID: String(8_100_000_000_000_000 + index))
                            // As Apple does, a 503 (intake overloaded on a starved machine) is sent again.
                            var response = try await first.http.execute(
                                .postJSON(
                                    url: urls[index % 2] + "/notifications/appstore", body: body, timeout: .seconds(10)))
                            for attempt in 1...5 where response.status == 503 {
                                try await Task.sleep(for: .milliseconds(200 * attempt))
                                response = try await first.http.execute(
                                    .postJSON(
                                        url: urls[index % 2] + "/notifications/appstore", body: body, timeout: .seconds(10)))
                            }
                            #expect(response.status == 200)
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await first.waitUntilSettled()
            try await second.stop()
            #expect(try await first.stateCounts() == ["processed": Self.notifications])
            // Every notification was processed by exactly one claim: SKIP LOCKED never handed one
            // to both, and fencing keeps a claim whose lease ran out from finishing it too. (On a
            // starved machine an upstream timeout may add a `retry` attempt before that.)
            let processedRows = try await first.database.query(
                """
                SELECT count(*) AS n FROM notification_attempts WHERE outcome = 'processed'
                """)[0].decode("n", as: Int.self)
            #expect(processedRows == Self.notifications)
            let otherOutcomes = try await first.database.query(
                """
                SELECT count(*) AS n FROM notification_attempts WHERE outcome NOT IN ('processed', 'retry')
                """)[0].decode("n", as: Int.self)
            #expect(otherOutcomes == 0)
            let active = try await first.database.query("SELECT count(*) AS n FROM subscriptions WHERE status = 'active'")[0].decode(
                "n", as: Int.self)
            #expect(active == Self.notifications)
        }
    }
}
