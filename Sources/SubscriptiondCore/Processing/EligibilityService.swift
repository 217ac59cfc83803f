import Foundation
import Postgres
import Store
import Subscriptions

/// Answers "may this customer see the intro offer of these products?" — the same answer
/// for `POST /v1/eligibility` and `subscriptionctl eligibility`.
public struct EligibilityService: Sendable {
    /// At most this many products per question.
    public static let maximumProducts = 100

    private let database: PostgresClient
    private let policy: EligibilityPolicy

    /// Creates the service.
    public init(database: PostgresClient, policy: EligibilityPolicy) {
        self.database = database
        self.policy = policy
    }

    /// Answers for a user known by `app_user_id` (an unknown user is a new customer).
    public func answers(appUserID: String, productIDs: [String], now: Date = Date()) async throws -> [String: EligibilityAnswer] {
        let facts = try await CustomerFacts.load(appUserID: appUserID, productIDs: productIDs, client: database)
        return EligibilityRule.answers(for: productIDs, catalog: facts.catalog, history: facts.history, now: now, policy: policy)
    }

    /// Answers for facts Apple gave just now: a receipt verified with `verifyReceipt`, or a
    /// customer's statuses and transaction history from the App Store Server API.
    public func answers(receipts: [ReceiptFacts], productIDs: [String], now: Date = Date()) async throws -> [String: EligibilityAnswer] {
        let catalog = try await ProductStore(client: database).catalog()
        return EligibilityRule.answers(for: productIDs, catalog: catalog, history: CustomerHistory(receipts: receipts), now: now, policy: policy)
    }
}
