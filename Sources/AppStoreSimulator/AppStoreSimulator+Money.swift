import Foundation

extension AppStoreSimulator {
    /// What subscriptiond's reports should say about every customer (see `MoneyTruth`): counts
    /// and MRR at the end of `day`, revenue from `revenueFrom` through `revenueTo`, in the report
    /// currency of `rates`, as known at `knownAt` (by default now).
    public func money(
        day: Date, revenueFrom: Date, revenueTo: Date, rates: SimExchangeRates, knownAt: Date = Date()
    ) -> MoneyTruth {
        MoneyTruth(
            customers: customers.map { MoneyTruth.Customer(environment: $0.environment, state: $0.state(at: knownAt)) },
            catalog: configuration.catalog, day: day, revenueFrom: revenueFrom, revenueTo: revenueTo, rates: rates
        )
    }

    /// The rates the simulator converts with unless told otherwise: its own monthly ones into
    /// USD (`SimExchangeRates.standard`), from three years before `date` through `date`'s month.
    public static func standardRates(through date: Date = Date()) -> SimExchangeRates {
        .standard(from: date.addingTimeInterval(-3 * 366 * 86_400), through: date)
    }
}

extension MoneyTruth {
    /// `{"currency", "day", "active_subscriptions", "active_trials", "mrr", "revenue_from",
    /// "revenue_to", "revenue", "missing_rates"}`; amounts as numbers rounded to the cent.
    public func jsonText(pretty: Bool = false) -> String {
        let value = JSONValue.object([
            ("currency", .string(currency)),
            ("day", .string(SimDay.text(day))),
            ("active_subscriptions", .int(activeSubscriptions)),
            ("active_trials", .int(activeTrials)),
            ("mrr", .number(Self.cents(mrr))),
            ("revenue_from", .string(SimDay.text(revenueFrom))),
            ("revenue_to", .string(SimDay.text(revenueTo))),
            ("revenue", .number(Self.cents(revenue))),
            ("missing_rates", .array(missingRates.map(JSONValue.string))),
        ])
        return pretty ? value.prettyText() : value.serialized()
    }

    /// `amount` rounded half up to two decimals, written with both (`123.40`).
    public static func cents(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        let hundredths = NSDecimalNumber(decimal: rounded * 100).int64Value
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths)
        return sign + "\(whole / 100)." + String(format: "%02d", Int(whole % 100))
    }
}
