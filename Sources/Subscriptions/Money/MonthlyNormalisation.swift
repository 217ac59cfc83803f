import Foundation

extension ISO8601Duration {
    /// How many of this billing period make a month, for MRR: P1D ×30, P1W ×4, P2W ×2, P1M ×1,
    /// P2M ×½, P3M ×⅓, P6M ×⅙, P1Y ×1⁄12 (a month is 30 days or 4 weeks); nil for a period
    /// that mixes units, which no auto-renewable subscription has.
    public var monthlyFactor: Decimal? {
        switch (years, months, weeks, days) {
        case (let y, 0, 0, 0) where y > 0: 1 / (12 * Decimal(y))
        case (0, let m, 0, 0) where m > 0: 1 / Decimal(m)
        case (0, 0, let w, 0) where w > 0: 4 / Decimal(w)
        case (0, 0, 0, let d) where d > 0: 30 / Decimal(d)
        default: nil
        }
    }
}
