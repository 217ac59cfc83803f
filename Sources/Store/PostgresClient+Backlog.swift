import Foundation
import Postgres

extension PostgresClient {
    /// How much work waits and since when: the `n` and `oldest` of a statement that selects
    /// `count(*) AS n, min(…) AS oldest` (0 and nil when nothing waits). Every backlog read
    /// (inbox, outbox, status sweep, entitlement reviews) goes through it.
    func countAndOldest(_ query: PostgresQuery) async throws -> (Int, Date?) {
        let row = try await self.query(query).first
        return (try row?.decode("n", as: Int.self) ?? 0, try row?.decode("oldest", as: Date?.self) ?? nil)
    }
}
