extension Duration {
    /// Whole milliseconds, clamped to 0…`Int64.max` so any configured value is usable.
    var clampedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return Int64.max }
        let (total, overflowAgain) = millis.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowAgain ? Int64.max : max(0, total)
    }

    /// A timeout for `poll` or `epoll_wait`: whole milliseconds rounded up, so a remainder
    /// under a millisecond waits one rather than spinning, at most `Int32.max`.
    var pollTimeoutMilliseconds: Int32 {
        let millis = clampedMilliseconds
        return millis >= Int64(Int32.max) ? Int32.max : Int32(millis) + 1
    }

    /// Seconds for messages: "5", "1.5", "0.25".
    var secondsText: String {
        let millis = clampedMilliseconds
        if millis % 1000 == 0 { return String(millis / 1000) }
        return String(Double(millis) / 1000)
    }

    /// A value for a PostgreSQL duration setting such as `statement_timeout`, in milliseconds.
    var postgresSettingText: String {
        "\(min(clampedMilliseconds, Int64(Int32.max)))ms"
    }
}
