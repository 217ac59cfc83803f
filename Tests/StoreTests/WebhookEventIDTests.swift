import Foundation
import Postgres
import Store
import TestSupport
import Testing

/// Event ids are derived from the change, so the same facts applied in another database (a
/// restore from backup, then Apple's notifications replayed) write the same events under the
/// same ids, and a receiver deduplicating by id sees each change once; a change that comes
/// back (renewal off, on, off again) is still a new event.
@Suite("Webhook event ids: the same story writes the same ids anywhere, a change that comes back gets a new one")
struct WebhookEventIDTests {
    typealias Story = LifecycleEventsTests

    /// Renewal off, on, off again (the second "off" says exactly what the first said), a
    /// renewal with renewal on, then off and expired.
    static let steps: [(state: Story.State, at: TimeInterval)] = [
        (Story.State(periods: [Story.first]), 0),
        (Story.State(periods: [Story.first], autoRenew: false), 1),
        (Story.State(periods: [Story.first]), 2),
        (Story.State(periods: [Story.first], autoRenew: false), 3),
        (Story.State(periods: [Story.first, Story.second]), 29.5),
        (Story.State(periods: [Story.first, Story.second], autoRenew: false, intent: 1), 60),
    ]

    /// Applies `steps` from the first in a new database; the events written, oldest first.
    private func events(of steps: ArraySlice<(state: Story.State, at: TimeInterval)>) async throws -> [(type: String, id: String)] {
        try await TestDatabase.withClient { client, _ in
            for step in steps {
                let now = Story.t0.addingTimeInterval(step.at * Story.day)
                let facts = try step.state.v1(observedAt: now)
                try await client.withTransaction { session in
                    try FactStore.applyForTests(facts, receiptObservedAt: now, notificationID: nil, now: now, in: session)
                }
            }
            return try await client.query("SELECT type, event_id FROM webhook_events ORDER BY id").map {
                (try $0.decode("type", as: String.self), try $0.decode("event_id", as: String.self))
            }
        }
    }

    @Test("two databases that apply the same facts write the same ids; the repeated change gets its own")
    func sameStorySameIDs() async throws {
        let first = try await events(of: Self.steps[...])
        let second = try await events(of: Self.steps[...])
        #expect(
            first.map(\.type) == [
                "subscription_created", "auto_renew_disabled", "auto_renew_enabled", "auto_renew_disabled", "renewed",
                "auto_renew_enabled", "auto_renew_disabled", "expired",
            ])
        #expect(first.map(\.id) == second.map(\.id))
        #expect(Set(first.map(\.id)).count == first.count, "every event has its own id: \(first.map(\.id))")
        #expect(first.allSatisfy { $0.id.wholeMatch(of: /evt_[0-9a-f]{32}/) != nil }, "\(first.map(\.id))")
    }

    @Test("a database that missed the last changes writes them under the ids the other one gave them")
    func replayedAfterARestore() async throws {
        let whole = try await events(of: Self.steps[...])
        let restoredThenReplayed = try await events(of: Self.steps[..<3] + Self.steps[...])
        #expect(restoredThenReplayed.map(\.id) == whole.map(\.id))
    }
}
