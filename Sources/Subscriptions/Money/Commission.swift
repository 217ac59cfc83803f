import Foundation

/// Apple's commission on one transaction: 30%, or 15% for an app in the Small Business
/// Program and for an auto-renewable subscription period that starts after the subscriber
/// has a year of paid service in its group.
public enum CommissionRate: Sendable, Equatable {
    /// 30%.
    case standard
    /// 15%.
    case reduced

    /// The share Apple keeps.
    public var share: Decimal {
        switch self {
        case .standard: Decimal(string: "0.30")!
        case .reduced: Decimal(string: "0.15")!
        }
    }
}

/// The periods an app was in the Small Business Program: each includes `from` and excludes
/// `until` (nil: still in it).
public struct SmallBusinessProgram: Sendable, Equatable {
    /// One period of membership.
    public struct Period: Sendable, Equatable {
        public let from: Date
        public let until: Date?

        public init(from: Date, until: Date?) {
            self.from = from
            self.until = until
        }
    }

    public let periods: [Period]

    public init(periods: [Period] = []) {
        self.periods = periods
    }

    /// True when `date` falls in a period of membership.
    public func includes(_ date: Date) -> Bool {
        periods.contains { $0.from <= date && $0.until.map { date < $0 } ?? true }
    }
}

/// The year-of-paid-service rule: paid days add up across the subscriber's periods in a
/// subscription group (plan changes included); a lapse of more than 60 days between paid
/// periods starts the count again. A period that starts once 365 paid days are behind it is
/// commissioned at 15%.
public enum PaidServiceYear {
    /// A lapse longer than this starts the count again.
    public static let maximumLapse: TimeInterval = 60 * 86_400
    /// Paid service that earns the reduced rate.
    public static let year: TimeInterval = 365 * 86_400

    /// For each paid period (any order), whether it starts after a year of paid service;
    /// in the order given.
    public static func reduced(_ periods: [DateInterval]) -> [Bool] {
        let order = periods.indices.sorted { periods[$0].start < periods[$1].start }
        var result = [Bool](repeating: false, count: periods.count)
        var paid: TimeInterval = 0
        var coveredUntil: Date?
        for index in order {
            let period = periods[index]
            if let end = coveredUntil, period.start.timeIntervalSince(end) > maximumLapse { paid = 0 }
            result[index] = paid >= year
            // Overlapping periods (an upgrade mid-period) count each paid day once.
            let start = max(period.start, coveredUntil ?? period.start)
            if period.end > start { paid += period.end.timeIntervalSince(start) }
            coveredUntil = max(coveredUntil ?? period.end, period.end)
        }
        return result
    }
}
