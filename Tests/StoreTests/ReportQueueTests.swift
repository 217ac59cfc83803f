import AppStore
import Foundation
import Postgres
import TestSupport
import Testing

@testable import Store

/// The reports' queue between applying facts and the rollup job: applying never waits for a
/// count, and a chain queued again while the job counts it stays queued, to be counted again.
@Suite("The report rollup queue")
struct ReportQueueTests {
    @Test("queueing a chain while the job counts it does not wait for the count, and leaves the chain queued")
    func queueingDoesNotWaitForTheCount() async throws {
        try await withTwoQueuedChains { client in
            let read = DispatchSemaphore(value: 0)
            let queuedAgain = DispatchSemaphore(value: 0)
            let job = Task {
                try await ReportRollupStore(client: client).withCounter(wait: false) { counter in
                    let batch = try counter.queued(limit: 10)
                    read.signal()
                    // Applying facts to chain-1 queues it again, and commits, while the batch is counted.
                    let answered = queuedAgain.wait(timeout: .now() + 10) == .success
                    try counter.dequeue(batch)
                    return (batch.map(\.key.originalTransactionID), answered)
                }
            }
            await read.waitOffThePool()
            let started = ContinuousClock.now
            try await client.withTransaction { session in
                try session.execute("SET LOCAL lock_timeout = '5s'")
                try ReportRollupStore.queue(environment: .production, ids: ["chain-1"], in: session)
            }
            let waited = ContinuousClock.now - started
            queuedAgain.signal()
            let outcome = try #require(try await job.value)
            #expect(outcome.0 == ["chain-1", "chain-2"])
            #expect(outcome.1, "the job saw the chain queued again while it counted")
            #expect(waited < .seconds(2), "queueing waited \(waited) for the count")
            #expect(try await queuedChains(client) == ["chain-1"], "the chain queued again stays queued; the other is taken off")
        }
    }

    @Test("a chain whose queueing has not committed is skipped by the job's dequeue, and taken by a later batch")
    func uncommittedQueueingIsSkipped() async throws {
        try await withTwoQueuedChains { client in
            let holding = DispatchSemaphore(value: 0)
            let mayCommit = DispatchSemaphore(value: 0)
            // Applying facts to chain-1: its queue row is held until the transaction commits.
            let applying = Task {
                try await client.withTransaction { session in
                    try ReportRollupStore.queue(environment: .production, ids: ["chain-1"], in: session)
                    holding.signal()
                    _ = mayCommit.wait(timeout: .now() + 10)
                }
            }
            await holding.waitOffThePool()
            let started = ContinuousClock.now
            let counted = try await ReportRollupStore(client: client).withCounter(wait: false) { counter in
                let batch = try counter.queued(limit: 10)
                try counter.dequeue(batch)
                return batch.count
            }
            let waited = ContinuousClock.now - started
            mayCommit.signal()
            try await applying.value
            #expect(counted == 2)
            #expect(waited < .seconds(2), "the job waited \(waited) for the applying transaction")
            #expect(try await queuedChains(client) == ["chain-1"])
            let later = try await ReportRollupStore(client: client).withCounter(wait: false) { counter in
                let batch = try counter.queued(limit: 10)
                try counter.dequeue(batch)
                return batch.map(\.key.originalTransactionID)
            }
            #expect(later == ["chain-1"])
            #expect(try await queuedChains(client) == [])
        }
    }

    /// Runs `body` on a new database where chain-1 and chain-2 are queued and committed.
    private func withTwoQueuedChains(_ body: (PostgresClient) async throws -> Void) async throws {
        try await TestDatabase.withClient { client, _ in
            try await client.withTransaction { session in
                try ReportRollupStore.queue(environment: .production, ids: ["chain-1", "chain-2"], in: session)
            }
            try await body(client)
        }
    }

    private func queuedChains(_ client: PostgresClient) async throws -> [String] {
        try await client.query("SELECT original_transaction_id FROM report_changes ORDER BY 1").map {
            try $0.decode("original_transaction_id")
        }
    }

}
