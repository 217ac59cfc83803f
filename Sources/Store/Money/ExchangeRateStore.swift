import Foundation
import Postgres
import Subscriptions

/// `exchange_rates`: what `subscriptionctl rates import` loaded, per report currency.
public struct ExchangeRateStore: Sendable {
    private let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// Adds `rates` quoted in `quote`, replacing any stored for the same currency and day, in
    /// one transaction; how many were new and how many replaced.
    public func importRates(_ rates: [ExchangeRate], quote: String) async throws -> (added: Int, replaced: Int) {
        let days = rates.map { UTCDay.text($0.day) }
        let currencies = rates.map(\.currency)
        let values = rates.map { "\($0.rate)" }
        return try await client.withTransaction { session in
            let rows = try session.query(
                PostgresQuery(
                    """
                    INSERT INTO exchange_rates (quote, currency, day, rate)
                    SELECT \(quote), c, d::date, r::numeric
                    FROM unnest(\(currencies)::text[], \(days)::text[], \(values)::text[]) AS i(c, d, r)
                    ON CONFLICT (quote, currency, day) DO UPDATE SET rate = EXCLUDED.rate, imported_at = now()
                    RETURNING (xmax = 0) AS added
                    """
                ).prepared())
            let added = try rows.filter { try $0.decode("added", as: Bool.self) }.count
            return (added, rows.count - added)
        }
    }

    /// Every rate quoted in `quote`, by currency and day.
    public func rates(quote: String) async throws -> [ExchangeRate] {
        try await client.query(
            PostgresQuery(
                "SELECT currency, day::text AS day, rate::text AS rate FROM exchange_rates WHERE quote = \(quote) ORDER BY currency, day"
            ).prepared()
        ).map { row in
            let dayText: String = try row.decode("day")
            let rateText: String = try row.decode("rate")
            guard let day = UTCDay.parse(dayText), let rate = Decimal(string: rateText, locale: Locale(identifier: "en_US_POSIX")) else {
                throw StoreError("exchange_rates holds a row that does not read back: \(dayText) \(rateText)")
            }
            return ExchangeRate(day: day, currency: try row.decode("currency"), rate: rate)
        }
    }

}
