import Foundation

/// Turns subscription periods into lengths of time in one environment.
///
/// Production uses the Gregorian calendar in UTC, as Apple bills. Sandbox uses Apple's
/// accelerated table (1 week ≈ 3 minutes, 1 month ≈ 5 minutes, 1 year ≈ 1 hour) and scales
/// grace and billing-retry periods by the same speed-up.
struct PeriodClock: Sendable {
    let environment: SimEnvironment
    let timing: SimTiming

    /// The end of `count` periods of `duration` starting at `start`.
    func end(of duration: ISODuration, from start: Date, count: Int = 1) -> Date {
        switch environment {
        case .sandbox: start.addingTimeInterval(Self.sandboxSeconds(duration.times(count)))
        case .production: duration.end(from: start, count: count)
        }
    }

    /// A length of real time given in days, scaled in sandbox.
    func length(days: Int) -> TimeInterval {
        scaled(TimeInterval(days) * 86_400)
    }

    /// The billing grace period after a failed renewal of a `period` subscription.
    func gracePeriod(for period: ISODuration) -> TimeInterval {
        let short = period.approximateSeconds < 28 * 86_400
        return length(days: short ? timing.shortGracePeriodDays : timing.gracePeriodDays)
    }

    /// How long Apple keeps retrying a failed renewal.
    var billingRetryPeriod: TimeInterval {
        length(days: timing.billingRetryDays)
    }

    /// `seconds` of production time as this environment's time, at least one second.
    func scaled(_ seconds: TimeInterval) -> TimeInterval {
        switch environment {
        case .production: seconds
        case .sandbox: max(1, (seconds / timing.sandboxSpeedup).rounded())
        }
    }

    /// Apple's sandbox renewal table, extended linearly between its rows.
    static func sandboxSeconds(_ duration: ISODuration) -> TimeInterval {
        let days = duration.days == 3 && duration.weeks == 0 ? 120 : Double(duration.days) * 40
        let seconds =
            Double(duration.years) * 3_600 + Double(duration.months) * 300
            + Double(duration.weeks) * 180 + days + (Double(duration.timeSeconds) / 8_640).rounded()
        return max(1, seconds)
    }
}
