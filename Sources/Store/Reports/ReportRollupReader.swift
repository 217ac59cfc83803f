import AppStore
import Foundation
import Postgres
import Subscriptions

extension ReportRollupStore {
    /// What `query` needs from the rollups (see ``RollupExtract``), read in one transaction so
    /// its parts agree; `now` decides which trials are still running.
    public func extract(_ query: ReportQuery, now: Date) async throws -> RollupExtract {
        let bounds = RollupExtract.bounds(of: query)
        guard let first = bounds.first, let last = bounds.last else { return RollupExtract() }
        let (levels, flows) = RollupExtract.measures(for: query)
        let environment = query.environment.rawValue
        let grouping = query.groupBy?.rawValue ?? ""
        let boundsArray = PostgresTextArray(encoding: bounds)
        return try await client.withTransaction { session in
            try session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            var extract = RollupExtract()
            func amounts(_ rows: [PostgresRow]) throws -> [RollupExtract.Amount] {
                try rows.map { row in
                    let dayText: String? = try row.decode("day")
                    let amountText: String = try row.decode("amount")
                    guard let amount = Decimal(string: amountText) else {
                        throw StoreError("report_daily holds an amount that does not read back")
                    }
                    return RollupExtract.Amount(
                        day: dayText.flatMap(UTCDay.parse), group: try row.decode("grp"), currency: try row.decode("currency"),
                        amount: amount)
                }
            }
            for measure in levels {
                let rows = try session.query(
                    PostgresQuery(
                        """
                        SELECT CASE WHEN day <= \(first)::date THEN NULL ELSE day::text END AS day, CASE \(grouping) WHEN 'app' THEN bundle_id WHEN 'product' THEN product_id WHEN 'storefront' THEN CASE WHEN storefront = '' THEN 'unknown' ELSE storefront END ELSE '' END AS grp,
                            currency, sum(amount)::text AS amount
                        FROM report_daily
                        WHERE environment = \(environment) AND measure = \(measure.rawValue) AND day <= \(last)::date
                          AND (\(query.app)::text IS NULL OR bundle_id = \(query.app)) AND (\(query.product)::text IS NULL OR product_id = \(query.product))
                        GROUP BY 1, 2, 3
                        """
                    ).prepared())
                for amount in try amounts(rows) {
                    if amount.day == nil {
                        extract.opening[measure, default: []].append(amount)
                    } else {
                        extract.days[measure, default: []].append(amount)
                    }
                }
            }
            for measure in flows {
                extract.days[measure] = try amounts(
                    session.query(
                        PostgresQuery(
                            """
                            SELECT day::text AS day, CASE \(grouping) WHEN 'app' THEN bundle_id WHEN 'product' THEN product_id WHEN 'storefront' THEN CASE WHEN storefront = '' THEN 'unknown' ELSE storefront END ELSE '' END AS grp, currency, sum(amount)::text AS amount
                            FROM report_daily
                            WHERE environment = \(environment) AND measure = \(measure.rawValue)
                              AND day >= \(first)::date AND day < \(last)::date
                              AND (\(query.app)::text IS NULL OR bundle_id = \(query.app)) AND (\(query.product)::text IS NULL OR product_id = \(query.product))
                            GROUP BY 1, 2, 3
                            """
                        ).prepared()))
            }
            let intervals = bounds.count - 1
            if query.metric == .churn {
                // Whole intervals read the churn measure; the (at most two) clipped ones count here.
                extract.churned = Array(repeating: 0, count: intervals)
                let buckets = query.buckets
                for index in query.clippedBuckets {
                    let start = buckets[index].start
                    let end = buckets[index].end
                    guard
                        let row = try session.queryFirst(
                            PostgresQuery(
                                """
                                SELECT count(*) AS n FROM report_spans s
                                WHERE s.kind = 'paid' AND s.environment = \(environment)
                                  AND s.run_ends_at > \(start) AND s.run_ends_at <= \(end)
                                  AND s.starts_at <= \(start) AND (s.ends_at IS NULL OR s.ends_at > \(start))
                                  AND (\(query.app)::text IS NULL OR s.bundle_id = \(query.app)) AND (\(query.product)::text IS NULL OR s.product_id = \(query.product))
                                  AND (s.next_run_starts_at IS NULL OR s.next_run_starts_at > \(end) OR NOT EXISTS (
                                      SELECT 1 FROM report_spans p
                                      WHERE p.environment = s.environment AND p.original_transaction_id = s.original_transaction_id
                                        AND p.kind = 'paid' AND p.starts_at <= \(end) AND (p.ends_at IS NULL OR p.ends_at > \(end))))
                                """
                            ).prepared())
                    else { continue }
                    extract.churned[index] = try row.decode("n")
                }
            }
            if query.metric == .trialConversion {
                extract.pending = Array(repeating: 0, count: intervals)
                for row in try session.query(
                    PostgresQuery(
                        """
                        SELECT width_bucket(starts_at, \(boundsArray)::timestamptz[]) AS i, count(*) AS n FROM report_spans
                        WHERE kind = 'open_trial' AND environment = \(environment) AND ends_at > \(now)
                          AND starts_at >= \(first) AND starts_at < \(last)
                          AND (\(query.app)::text IS NULL OR bundle_id = \(query.app)) AND (\(query.product)::text IS NULL OR product_id = \(query.product))
                        GROUP BY 1
                        """
                    ).prepared())
                {
                    let index: Int = try row.decode("i")
                    if (1...intervals).contains(index) { extract.pending[index - 1] = try row.decode("n") }
                }
            }
            if let kind = RollupExtract.unpricedKind(for: query.metric) {
                let ends = PostgresTextArray(encoding: Array(bounds.dropFirst()))
                let rows = try session.query(
                    PostgresQuery(
                        """
                        SELECT transaction_id, count(*) OVER () AS n FROM (
                            SELECT DISTINCT transaction_id FROM report_spans
                            WHERE kind = \(kind.rawValue) AND environment = \(environment)
                              AND (\(query.app)::text IS NULL OR bundle_id = \(query.app)) AND (\(query.product)::text IS NULL OR product_id = \(query.product))
                              AND CASE WHEN kind = 'unpriced_sale' THEN starts_at >= \(first) AND starts_at < \(last)
                                  ELSE EXISTS (SELECT 1 FROM unnest(\(ends)::timestamptz[]) AS e(at)
                                               WHERE starts_at <= e.at AND (ends_at IS NULL OR ends_at > e.at)) END
                        ) u ORDER BY transaction_id LIMIT 5
                        """
                    ).prepared())
                extract.unpriced = try rows.map { try $0.decode("transaction_id") }
                extract.unpricedCount = try rows.first?.decode("n", as: Int.self) ?? 0
            }
            return extract
        }
    }
}
