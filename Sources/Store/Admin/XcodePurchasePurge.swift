import AppStore
import Foundation
import Postgres

/// `subscriptionctl purge --environment Xcode`: removes every StoreKit Testing in Xcode
/// purchase (transactions, subscriptions, renewal info, links, status and webhook events), in
/// one transaction. Stored answers follow through the tables' triggers.
public struct XcodePurchasePurge: Sendable {
    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Rows removed per table, in the order removed.
    public struct Removed: Sendable {
        public let rows: [(table: String, count: Int)]
        /// All of them.
        public var total: Int { rows.reduce(0) { $0 + $1.count } }
    }

    /// Removes the Xcode environment's rows (or, with `dryRun`, only counts them).
    public func purge(dryRun: Bool) async throws -> Removed {
        let environment = AppStoreEnvironment.xcode.rawValue
        return try await client.withTransaction { session in
            var rows: [(String, Int)] = []
            let statements: [(String, PostgresQuery, PostgresQuery)] = [
                (
                    "webhook_events", "SELECT count(*) AS n FROM webhook_events WHERE environment = \(environment)",
                    "DELETE FROM webhook_events WHERE environment = \(environment)"
                ),
                (
                    "status_events", "SELECT count(*) AS n FROM status_events WHERE environment = \(environment)",
                    "DELETE FROM status_events WHERE environment = \(environment)"
                ),
                (
                    "subscribers", "SELECT count(*) AS n FROM subscribers WHERE environment = \(environment)",
                    "DELETE FROM subscribers WHERE environment = \(environment)"
                ),
                (
                    "renewal_info", "SELECT count(*) AS n FROM renewal_info WHERE environment = \(environment)",
                    "DELETE FROM renewal_info WHERE environment = \(environment)"
                ),
                (
                    "transactions", "SELECT count(*) AS n FROM transactions WHERE environment = \(environment)",
                    "DELETE FROM transactions WHERE environment = \(environment)"
                ),
                (
                    "subscriptions", "SELECT count(*) AS n FROM subscriptions WHERE environment = \(environment)",
                    "DELETE FROM subscriptions WHERE environment = \(environment)"
                ),
            ]
            for (table, count, delete) in statements {
                if dryRun {
                    rows.append((table, try session.queryFirst(count)?.decode("n") ?? 0))
                } else {
                    rows.append((table, try session.execute(delete)))
                }
            }
            return Removed(rows: rows)
        }
    }
}
