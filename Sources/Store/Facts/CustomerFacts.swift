import AppStore
import Foundation
import Postgres
import Subscriptions

/// Everything stored about one app user, for eligibility: with a bounded number of indexed
/// queries (links, then transactions and renewal info per environment, then the catalog).
public struct CustomerFacts: Sendable {
    /// Every transaction and renewal fact of the user's linked subscriptions.
    public let history: CustomerHistory
    /// The product catalog.
    public let catalog: ProductCatalog
    /// False when the user has no linked subscription (a new customer).
    public let isKnown: Bool

    /// Loads a user's facts and the catalog in one session.
    public static func load(appUserID: String, client: PostgresClient) async throws -> CustomerFacts {
        try await client.withConnection { session in
            let links = try session.query("""
                SELECT environment, original_transaction_id FROM subscribers WHERE app_user_id = \(appUserID)
                """)
            var byEnvironment: [AppStoreEnvironment: [String]] = [:]
            for link in links {
                byEnvironment[try AppStoreEnvironment(row: link), default: []].append(try link.decode("original_transaction_id"))
            }
            var transactions: [TransactionFact] = []
            var renewals: [RenewalFact] = []
            for (environment, ids) in byEnvironment {
                let facts = try StoredFacts.load(environment: environment, originalTransactionIDs: ids, in: session)
                transactions += facts.transactions.values.flatMap { $0 }
                renewals += facts.renewals.values
            }
            return CustomerFacts(
                history: CustomerHistory(transactions: transactions, renewals: renewals),
                catalog: try ProductStore.catalog(in: session),
                isKnown: !links.isEmpty
            )
        }
    }
}
