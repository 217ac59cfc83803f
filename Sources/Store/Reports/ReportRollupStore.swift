import AppStore
import Foundation
import Postgres
import Subscriptions

/// The reports' rollups (`report_changes`, `report_daily`, `report_chains`, `report_spans`):
/// queued as facts are applied, counted by the rollup job one batch at a time, and read by
/// the reports.
///
/// One counter at a time (a transaction-level advisory lock): the job and a rebuild never
/// add to the same day sums at once, and several processes share the work by turns.
///
/// The job reads its batch of the queue without locking it, so applying facts never waits
/// for a count (it did while the job held its claimed rows through counting them). A chain is
/// queued with `ON CONFLICT DO UPDATE`, which gives its queue row a new version and holds it
/// until the facts commit; after counting, the job takes off the queue only the rows still at
/// the version it read and not held, so a chain queued again meanwhile (whose new facts the
/// count may not have seen) is counted again in a later batch. Counting a chain twice is
/// harmless: its share is replaced, and the day sums get the difference.
public struct ReportRollupStore: Sendable {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// One chain: its environment and original transaction id.
    public struct ChainKey: Sendable, Hashable {
        public let environment: String
        public let originalTransactionID: String

        public init(environment: String, originalTransactionID: String) {
            self.environment = environment
            self.originalTransactionID = originalTransactionID
        }
    }

    /// A queued chain as the job read it, with its queue row's version (the row's `xmin`: the
    /// transaction that last queued it).
    public struct QueuedChain: Sendable, Hashable {
        public let key: ChainKey
        let version: String
    }

