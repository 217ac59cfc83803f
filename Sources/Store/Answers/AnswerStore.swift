import Foundation
import Postgres
import Subscriptions

/// The stored answers of the read endpoints (Schema/0007_read_answers.sql,
/// docs/read-answers.md): one primary-key lookup when an answer is current, and a cheap
/// write when one was computed.
public struct AnswerStore: Sendable {
    /// How long storing answers may wait for a lock.
    public enum LockWait: Sendable {
        /// 100 ms: a read that stores its answer does not wait behind a notification being
        /// applied to the same user (whose transaction holds the row).
        case brief
        /// The connection's `lock_timeout`: a rebuild waits its turn.
        case configured
    }

    let client: PostgresClient
    /// The format of the answers it serves and stores.
    public let format: Int32
    private let catalogs = CatalogByGeneration()

    /// Creates the store for answers in `format` (the reader's: answers of another format
    /// are neither served nor kept by its writes).
    public init(client: PostgresClient, format: Int32) {
        self.client = client
        self.format = format
    }

    /// The product catalog of `generation` (a stamp's): kept in memory, read again only after
    /// a catalog change.
    public func catalog(generation: Int64) async throws -> ProductCatalog {
        try await catalogs.catalog(generation: generation, client: client)
    }

    /// The catalog generation now.
    public func currentCatalogGeneration() async throws -> Int64 {
        guard let row = try await client.query(PostgresQuery("SELECT generation FROM answer_catalog_generation").prepared()).first else {
            throw StoreError("answer_catalog_generation has no row")
        }
        return try row.decode("generation")
    }

    /// The stored `GET /v1/subscriptions/{id}` body if it is current at `now`, else the stamp
    /// to store a newly computed one with.
    public func subscriptionLookup(originalTransactionID id: String, now: Date) async throws -> AnswerLookup {
        try await lookup(in: "subscription_answers", keyColumn: "original_transaction_id", key: id, now: now)
    }

    /// The stored `GET /v1/subscribers/{id}` body if it is current at `now`, else the stamp to
    /// store a newly computed one with.
    public func subscriberLookup(appUserID: String, now: Date) async throws -> AnswerLookup {
        try await lookup(in: "subscriber_answers", keyColumn: "app_user_id", key: appUserID, now: now)
    }

    /// The stored `GET /v1/subscribers/{id}/entitlements` body if it is current at `now`, else
    /// the stamp to store a newly computed subscriber answer (which carries it) with.
    public func entitlementsLookup(appUserID: String, now: Date) async throws -> AnswerLookup {
        try await lookup(in: "subscriber_answers", keyColumn: "app_user_id", key: appUserID, bodyColumn: "entitlements_body", now: now)
    }

