import AppStore
import Foundation
import Postgres
import Store
import TestSupport
import Testing

@Suite("Inbox claims: suspects run alone, poison entries end dead alone, stale attempts cannot overwrite, operators discard")
struct InboxClaimTests {
    private func entry(_ key: String) -> InboxEntry {
        InboxEntry(
            source: .v1, dedupeKey: key, notificationType: "DID_RENEW", environment: .production,
            bundleID: "com.example.app", originalTransactionID: "1", body: #"{"k":"\#(key)"}"#)
    }

    private func state(of id: Int64, _ client: PostgresClient) async throws -> (state: String, error: String?) {
        let row = try #require(try await client.query("SELECT state, last_error FROM notifications WHERE id = \(id)").first)
        return (try row.decode("state"), try row.decode("last_error"))
    }

    @Test("a suspect that stops the worker 3 times while running alone → dead, never claimed again")
    func poisonEndsDead() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            guard case .accepted(let id) = try await inbox.insert(entry("poison")) else {
                Issue.record("not stored")
                return
            }
            // A zero lease: due again at once, as after a crash and an expired lease.
            #expect(try await inbox.claimDue(limit: 10, lease: .zero).map(\.id) == [id])
            // Its claim ended without an outcome: no longer claimed with others, only alone.
            #expect(try await inbox.claimDue(limit: 10, lease: .zero).isEmpty)
            #expect(try await inbox.hasSuspectDue())
            for attempt in 1...3 {
                #expect(try await inbox.claimSuspect(lease: .zero, maxIsolatedDeaths: 3)?.id == id, "isolated claim \(attempt)")
            }
            #expect(try await inbox.claimSuspect(lease: .zero, maxIsolatedDeaths: 3) == nil)
            #expect(try await !inbox.hasSuspectDue())
            let (state, error) = try await state(of: id, client)
            #expect(state == "dead")
            #expect(error?.contains("stopped the worker 3 times while it ran alone") == true)
            let attempts = try await client.query("SELECT outcome FROM notification_attempts WHERE notification_id = \(id)")
            #expect(try attempts.map { try $0.decode("outcome", as: String.self) } == ["abandoned"])
        }
    }

    @Test("neighbours of a poison entry are run alone, processed, and never buried with it")
    func neighboursAreIsolated() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            var ids: [Int64] = []
            for key in ["healthy-1", "poison", "healthy-2"] {
                guard case .accepted(let id) = try await inbox.insert(entry(key)) else {
                    Issue.record("not stored")
                    return
                }
                ids.append(id)
            }
            // Claimed together, and the process dies with all three in flight, five times over.
            for _ in 1...5 {
                try await client.execute("UPDATE notifications SET unfinished_claims = unfinished_claims + 1, attempts = attempts + 1")
            }
            // Each suspect now runs alone: the healthy ones record outcomes, the poison one dies every time.
            var runs: [Int64] = []
            while let suspect = try await inbox.claimSuspect(lease: .zero, maxIsolatedDeaths: 3) {
                runs.append(suspect.id)
                if suspect.id != ids[1] {
                    try await client.withTransaction { session in try NotificationInbox.markProcessed(suspect, in: session) }
                }
                #expect(runs.count < 10, "the loop must end")
                if runs.count >= 10 { break }
            }
            #expect(runs.filter { $0 == ids[1] }.count == 3)
            #expect(try await state(of: ids[0], client).state == "processed")
            #expect(try await state(of: ids[2], client).state == "processed")
            #expect(try await state(of: ids[1], client).state == "dead")
        }
    }

    @Test("poison at the front of the queue is skipped by the claim, which takes the next due entries, and buried alone")
    func poisonAtTheFrontDoesNotStarveTheClaim() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            var ids: [Int64] = []
            for key in ["poison-1", "poison-2", "healthy-1", "healthy-2", "healthy-3"] {
                guard case .accepted(let id) = try await inbox.insert(entry(key)) else {
                    Issue.record("not stored")
                    return
                }
                ids.append(id)
            }
            try await client.execute(
                "UPDATE notifications SET unfinished_claims = 3, isolated_claims = 3 WHERE id IN (\(ids[0]), \(ids[1]))")
            // Due in insertion order: the two poisoned entries come up first.
            try await client.execute("UPDATE notifications SET next_attempt_at = received_at - make_interval(secs => 100 - id)")
            let claimed = try await inbox.claimDue(limit: 2, lease: .seconds(60))
            #expect(claimed.map(\.id) == Array(ids[2...3]))
            #expect(try await inbox.claimSuspect(lease: .seconds(60), maxIsolatedDeaths: 3) == nil)
            for id in ids.prefix(2) { #expect(try await state(of: id, client).state == "dead") }
            #expect(try await state(of: ids[4], client).state == "pending")
            let abandoned = try await client.query(
                "SELECT notification_id FROM notification_attempts WHERE outcome = 'abandoned' ORDER BY 1")
            #expect(try abandoned.map { try $0.decode("notification_id", as: Int64.self) } == Array(ids.prefix(2)))
        }
    }

    @Test("a recorded outcome resets the count: a notification that keeps failing normally is not poison")
    func outcomesResetTheCount() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            guard case .accepted(let id) = try await inbox.insert(entry("flaky")) else {
                Issue.record("not stored")
                return
            }
            for _ in 1...8 {
                let claimed = try #require(try await inbox.claimDue(limit: 1, lease: .zero).first)
                #expect(try await inbox.scheduleRetry(claimed, at: Date(timeIntervalSinceNow: -1), reason: "upstream down"))
            }
            #expect(try await state(of: id, client).state == "retrying")
        }
    }

    @Test("an attempt that outlived its lease cannot overwrite the newer claim's outcome")
    func staleAttemptIsFenced() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            guard case .accepted(let id) = try await inbox.insert(entry("fenced")) else {
                Issue.record("not stored")
                return
            }
            let stale = try #require(try await inbox.claimDue(limit: 1, lease: .zero).first)
            // Its lease ran out with no outcome: the entry is a suspect, claimed again alone.
            let fresh = try #require(try await inbox.claimSuspect(lease: .seconds(60)))
            #expect(stale.attempt == 1 && fresh.attempt == 2)

            #expect(try await inbox.markDead(stale, reason: "stale verdict") == false)
            #expect(try await inbox.scheduleRetry(stale, at: Date(), reason: "stale retry") == false)
            await #expect(throws: StaleClaimError.self) {
                try await client.withTransaction { session in try NotificationInbox.markProcessed(stale, in: session) }
            }
            #expect(try await state(of: id, client).state == "pending")

            try await client.withTransaction { session in try NotificationInbox.markProcessed(fresh, in: session) }
            #expect(try await state(of: id, client).state == "processed")
            #expect(try await inbox.markDead(stale, reason: "late") == false)
            #expect(try await state(of: id, client).state == "processed")
        }
    }

    @Test("a group's outcomes are recorded at once, each with its note; one stale claim among them fails them all, naming it")
    func groupOutcomes() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            for key in ["group-1", "group-2", "group-3"] {
                guard case .accepted = try await inbox.insert(entry(key)) else {
                    Issue.record("not stored")
                    return
                }
            }
            let claimed = try await inbox.claimDue(limit: 3, lease: .seconds(60))
            try #require(claimed.count == 3)
            // The third's claim is superseded: an operator finished it meanwhile.
            #expect(try await inbox.markDead(claimed[2], reason: "discarded meanwhile"))
            let attempts = claimed.enumerated().map { ProcessedAttempt($1, note: "note \($0)") }
            let stale = await #expect(throws: StaleClaimError.self) {
                try await client.withTransaction { session in try NotificationInbox.markProcessed(attempts, in: session) }
            }
            #expect(stale?.notificationID == claimed[2].id && stale?.attempt == claimed[2].attempt)
            #expect(try await state(of: claimed[0].id, client).state == "pending", "rolled back with the stale one")

            try await client.withTransaction { session in try NotificationInbox.markProcessed(Array(attempts.prefix(2)), in: session) }
            for (index, claim) in claimed.prefix(2).enumerated() {
                #expect(try await state(of: claim.id, client).state == "processed")
                let recorded = try await client.query(
                    "SELECT outcome, error FROM notification_attempts WHERE notification_id = \(claim.id) AND attempt = \(claim.attempt)")
                #expect(try recorded.map { try $0.decode("outcome", as: String.self) } == ["processed"])
                #expect(try recorded.map { try $0.decode("error", as: String?.self) } == ["note \(index)"])
            }
            #expect(try await state(of: claimed[2].id, client).state == "dead")
        }
    }

    @Test("discard: dead with the operator's reason and name, all-or-nothing, replay brings it back")
    func discard() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            let queries = InboxQueries(client: client)
            guard case .accepted(let id) = try await inbox.insert(entry("bad")) else {
                Issue.record("not stored")
                return
            }
            let inFlight = try #require(try await inbox.claimDue(limit: 1, lease: .seconds(60)).first)

            #expect(try await queries.discard(ids: [id, 999_999], reason: "x", actor: "ops@host") == .unknown([999_999]))
            #expect(try await state(of: id, client).state == "pending")

            #expect(try await queries.discard(ids: [id], reason: "hand-made test body", actor: "ops@host") == .discarded([id]))
            let (state, error) = try await state(of: id, client)
            #expect(state == "dead")
            #expect(error == "discarded by ops@host: hand-made test body")
            let attempt = try #require(
                try await client.query(
                    """
                    SELECT outcome, actor FROM notification_attempts WHERE notification_id = \(id) ORDER BY attempt DESC LIMIT 1
                    """
                ).first)
            #expect(try attempt.decode("outcome", as: String.self) == "discarded")
            #expect(try attempt.decode("actor", as: String?.self) == "ops@host")
            // The attempt that was in flight cannot undo the discard.
            await #expect(throws: StaleClaimError.self) {
                try await client.withTransaction { session in try NotificationInbox.markProcessed(inFlight, in: session) }
            }
            #expect(try await queries.replay(ids: [id]) == .requeued([id]))
            #expect(try await self.state(of: id, client).state == "pending")
        }
    }
}