    /// Queues the chains `ids` of `environment` for counting, inside the caller's transaction
    /// (the one applying their facts).
    public static func queue(environment: AppStoreEnvironment, ids: [String], in session: PostgresSession) throws {
        guard !ids.isEmpty else { return }
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO report_changes (environment, original_transaction_id)
                SELECT \(environment.rawValue), id FROM unnest(\(PostgresTextArray(ids.sorted()))::text[]) AS q(id)
                ON CONFLICT (environment, original_transaction_id) DO UPDATE SET changed_at = now()
                """
            ).prepared())
    }

    /// Runs `body` holding the counter's lock; nil without running it when another process
    /// holds it and `wait` is false. Waiting gives up after `lockTimeout`.
    public func withCounter<T: Sendable>(
        wait: Bool, lockTimeout: Duration = .seconds(60), _ body: @escaping @Sendable (Counter) throws -> T
    ) async throws -> T? {
        try await client.withTransaction { session in
            if wait {
                try session.execute(PostgresQuery(sql: "SET LOCAL lock_timeout = '\(max(1, lockTimeout.components.seconds))s'"))
                try session.execute(PostgresQuery("SELECT pg_advisory_xact_lock(hashtextextended('report_rollups', 0))").prepared())
            } else {
                let locked = try session.queryFirst(
                    PostgresQuery("SELECT pg_try_advisory_xact_lock(hashtextextended('report_rollups', 0)) AS locked").prepared()
                )?.decode("locked", as: Bool.self)
                guard locked == true else { return nil }
            }
            return try body(Counter(session: session))
        }
    }

    /// How many chains wait to be counted, and since when the oldest.
    public func backlog() async throws -> (count: Int, oldest: Date?) {
        guard
            let row = try await client.query(
                PostgresQuery("SELECT count(*) AS n, min(changed_at) AS oldest FROM report_changes").prepared()
            ).first
        else { return (0, nil) }
        return (try row.decode("n", as: Int.self), try row.decode("oldest", as: Date?.self))
    }

    /// The rollups inside the counter's transaction.
    public struct Counter {
        let session: PostgresSession

        /// Reads up to `limit` queued chains, oldest first, without locking them.
        public func queued(limit: Int) throws -> [QueuedChain] {
            try session.query(
                PostgresQuery(
                    """
                    SELECT environment, original_transaction_id, xmin::text AS version FROM report_changes
                    ORDER BY changed_at LIMIT \(limit)
                    """
                ).prepared()
            ).map {
                QueuedChain(
                    key: ChainKey(
                        environment: try $0.decode("environment"), originalTransactionID: try $0.decode("original_transaction_id")),
                    version: try $0.decode("version"))
            }
        }

        /// Takes counted chains off the queue: those whose row is still at the version read and
        /// not held by a transaction queueing it again (skipped, not waited for); the others
        /// stay queued for a later batch.
        public func dequeue(_ chains: [QueuedChain]) throws {
            guard !chains.isEmpty else { return }
            try session.execute(
                PostgresQuery(
                    """
                    DELETE FROM report_changes WHERE (environment, original_transaction_id) IN (
                        SELECT r.environment, r.original_transaction_id FROM report_changes r
                        JOIN unnest(\(PostgresTextArray(chains.map(\.key.environment)))::text[], \(PostgresTextArray(chains.map(\.key.originalTransactionID)))::text[],
                            \(PostgresTextArray(chains.map(\.version)))::text[]) AS k(environment, original_transaction_id, version)
                        ON r.environment = k.environment AND r.original_transaction_id = k.original_transaction_id AND r.xmin = k.version::xid
                        FOR UPDATE OF r SKIP LOCKED)
                    """
                ).prepared())
        }

        /// Every chain with facts, in key order after `after`, up to `limit`.
        public func chains(after: ChainKey?, limit: Int) throws -> [ChainKey] {
            try session.query(
                PostgresQuery(
                    """
                    SELECT DISTINCT environment, original_transaction_id FROM transactions
                    WHERE (environment, original_transaction_id) > (\(after?.environment ?? ""), \(after?.originalTransactionID ?? ""))
                    ORDER BY environment, original_transaction_id LIMIT \(limit)
                    """
                ).prepared()
            ).map { ChainKey(environment: try $0.decode("environment"), originalTransactionID: try $0.decode("original_transaction_id")) }
        }

        /// The facts of `keys`, as report chains (`isAutoRenewable` tells the kind from the
        /// chain's first transaction).
        public func facts(of keys: [ChainKey], isAutoRenewable: (TransactionFact) -> Bool) throws -> [ReportedSubscription] {
            var result: [ReportedSubscription] = []
            for (environmentName, group) in Dictionary(grouping: keys, by: \.environment) {
                guard let environment = AppStoreEnvironment(rawValue: environmentName) else { continue }
                let stored = try StoredPurchases.load(
                    environment: environment, originalTransactionIDs: group.map(\.originalTransactionID), in: session)
                for key in group {
                    let transactions = stored.transactions[key.originalTransactionID] ?? []
                    guard let first = transactions.min(by: { $0.purchaseDate < $1.purchaseDate }) else { continue }
                    result.append(
                        ReportedSubscription(
                            originalTransactionID: key.originalTransactionID, bundleID: first.bundleID, environment: environment,
                            transactions: transactions, renewal: stored.renewals[key.originalTransactionID],
                            isAutoRenewable: isAutoRenewable(first)))
                }
            }
            return result
        }

        /// The shares of `keys` as last counted.
        public func shares(of keys: [ChainKey]) throws -> [ChainKey: [RollupKey: Decimal]] {
            guard !keys.isEmpty else { return [:] }
            var result: [ChainKey: [RollupKey: Decimal]] = [:]
            for row in try session.query(
                PostgresQuery(
                    """
                    SELECT c.environment, c.original_transaction_id, c.bundle_id, c.amounts
                    FROM report_chains c JOIN unnest(\(PostgresTextArray(keys.map(\.environment)))::text[], \(PostgresTextArray(keys.map(\.originalTransactionID)))::text[])
                        AS k(environment, original_transaction_id) USING (environment, original_transaction_id)
                    """))
            {
                let key = ChainKey(
                    environment: try row.decode("environment"), originalTransactionID: try row.decode("original_transaction_id"))
                let text: String = try row.decode("amounts")
                result[key] = try StoredShare.decode(text, environment: key.environment, bundleID: try row.decode("bundle_id"))
            }
            return result
        }

        /// Replaces the shares and spans of the chains in `shares` and adds `changes` to the
        /// day sums (with `staged`, once ``addStaged()`` runs).
        public func write(shares: [ChainKey: ChainRollup], changes: [(key: RollupKey, amount: Decimal)], staged: Bool = false) throws {
            let keys = shares.keys.sorted { ($0.environment, $0.originalTransactionID) < ($1.environment, $1.originalTransactionID) }
            guard !keys.isEmpty else { return }
            let environments = keys.map(\.environment)
            let ids = keys.map(\.originalTransactionID)
            try session.execute(
                PostgresQuery(
                    """
                    DELETE FROM report_spans s USING unnest(\(PostgresTextArray(environments))::text[], \(PostgresTextArray(ids))::text[]) AS k(environment, original_transaction_id)
                    WHERE s.environment = k.environment AND s.original_transaction_id = k.original_transaction_id
                    """))
            let kept = keys.filter { !(shares[$0]?.amounts.isEmpty ?? true) }
            try session.execute(
                PostgresQuery(
                    """
                    DELETE FROM report_chains c USING unnest(\(PostgresTextArray(environments))::text[], \(PostgresTextArray(ids))::text[]) AS k(environment, original_transaction_id)
                    WHERE c.environment = k.environment AND c.original_transaction_id = k.original_transaction_id
                    """))
            if !kept.isEmpty {
                let texts = kept.map { StoredShare.encode(shares[$0]?.amounts ?? [:]) }
                let bundles = kept.map { shares[$0]?.amounts.keys.first?.dimensions.bundleID ?? "" }
                try session.execute(
                    PostgresQuery(
                        """
                        INSERT INTO report_chains (environment, original_transaction_id, bundle_id, amounts)
                        SELECT * FROM unnest(\(PostgresTextArray(kept.map(\.environment)))::text[], \(PostgresTextArray(kept.map(\.originalTransactionID)))::text[],
                            \(PostgresTextArray(bundles))::text[], \(PostgresTextArray(texts))::text[])
                        """))
            }
            var spans = SpanColumns()
            for key in keys {
                for span in shares[key]?.spans ?? [] { spans.append(span, of: key) }
            }
            if !spans.environments.isEmpty {
                try session.execute(
                    PostgresQuery(
                        """
                        INSERT INTO report_spans (environment, original_transaction_id, kind, starts_at, ends_at, run_ends_at,
                            next_run_starts_at, bundle_id, product_id, storefront, transaction_id)
                        SELECT * FROM unnest(\(PostgresTextArray(spans.environments))::text[], \(PostgresTextArray(spans.ids))::text[], \(PostgresTextArray(spans.kinds))::text[],
                            \(PostgresTextArray(encoding: spans.starts))::timestamptz[], \(PostgresTextArray(encoding: spans.ends))::timestamptz[],
                            \(PostgresTextArray(encoding: spans.runEnds))::timestamptz[], \(PostgresTextArray(encoding: spans.nextRunStarts))::timestamptz[],
                            \(PostgresTextArray(spans.bundles))::text[], \(PostgresTextArray(spans.products))::text[], \(PostgresTextArray(spans.storefronts))::text[], \(PostgresTextArray(spans.transactions))::text[])
                        """))
            }
            try add(changes, staged: staged)
        }

        /// Adds `changes` to the day sums, summed by the database (exactly), in key order; with
        /// `staged`, to a temporary table of this transaction that ``addStaged()`` sums into
        /// them once (a recount's batches would otherwise update every day sum once each).
        func add(_ changes: [(key: RollupKey, amount: Decimal)], staged: Bool = false) throws {
            guard !changes.isEmpty else { return }
            if staged { try createStaging() }
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO \(unescaped: staged ? "report_daily_staged" : "report_daily") \(unescaped: staged ? "" : "(environment, measure, day, bundle_id, product_id, storefront, currency, amount)")
                    SELECT e, m, \(unescaped: staged ? "d, b, p, s, c, a" : "d::date, b, p, s, c, sum(a::numeric)")
                    FROM unnest(\(PostgresTextArray(changes.map(\.key.dimensions.environment.rawValue)))::text[], \(PostgresTextArray(changes.map(\.key.measure.rawValue)))::text[],
                        \(PostgresTextArray(changes.map { UTCDay.text($0.key.day) }))::text[], \(PostgresTextArray(changes.map(\.key.dimensions.bundleID)))::text[],
                        \(PostgresTextArray(changes.map(\.key.dimensions.productID)))::text[], \(PostgresTextArray(changes.map { $0.key.dimensions.storefront ?? "" }))::text[],
                        \(PostgresTextArray(changes.map(\.key.currency)))::text[], \(PostgresTextArray(changes.map { "\($0.amount)" }))::text[]) AS r(e, m, d, b, p, s, c, a)
                    \(unescaped: staged ? "" : Self.summedIntoDaySums)
                    """))
        }

        private func createStaging() throws {
            try session.execute(
                """
                CREATE TEMPORARY TABLE IF NOT EXISTS report_daily_staged
                    (e text, m text, d text, b text, p text, s text, c text, a text) ON COMMIT DROP
                """)
        }

        /// Sums what ``add(_:staged:)`` staged into the day sums.
        public func addStaged() throws {
            try createStaging()
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO report_daily (environment, measure, day, bundle_id, product_id, storefront, currency, amount)
                    SELECT e, m, d::date, b, p, s, c, sum(a::numeric) FROM report_daily_staged
                    \(unescaped: Self.summedIntoDaySums)
                    """))
            try session.execute("DROP TABLE report_daily_staged")
        }

        /// The end of a statement adding rows `r(e, m, d, b, p, s, c, a)` to the day sums.
        private static let summedIntoDaySums: StaticString = """
            GROUP BY e, m, d, b, p, s, c
            ORDER BY e, m, d, b, p, s, c
            ON CONFLICT (environment, measure, day, bundle_id, product_id, storefront, currency)
            DO UPDATE SET amount = report_daily.amount + EXCLUDED.amount
            """

        /// Forgets every count (a rebuild starts from nothing; the queue stays, so chains
        /// changing meanwhile are counted again after it). Deleted row by row, not truncated:
        /// TRUNCATE would lock the reports out until the rebuild commits, where DELETE lets them
        /// read the old rollups meanwhile.
        public func clear() throws {
            for table: StaticString in ["report_daily", "report_chains", "report_spans"] {
                try session.execute(PostgresQuery("DELETE FROM \(unescaped: table)"))
            }
        }

        /// The day sums as stored, for comparing a rebuild with what the job kept.
        public func daySums() throws -> [RollupKey: Decimal] {
            var result: [RollupKey: Decimal] = [:]
            for row in try session.query(
                PostgresQuery(
                    """
                    SELECT environment, measure, day::text AS day, bundle_id, product_id, storefront, currency, amount::text AS amount
                    FROM report_daily WHERE amount <> 0
                    """))
            {
                guard let key = try StoredShare.key(row: row), let amount = Decimal(string: try row.decode("amount")) else {
                    throw StoreError("report_daily holds a row that does not read back")
                }
                result[key, default: 0] += amount
            }
            return result
        }

        /// What the shares were last computed with.
        public func fingerprint() throws -> String? {
            try session.queryFirst(PostgresQuery("SELECT fingerprint FROM report_rollup_state").prepared())?.decode("fingerprint")
        }

        public func setFingerprint(_ fingerprint: String) throws {
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO report_rollup_state (singleton, fingerprint) VALUES (true, \(fingerprint))
                    ON CONFLICT (singleton) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, rebuilt_at = now()
                    """
                ).prepared())
        }
    }
}