    /// The row `keyColumn = key` of `table`: its body if it is current at `now` (computed from
    /// the row's current version, under the current catalog, in this format, and before its
    /// first period or grace end), else the row's version and the catalog generation.
    private func lookup(
        in table: StaticString, keyColumn: StaticString, key: String, bodyColumn: StaticString = "body", now: Date
    ) async throws -> AnswerLookup {
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT a.version AS answer_version, g.generation AS answer_catalog_generation,
                       CASE WHEN a.answer_version = a.version AND a.catalog_generation = g.generation
                                 AND a.format = \(format)::integer AND (a.valid_until IS NULL OR a.valid_until > \(now)::timestamptz)
                            THEN a.\(unescaped: bodyColumn) END AS body
                FROM answer_catalog_generation g
                LEFT JOIN \(unescaped: table) a ON a.\(unescaped: keyColumn) = \(key)
                """
            ).prepared())
        guard let row = rows.first else { throw StoreError("answer_catalog_generation has no row") }
        if let body: String = try row.decode("body") { return .current(body) }
        return .stale(try AnswerStamp(row: row))
    }

    /// The product catalog, and what is known of the user: the stored group usage if it
    /// is current at `now`, else whether the user has any linked subscription (and if so, the
    /// stamp to store a newly computed answer with).
    ///
    /// One statement with no product rows: the catalog is the one kept in memory for the
    /// generation that statement saw (read again only after a catalog change).
    public func eligibilityFacts(appUserID: String, now: Date) async throws -> StoredEligibility {
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT a.version AS answer_version, g.generation AS answer_catalog_generation,
                       coalesce(a.answer_version = a.version AND a.catalog_generation = g.generation
                                AND a.format = \(format)::integer AND (a.valid_until IS NULL OR a.valid_until > \(now)::timestamptz),
                                false) AS is_current,
                       a.offer_used_groups, a.purchased_groups, a.entitled_groups,
                       (a.app_user_id IS NOT NULL OR EXISTS (SELECT 1 FROM subscribers WHERE app_user_id = \(appUserID))) AS is_known
                FROM answer_catalog_generation g
                LEFT JOIN subscriber_answers a ON a.app_user_id = \(appUserID)
                """
            ).prepared())
        guard let row = rows.first else { throw StoreError("answer_catalog_generation has no row") }
        let catalog = try await catalogs.catalog(generation: try row.decode("answer_catalog_generation"), client: client)
        guard try row.decode("is_known", as: Bool.self) else { return .newCustomer(catalog) }
        guard try row.decode("is_current", as: Bool.self), try row.text("offer_used_groups") != nil else {
            return .notStored(catalog, try AnswerStamp(row: row))
        }
        func keys(_ column: String) throws -> Set<GroupUsage.Key> {
            let texts: [String] = try row.decode(column)
            return Set(
                try texts.map { text in
                    guard let key = GroupUsage.Key(text: text) else {
                        throw StoreError("malformed group key in subscriber_answers.\(column)")
                    }
                    return key
                })
        }
        let usage = GroupUsage(
            offerUsed: try keys("offer_used_groups"), purchased: try keys("purchased_groups"), entitled: try keys("entitled_groups"))
        return .stored(usage, catalog)
    }

    /// Stores `GET /v1/subscriptions/{id}` bodies, in one statement.
    public func store(_ answers: [SubscriptionAnswer], lockWait: LockWait = .brief) async throws {
        let answers = Self.lastPerKey(answers, key: \.originalTransactionID)
        guard !answers.isEmpty else { return }
        try await store(
            PostgresQuery(
                """
                INSERT INTO subscription_answers AS a (original_transaction_id, answer_version, catalog_generation, format, valid_until, body)
                SELECT id, answer_version, catalog_generation, \(format)::integer, valid_until, body
                FROM unnest(\(PostgresTextArray(answers.map(\.originalTransactionID)))::text[],
                    \(PostgresTextArray(encoding: answers.map(\.stamp.version)))::bigint[],
                    \(PostgresTextArray(encoding: answers.map(\.stamp.catalogGeneration)))::bigint[],
                    \(PostgresTextArray(encoding: answers.map(\.validUntil)))::timestamptz[],
                    \(PostgresTextArray(answers.map(\.body)))::text[])
                    AS u(id, answer_version, catalog_generation, valid_until, body)
                ON CONFLICT (original_transaction_id) DO UPDATE SET
                    answer_version = EXCLUDED.answer_version, catalog_generation = EXCLUDED.catalog_generation,
                    format = EXCLUDED.format, valid_until = EXCLUDED.valid_until, body = EXCLUDED.body
                -- An answer computed from older facts (a read replica behind the primary) never replaces a newer one.
                WHERE a.answer_version IS NULL OR EXCLUDED.answer_version >= a.answer_version
                """
            ).prepared(), lockWait: lockWait)
    }

    /// Stores `GET /v1/subscribers/{id}` and `…/entitlements` bodies and the users' group
    /// usage, in one statement.
    public func store(_ answers: [SubscriberAnswer], lockWait: LockWait = .brief) async throws {
        let answers = Self.lastPerKey(answers, key: \.appUserID)
        guard !answers.isEmpty else { return }
        func keys(_ set: (GroupUsage) -> Set<GroupUsage.Key>) -> PostgresTextArray {
            PostgresTextArray(answers.map { PostgresTextArray(set($0.usage).map(\.text).sorted()).literal })
        }
        try await store(
            PostgresQuery(
                """
                INSERT INTO subscriber_answers AS a (app_user_id, answer_version, catalog_generation, format, valid_until, body,
                    entitlements_body, offer_used_groups, purchased_groups, entitled_groups)
                SELECT user_id, answer_version, catalog_generation, \(format)::integer, valid_until, body, entitlements_body,
                       offer_used::text[], purchased::text[], entitled::text[]
                FROM unnest(\(PostgresTextArray(answers.map(\.appUserID)))::text[],
                    \(PostgresTextArray(encoding: answers.map(\.stamp.version)))::bigint[],
                    \(PostgresTextArray(encoding: answers.map(\.stamp.catalogGeneration)))::bigint[],
                    \(PostgresTextArray(encoding: answers.map(\.validUntil)))::timestamptz[],
                    \(PostgresTextArray(answers.map(\.body)))::text[],
                    \(PostgresTextArray(answers.map(\.entitlementsBody)))::text[],
                    \(keys(\.offerUsed))::text[], \(keys(\.purchased))::text[], \(keys(\.entitled))::text[])
                    AS u(user_id, answer_version, catalog_generation, valid_until, body, entitlements_body, offer_used, purchased, entitled)
                -- A user forgotten since the answer was computed (DELETE /v1/subscribers/{id}) gets no row back.
                WHERE EXISTS (SELECT 1 FROM subscribers s WHERE s.app_user_id = u.user_id)
                   OR EXISTS (SELECT 1 FROM entitlement_grants g WHERE g.app_user_id = u.user_id)
                   OR EXISTS (SELECT 1 FROM original_application_versions v WHERE v.app_user_id = u.user_id)
                ON CONFLICT (app_user_id) DO UPDATE SET
                    answer_version = EXCLUDED.answer_version, catalog_generation = EXCLUDED.catalog_generation,
                    format = EXCLUDED.format, valid_until = EXCLUDED.valid_until, body = EXCLUDED.body,
                    entitlements_body = EXCLUDED.entitlements_body, offer_used_groups = EXCLUDED.offer_used_groups,
                    purchased_groups = EXCLUDED.purchased_groups, entitled_groups = EXCLUDED.entitled_groups
                WHERE a.answer_version IS NULL OR EXCLUDED.answer_version >= a.answer_version
                """
            ).prepared(), lockWait: lockWait, first: Self.answerLocks(answers.map(\.appUserID)).prepared())
    }

    /// One answer per key (the last), sorted by key: one statement may not update a row
    /// twice, and concurrent writers lock rows in the same order.
    private static func lastPerKey<Answer>(_ answers: [Answer], key: (Answer) -> String) -> [Answer] {
        var byKey: [String: Answer] = [:]
        for answer in answers { byKey[key(answer)] = answer }
        return byKey.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Writes an answer without waiting for the disk: an answer lost in a crash is computed
    /// again, and the WAL keeps it ordered before any later change that would invalidate it.
    /// The version columns are never written here, so a stale answer is stored unserved.
    private func store(_ statement: PostgresQuery, lockWait: LockWait, first: PostgresQuery? = nil) async throws {
        try await client.withTransaction { session in
            try session.execute("SET LOCAL synchronous_commit TO off")
            if lockWait == .brief { try session.execute("SET LOCAL lock_timeout TO '100ms'") }
            if let first { try session.execute(first) }
            try session.execute(statement)
        }
    }

    /// Shared locks on the users' answers, in one order: a write of answers and the
    /// forgetting of one of their users (`SubscriberRemoval`, which takes the lock exclusively)
    /// never overlap, so a write that began before the forgetting cannot leave a row after it.
    static func answerLocks(_ appUserIDs: [String]) -> PostgresQuery {
        PostgresQuery(
            """
            SELECT pg_advisory_xact_lock_shared(hashtextextended('answers|' || u, 0))
            FROM (SELECT DISTINCT u FROM unnest(\(appUserIDs)::text[]) AS u ORDER BY u) AS ordered
            """)
    }

    /// The exclusive twin of `answerLocks`, for forgetting `appUserID`.
    static func answerLock(forgetting appUserID: String) -> PostgresQuery {
        PostgresQuery("SELECT pg_advisory_xact_lock(hashtextextended('answers|' || \(appUserID), 0))")
    }
}
