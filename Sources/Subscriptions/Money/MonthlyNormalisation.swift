import Foundation

extension ISO8601Duration {
    /// How many of this billing period make a month, for MRR: P1D ×30, P1W ×4, P2W ×2, P1M ×1,
    /// P2M ×½, P3M ×⅓, P6M ×⅙, P1Y ×1⁄12 (a month is 30 days or 4 weeks); nil for a period
    /// that mixes units, which no auto-renewable subscription has.
    public var monthlyFactor: Decimal? {
        switch (years, months, weeks, days) {
        // The periods App Store Connect offers, worked out once: a division is most of the
        // cost of counting a period.
        case (1, 0, 0, 0): Self.perYear
        case (0, 1, 0, 0): 1
        case (0, 2, 0, 0): Self.perTwoMonths
        case (0, 3, 0, 0): Self.perQuarter
        case (0, 6, 0, 0): Self.perHalfYear
        case (0, 0, 1, 0): 4
        case (0, 0, 2, 0): 2
        case (let y, 0, 0, 0) where y > 0: 1 / (12 * Decimal(y))
        case (0, let m, 0, 0) where m > 0: 1 / Decimal(m)
        case (0, 0, let w, 0) where w > 0: 4 / Decimal(w)
        case (0, 0, 0, let d) where d > 0: 30 / Decimal(d)
        default: nil
        }
    }

    private static let perYear = 1 / Decimal(12)
    private static let perTwoMonths = 1 / Decimal(2)
    private static let perQuarter = 1 / Decimal(3)
    private static let perHalfYear = 1 / Decimal(6)
}

extension Decimal {
    /// `value` × 10^`exponent`, made without dividing (milliunits to units: exponent -3).
    static func scaled(_ value: Int64, exponent: Int) -> Decimal {
        Decimal(sign: value < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(value.magnitude))
    }
}