/// The columns of a batch of spans, for one `unnest` insert.
private struct SpanColumns {
    var environments: [String] = []
    var ids: [String] = []
    var kinds: [String] = []
    var starts: [Date?] = []
    var ends: [Date?] = []
    var runEnds: [Date?] = []
    var nextRunStarts: [Date?] = []
    var bundles: [String] = []
    var products: [String] = []
    var storefronts: [String] = []
    var transactions: [String?] = []

    mutating func append(_ span: RollupSpan, of key: ReportRollupStore.ChainKey) {
        environments.append(key.environment)
        ids.append(key.originalTransactionID)
        kinds.append(span.kind.rawValue)
        starts.append(span.start)
        ends.append(span.end)
        runEnds.append(span.runEnd)
        nextRunStarts.append(span.nextRunStart)
        bundles.append(span.dimensions.bundleID)
        products.append(span.dimensions.productID)
        storefronts.append(span.dimensions.storefront ?? "")
        transactions.append(span.transactionID)
    }
}

/// A chain's share as `report_chains.amounts` keeps it: one line per amount, its measure,
/// day, product, storefront, currency and amount separated by tabs (the chain's environment
/// and app are the row's).
enum StoredShare {
    static func encode(_ amounts: [RollupKey: Decimal]) -> String {
        amounts.sorted { order($0.key) < order($1.key) }.map { key, amount in
            [
                key.measure.rawValue, UTCDay.text(key.day), escaped(key.dimensions.productID), escaped(key.dimensions.storefront ?? ""),
                escaped(key.currency), "\(amount)",
            ].joined(separator: "\t")
        }.joined(separator: "\n")
    }

