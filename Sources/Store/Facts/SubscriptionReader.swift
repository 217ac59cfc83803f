import AppStore
import Foundation
import Postgres
import Subscriptions

/// One subscription as read: its status computed from the stored facts at read time.
public struct SubscriptionView: Sendable {
    /// Status and fields at the time of the read.
    public let snapshot: SubscriptionSnapshot
    /// When the stored row last changed.
    public let updatedAt: Date
    /// Every transaction of the subscription, oldest first.
    public let transactions: [TransactionFact]
    /// The newest renewal info, if any.
    public let renewal: RenewalFact?
}

/// A subscription as read, with what storing it as an answer needs.
public struct SubscriptionRead: Sendable {
    /// The subscription.
    public let view: SubscriptionView
    /// When the status may change with time alone; nil when it cannot.
    public let validUntil: Date?
}

/// A subscriber as read, with what eligibility, entitlements and storing them as an answer need.
public struct SubscriberRead: Sendable {
    /// The user's subscriptions.
    public let views: [SubscriptionView]
    /// Everything that can grant the user an entitlement: the subscriptions' snapshots,
    /// one-time purchases, original application versions and manual grants.
    public let holdings: CustomerHoldings
    /// Every transaction and renewal fact of the user's purchases, every environment.
    public let history: CustomerHistory
    /// The catalog's group per product of the history, for products the catalog lists with a group.
    public let catalogGroups: [String: String]
    /// When a status may change with time alone; nil when none can.
    public let validUntil: Date?
    /// False when the views hold the time of the read itself, which a stored answer would freeze.
    public let isStorable: Bool
    /// How many Apple accounts at least fed the user's purchases (``AppleAccounts``).
    public var appleAccounts = 0

    /// A user nothing is known of.
    public static let unknown = SubscriberRead(
        views: [], holdings: CustomerHoldings(), history: .empty, catalogGroups: [:], validUntil: nil, isStorable: false)

    /// What a principal that sees only `bundleIDs` is shown of the user: those apps'
    /// subscriptions, one-time purchases and original application versions, and the manual
    /// grants (which belong to the user, not to an app).
    public func restricted(to bundleIDs: Set<String>) -> SubscriberRead {
        var read = SubscriberRead(
            views: views.filter { bundleIDs.contains($0.snapshot.bundleID) },
            holdings: CustomerHoldings(
                subscriptions: holdings.subscriptions.filter { bundleIDs.contains($0.bundleID) },
                oneTimePurchases: holdings.oneTimePurchases.filter { bundleIDs.contains($0.bundleID) },
                versions: holdings.versions.filter { bundleIDs.contains($0.bundleID) }, grants: holdings.grants),
            history: history, catalogGroups: catalogGroups, validUntil: validUntil, isStorable: false)
        read.appleAccounts = appleAccounts
        return read
    }

    /// True when it holds nothing: no subscription, purchase, original version or grant.
    public var isEmpty: Bool {
        views.isEmpty && holdings.oneTimePurchases.isEmpty && holdings.versions.isEmpty && holdings.grants.isEmpty
    }

    /// The user's history summarised per subscription group at `now`, counting only the
    /// environments that grant in each app under `policies`.
    public func usage(under policies: EntitlementPolicies, at now: Date) -> GroupUsage {
        GroupUsage(history: history.counting(under: policies), catalogGroup: { catalogGroups[$0] }, now: now)
    }
}

/// Reads subscriptions and subscribers. Status is recomputed at `now` from stored facts,
/// so a read never says `active` after `expires_at` even if nothing was processed since.
public struct SubscriptionReader: Sendable {
    private let client: PostgresClient

    /// Creates the reader.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The subscription of an original transaction (Production preferred over Sandbox), or nil.
    public func subscription(originalTransactionID id: String, now: Date = Date()) async throws -> SubscriptionView? {
        try await subscriptionRead(originalTransactionID: id, now: now)?.view
    }

    /// The subscription of an original transaction, with what storing it as an answer needs.
    public func subscriptionRead(originalTransactionID id: String, now: Date = Date()) async throws -> SubscriptionRead? {
        try await subscriptionReads(originalTransactionIDs: [id], now: now)[id]
    }

