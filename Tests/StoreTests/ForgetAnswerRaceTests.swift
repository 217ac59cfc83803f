import Foundation
import Postgres
import TestSupport
import Testing

@testable import Store

/// Forgetting a user and a background write of that user's stored answers never overlap: a
/// write that began before the forgetting either finishes first (and its row is then
/// deleted) or waits and writes nothing. Without the lock, a write whose statement started
/// before the forgetting committed put the forgotten user's answer back afterwards.
@Suite("Forgetting a user and a concurrent answer write")
struct ForgetAnswerRaceTests {
    @Test("a write holding the user's answer lock makes the forgetting wait, and its row is deleted by it")
    func forgettingWaitsForTheWrite() async throws {
        try await TestDatabase.withClient { client, _ in
            try await client.execute("INSERT INTO entitlements (entitlement_id) VALUES ('pro')")
            try await client.execute(
                "INSERT INTO entitlement_grants (app_user_id, entitlement_id, reason) VALUES ('user-a', 'pro', 'comp')")
            let holdsLock = DispatchSemaphore(value: 0)
            let mayWrite = DispatchSemaphore(value: 0)
            // A background write of user-a's answers that holds the lock while the forgetting starts.
            let writer = Task {
                try await client.withConnection { session in
                    try session.execute("BEGIN")
                    try session.execute(AnswerStore.answerLocks(["user-a"]).prepared())
                    holdsLock.signal()
                    mayWrite.wait()
                    try session.execute(
                        "INSERT INTO subscriber_answers (app_user_id, answer_version, body) VALUES ('user-a', 1, '{}') ON CONFLICT (app_user_id) DO UPDATE SET body = '{}'"
                    )
                    try session.execute("COMMIT")
                }
            }
            await holdsLock.waitOffThePool()
            let forgetting = Task { try await SubscriberRemoval(client: client).forget(appUserID: "user-a", actor: "test") }
            try await Task.sleep(for: .milliseconds(300))
            let grantsWhileWaiting = try await client.query("SELECT count(*) AS n FROM entitlement_grants WHERE app_user_id = 'user-a'")
            #expect(try grantsWhileWaiting[0].decode("n", as: Int.self) == 1, "the forgetting waits for the write")
            mayWrite.signal()
            try await writer.value
            #expect(try await forgetting.value != nil)
            let rows = try await client.query("SELECT count(*) AS n FROM subscriber_answers WHERE app_user_id = 'user-a'")
            #expect(try rows[0].decode("n", as: Int.self) == 0, "no answer of the forgotten user is left")
        }
    }
}