    static func decode(_ text: String, environment: String, bundleID: String) throws -> [RollupKey: Decimal] {
        guard let environment = AppStoreEnvironment(rawValue: environment) else {
            throw StoreError("report_chains names an unknown environment")
        }
        var result: [RollupKey: Decimal] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, let measure = RollupMeasure(rawValue: String(fields[0])), let day = UTCDay.parse(String(fields[1])),
                let amount = Decimal(string: String(fields[5]))
            else { throw StoreError("report_chains holds a share that does not read back") }
            let dimensions = ChainContributions.Dimensions(
                environment: environment, bundleID: bundleID, productID: unescaped(fields[2]),
                storefront: fields[3].isEmpty ? nil : unescaped(fields[3]))
            result[RollupKey(measure: measure, day: day, dimensions: dimensions, currency: unescaped(fields[4])), default: 0] += amount
        }
        return result
    }

    /// A field with its `%`, tabs and line breaks written as `%25`, `%09`, `%0A`, `%0D`.
    static func escaped(_ field: String) -> String {
        guard field.contains(where: { $0 == "%" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return field }
        return field.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\t", with: "%09")
            .replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(of: "\r", with: "%0D")
    }

    static func unescaped(_ field: Substring) -> String {
        guard field.contains("%") else { return String(field) }
        return field.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%09", with: "\t").replacingOccurrences(of: "%25", with: "%")
    }

    static func key(row: PostgresRow) throws -> RollupKey? {
        guard let environment = AppStoreEnvironment(rawValue: try row.decode("environment")),
            let measure = RollupMeasure(rawValue: try row.decode("measure")), let day = UTCDay.parse(try row.decode("day"))
        else { return nil }
        let storefront: String = try row.decode("storefront")
        return RollupKey(
            measure: measure, day: day,
            dimensions: ChainContributions.Dimensions(
                environment: environment, bundleID: try row.decode("bundle_id"), productID: try row.decode("product_id"),
                storefront: storefront.isEmpty ? nil : storefront),
            currency: try row.decode("currency"))
    }

    /// A total order of one chain's keys (its environment and app are one), the order its
    /// lines are written in.
    static func order(_ key: RollupKey) -> (String, Double, String, String, String) {
        (key.measure.rawValue, key.day.timeIntervalSince1970, key.dimensions.productID, key.dimensions.storefront ?? "", key.currency)
    }
}