    /// The subscriptions of several original transaction ids, by id; ids without a
    /// subscription with periods are left out.
    ///
    /// One statement: each id's row picks the environment (Production before Sandbox), its
    /// transactions, renewal info and the catalog's group of their products come joined to it.
    public func subscriptionReads(originalTransactionIDs ids: [String], now: Date = Date()) async throws -> [String: SubscriptionRead] {
        // `equalsOneOf`: one key keeps the connection's cached plan; the rebuild's lists are
        // planned for their keys on every call.
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT \(unescaped: JoinedFacts.columns),
                       s.environment AS link_environment, s.original_transaction_id AS link_original_transaction_id,
                       s.updated_at AS subscription_updated_at, p.subscription_group_id AS catalog_group_id
                FROM (SELECT DISTINCT ON (original_transaction_id) environment, original_transaction_id, updated_at
                      FROM subscriptions WHERE original_transaction_id \(equalsOneOf: ids)
                      ORDER BY original_transaction_id, environment) s
                LEFT JOIN transactions t ON t.environment = s.environment AND t.original_transaction_id = s.original_transaction_id
                LEFT JOIN renewal_info r ON r.environment = s.environment AND r.original_transaction_id = s.original_transaction_id
                LEFT JOIN products p ON p.product_id = t.product_id
                ORDER BY s.original_transaction_id
                """
            ).prepared())
        var reads: [String: SubscriptionRead] = [:]
        for group in try Self.split(rows, by: "link_original_transaction_id") {
            guard let view = try JoinedFacts(rows: group.rows).views(at: now).first else { continue }
            reads[group.key] = SubscriptionRead(
                view: view,
                validUntil: SubscriptionStatusRule.nextChange(
                    after: now, transactions: view.transactions, renewals: view.renewal.map { [$0] } ?? [])
            )
        }
        return reads
    }

    /// Every subscription linked to an app user, or nil when the user is unknown.
    public func subscriber(appUserID: String, now: Date = Date()) async throws -> [SubscriptionView]? {
        try await subscriberRead(appUserID: appUserID, now: now)?.views
    }

    /// Every subscription linked to an app user with what eligibility needs of the user's
    /// history and what storing both as an answer needs, or nil when the user is unknown.
    public func subscriberRead(appUserID: String, now: Date = Date()) async throws -> SubscriberRead? {
        try await subscriberReads(appUserIDs: [appUserID], now: now)[appUserID]
    }

    /// The reads of several app users, by user; unknown users (no link, grant or recorded
    /// original application version) are left out.
    ///
    /// Two statements: the users' links, each with its transactions, renewal info,
    /// `subscriptions.updated_at` and the catalog's group of the transactions' products,
    /// ordered by user, environment and original transaction id; then their grants and
    /// original application versions.
    public func subscriberReads(appUserIDs: [String], now: Date = Date()) async throws -> [String: SubscriberRead] {
        let rows = try await client.query(Self.linkedFacts(appUserIDs: appUserIDs))
        let extras = try Self.userExtras(try await client.query(Self.userExtras(appUserIDs: appUserIDs)))
        return try Self.subscriberReads(rows, extras: extras, now: now)
    }

    /// The same reads inside the caller's transaction (the entitlement review's).
    static func subscriberReads(appUserIDs: [String], now: Date, in session: PostgresSession) throws -> [String: SubscriberRead] {
        let rows = try session.query(linkedFacts(appUserIDs: appUserIDs))
        let extras = try userExtras(try session.query(userExtras(appUserIDs: appUserIDs)))
        return try subscriberReads(rows, extras: extras, now: now)
    }

    /// The users' links, each with its facts, ordered by user, environment and original transaction id.
    private static func linkedFacts(appUserIDs: [String]) -> PostgresQuery {
        PostgresQuery(
            """
            SELECT \(unescaped: JoinedFacts.columns), l.app_user_id AS link_app_user_id,
                   l.environment AS link_environment, l.original_transaction_id AS link_original_transaction_id,
                   s.updated_at AS subscription_updated_at, p.subscription_group_id AS catalog_group_id
            FROM subscribers l
            LEFT JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
            LEFT JOIN renewal_info r ON r.environment = l.environment AND r.original_transaction_id = l.original_transaction_id
            LEFT JOIN subscriptions s ON s.environment = l.environment AND s.original_transaction_id = l.original_transaction_id
            LEFT JOIN products p ON p.product_id = t.product_id
            WHERE l.app_user_id \(equalsOneOf: appUserIDs)
            ORDER BY l.app_user_id, l.environment, l.original_transaction_id
            """
        ).prepared()
    }

    /// The reads of the users of `rows` (``linkedFacts(appUserIDs:)``) and `extras`.
    private static func subscriberReads(_ rows: [PostgresRow], extras: [String: UserExtras], now: Date) throws -> [String: SubscriberRead] {
        var reads: [String: SubscriberRead] = [:]
        for group in try Self.split(rows, by: "link_app_user_id") {
            let facts = try JoinedFacts(rows: group.rows)
            let history = facts.history
            let views = facts.views(at: now)
            let extra = extras[group.key] ?? UserExtras()
            reads[group.key] = SubscriberRead(
                views: views,
                holdings: CustomerHoldings(
                    subscriptions: views.map(\.snapshot), oneTimePurchases: history.transactions, versions: extra.versions,
                    grants: extra.grants),
                history: history, catalogGroups: facts.catalogGroups,
                validUntil: SubscriptionStatusRule.nextChange(after: now, transactions: history.transactions, renewals: history.renewals),
                // A link whose `subscriptions` row is missing reads `updated_at` as the time of the read.
                isStorable: facts.haveStoredUpdatedAt(views),
                appleAccounts: AppleAccounts.count(
                    AppleAccounts.purchases(of: history.transactions) {
                        facts.catalogGroups[$0.productID] ?? $0.subscriptionGroupID
                    })
            )
        }
        for (user, extra) in extras where reads[user] == nil {
            reads[user] = SubscriberRead(
                views: [], holdings: CustomerHoldings(versions: extra.versions, grants: extra.grants),
                history: .empty, catalogGroups: [:], validUntil: nil, isStorable: true)
        }
        return reads
    }

    /// What a user holds besides links: manual grants (revoked ones too) and original
    /// application versions.
    struct UserExtras {
        var grants: [ManualGrant] = []
        var versions: [OriginalApplicationVersion] = []
    }

    /// The grants and versions of several users, in one statement.
    private static func userExtras(appUserIDs: [String]) -> PostgresQuery {
        PostgresQuery(
            """
            SELECT 'grant' AS kind, app_user_id, id, entitlement_id, expires_at, reason, created_at, revoked_at,
                   NULL::text AS bundle_id, NULL::text AS environment, NULL::text AS version
            FROM entitlement_grants WHERE app_user_id \(equalsOneOf: appUserIDs)
            UNION ALL
            SELECT 'version', app_user_id, NULL, NULL, NULL, NULL, NULL, NULL, bundle_id, environment, version
            FROM original_application_versions WHERE app_user_id \(equalsOneOf: appUserIDs)
            """
        ).prepared()
    }

    /// The grants and versions of `rows` (``userExtras(appUserIDs:)``), by user.
    private static func userExtras(_ rows: [PostgresRow]) throws -> [String: UserExtras] {
        var extras: [String: UserExtras] = [:]
        for row in rows {
            let user: String = try row.decode("app_user_id")
            if try row.decode("kind", as: String.self) == "grant" {
                extras[user, default: UserExtras()].grants.append(try ManualGrant(row: row))
            } else {
                extras[user, default: UserExtras()].versions.append(
                    OriginalApplicationVersion(
                        bundleID: try row.decode("bundle_id"), environment: try AppStoreEnvironment(row: row),
                        version: try row.decode("version")))
            }
        }
        return extras
    }

    /// Rows grouped by the value of `column`, each group in row order.
    private static func split(_ rows: [PostgresRow], by column: String) throws -> [(key: String, rows: [PostgresRow])] {
        var groups: [String: [PostgresRow]] = [:]
        var order: [String] = []
        for row in rows {
            let key: String = try row.decode(column)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// Builds views for several subscriptions of one environment with four indexed queries.
    static func views(environment: AppStoreEnvironment, ids: [String], now: Date, in session: PostgresSession) throws -> [SubscriptionView]
    {
        let facts = try StoredPurchases.load(environment: environment, originalTransactionIDs: ids, in: session)
        var updatedAt: [String: Date] = [:]
        for row in try session.query(
            PostgresQuery(
                """
                SELECT original_transaction_id, updated_at FROM subscriptions
                WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
                """))
        {  // not prepared: planned for its keys (see `FactStore.apply`)
            updatedAt[try row.decode("original_transaction_id")] = try row.decode("updated_at")
        }
        let productIDs = Array(Set(facts.transactions.values.flatMap { $0.map(\.productID) }))
        var catalogGroups: [String: String] = [:]
        for row in try session.query(
            PostgresQuery(
                """
                SELECT product_id, subscription_group_id FROM products
                WHERE product_id = ANY(\(productIDs)::text[]) AND subscription_group_id IS NOT NULL
                """
            ).prepared())
        {
            catalogGroups[try row.decode("product_id")] = try row.decode("subscription_group_id")
        }
        return ids.compactMap { id in
            let transactions = TransactionFact.coalesced(facts.transactions[id] ?? [])
            guard
                var snapshot = SubscriptionStatusRule.snapshot(
                    originalTransactionID: id, transactions: transactions, renewal: facts.renewals[id], at: now
                )
            else { return nil }
            // The catalog's group wins; products it does not list keep the receipt's group.
            snapshot.subscriptionGroupID = catalogGroups[snapshot.productID] ?? snapshot.subscriptionGroupID
            return SubscriptionView(
                snapshot: snapshot, updatedAt: updatedAt[id] ?? now, transactions: transactions, renewal: facts.renewals[id])
        }
    }
}
