extension Duration {
    /// Whole milliseconds, at least 1: libcurl reads a 0 timeout as "no timeout at all".
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int.max }
        let total = milliseconds.partialValue + attoseconds / 1_000_000_000_000_000
        return Int(clamping: max(total, 1))
    }
}
