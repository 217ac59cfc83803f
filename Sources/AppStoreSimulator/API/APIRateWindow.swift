import Foundation

/// A per-second request limit per app and environment: the `limit + 1`-th request within one
/// wall-clock second gets 429, with `Retry-After` at the start of the next second.
struct APIRateWindow: Sendable {
    /// Requests allowed per second; `nil` means no limit.
    var limit: Int?
    private var second: Int64 = 0
    private var counts: [String: Int] = [:]

    init(limit: Int? = nil) {
        self.limit = limit
    }

    /// Counts one request of `key` at `now`; returns the retry time (ms) when over the limit.
    mutating func admit(_ key: String, now: Date) -> Int64? {
        guard let limit else { return nil }
        let millis = Int64((now.timeIntervalSince1970 * 1_000).rounded(.down))
        let current = millis / 1_000
        if current != second {
            second = current
            counts.removeAll(keepingCapacity: true)
        }
        let used = counts[key, default: 0]
        guard used < limit else { return (current + 1) * 1_000 }
        counts[key] = used + 1
        return nil
    }
}
