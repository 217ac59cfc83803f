import AppStore
import Foundation
import Postgres
import Subscriptions

/// What offers are signed from (DESIGN.md, "Offers and trust boundaries"): the purchases of
/// the Apple account behind a transaction this server verified for an app user.
public struct AppleAccountRead: Sendable {
    /// The subscriptions of the account and of the user in the app, their status at the time of the read.
    public let subscriptions: [SubscriptionSnapshot]
    /// Every transaction and renewal fact of those purchases.
    public let history: CustomerHistory

    public init(subscriptions: [SubscriptionSnapshot], history: CustomerHistory) {
        self.subscriptions = subscriptions
        self.history = history
    }
}

/// Finds the Apple account a signature may be given for, and reads its purchases.
public struct AppleAccountReader: Sendable {
    private let client: PostgresClient

    /// Creates the reader.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The purchases behind `transactionID` in `bundleID`, when this server verified it for
    /// `appUserID`: the transaction id or original transaction id of a purchase linked to the
    /// user, or the `appTransactionId` of an AppTransaction the user posted. Nil otherwise.
    ///
    /// The account is everything that shares the anchor's original transaction or its
    /// `appTransactionId` (one per Apple account and app); the user's own purchases in the app
    /// are read with it, so an answer never forgets what the user did with another account.
    public func account(
        appUserID: String, transactionID: String, bundleID: String, now: Date = Date()
    ) async throws -> AppleAccountRead? {
        let anchors = try await client.query(
            PostgresQuery(
                """
                SELECT t.environment, t.original_transaction_id, t.app_transaction_id
                FROM subscribers l
                JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
                WHERE l.app_user_id = \(appUserID) AND l.bundle_id = \(bundleID)
                  AND (t.transaction_id = \(transactionID) OR t.original_transaction_id = \(transactionID))
                UNION ALL
                SELECT NULL, NULL, app_transaction_id FROM original_application_versions
                WHERE app_user_id = \(appUserID) AND bundle_id = \(bundleID) AND app_transaction_id = \(transactionID)
                """
            ).prepared())
        guard !anchors.isEmpty else { return nil }
        var environments: [String] = []
        var originalTransactionIDs: [String] = []
        var appTransactionIDs: Set<String> = []
        for row in anchors {
            if let environment = try row.decode("environment", as: String?.self),
                let original = try row.decode("original_transaction_id", as: String?.self)
            {
                environments.append(environment)
                originalTransactionIDs.append(original)
            }
            if let account = try row.decode("app_transaction_id", as: String?.self) { appTransactionIDs.insert(account) }
        }
        let rows = try await client.query(
            Self.accountRead(
                environments: environments, originalTransactionIDs: originalTransactionIDs,
                appTransactionIDs: Array(appTransactionIDs), appUserID: appUserID, bundleID: bundleID))
        let facts = try JoinedFacts(rows: rows)
        return AppleAccountRead(subscriptions: facts.views(at: now).map(\.snapshot), history: facts.history)
    }

    /// The purchases of the Apple account behind the original transaction `id` in
    /// `environment`, named by Apple in a signed request (the App Store's Get Retention Message
    /// request): that purchase and every purchase of its app sharing its `appTransactionId`,
    /// with the app's bundle id. Nil when no transaction of it is stored. One statement.
    public func account(
        environment: AppStoreEnvironment, originalTransactionID id: String, now: Date = Date()
    ) async throws -> (bundleID: String, read: AppleAccountRead)? {
        let rows = try await client.query(
            PostgresQuery(
                """
                WITH anchor AS (
                    SELECT environment, original_transaction_id, bundle_id, app_transaction_id FROM transactions
                    WHERE environment = \(environment.rawValue) AND original_transaction_id = \(id)
                ),
                account AS (
                    SELECT DISTINCT environment, original_transaction_id FROM anchor
                    UNION
                    SELECT t.environment, t.original_transaction_id
                    FROM (SELECT DISTINCT app_transaction_id, bundle_id FROM anchor WHERE app_transaction_id IS NOT NULL) a
                    JOIN transactions t ON t.app_transaction_id = a.app_transaction_id AND t.bundle_id = a.bundle_id
                )
                SELECT \(unescaped: JoinedFacts.columns), \(unescaped: Self.accountFacts)
                """
            ).prepared())
        let facts = try JoinedFacts(rows: rows)
        let history = facts.history
        guard
            let bundleID = history.transactions.first(where: {
                $0.environment == environment && $0.originalTransactionID == id
            })?.bundleID
        else { return nil }
        return (bundleID, AppleAccountRead(subscriptions: facts.views(at: now).map(\.snapshot), history: history))
    }

    /// What follows `SELECT JoinedFacts.columns,` to read the facts of the purchases in a
    /// statement's `account (environment, original_transaction_id)`.
    private static let accountFacts: StaticString = """
        a.environment AS link_environment, a.original_transaction_id AS link_original_transaction_id,
               s.updated_at AS subscription_updated_at, p.subscription_group_id AS catalog_group_id
        FROM account a
        LEFT JOIN transactions t ON t.environment = a.environment AND t.original_transaction_id = a.original_transaction_id
        LEFT JOIN renewal_info r ON r.environment = a.environment AND r.original_transaction_id = a.original_transaction_id
        LEFT JOIN subscriptions s ON s.environment = a.environment AND s.original_transaction_id = a.original_transaction_id
        LEFT JOIN products p ON p.product_id = t.product_id
        ORDER BY a.environment, a.original_transaction_id
        """

    /// The facts of an account: the purchases given by key, those sharing `appTransactionIDs`
    /// in `bundleID`, and the user's own in the app.
    private static func accountRead(
        environments: [String], originalTransactionIDs: [String], appTransactionIDs: [String], appUserID: String, bundleID: String
    ) -> PostgresQuery {
        PostgresQuery(
            """
            WITH account AS (
                SELECT k.environment, k.original_transaction_id
                FROM unnest(\(environments)::text[], \(originalTransactionIDs)::text[]) AS k(environment, original_transaction_id)
                UNION
                SELECT environment, original_transaction_id FROM transactions
                WHERE app_transaction_id = ANY(\(appTransactionIDs)::text[]) AND bundle_id = \(bundleID)
                UNION
                SELECT environment, original_transaction_id FROM subscribers
                WHERE app_user_id = \(appUserID) AND bundle_id = \(bundleID)
            )
            SELECT \(unescaped: JoinedFacts.columns), \(unescaped: Self.accountFacts)
            """
        ).prepared()
    }
}
