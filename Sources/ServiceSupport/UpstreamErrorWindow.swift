import Foundation
import Synchronization

/// This process's failed upstream requests (no answer, 429 or 5xx) per upstream over the
/// last hour, in one-minute buckets: what the console's overview shows next to the pipeline.
/// Bounded: at most 60 buckets per upstream, and upstreams are the few this process calls.
public final class UpstreamErrorWindow: Sendable {
    /// One upstream's failures in the window.
    public struct Count: Sendable, Equatable {
        public let upstream: String
        public let failures: Int
        public let requests: Int
    }

    private struct Bucket {
        var minute: Int
        var failures: Int
        var requests: Int
    }

    private let buckets = Mutex<[String: [Bucket]]>([:])
    private let minutes = 60

    public init() {}

    /// Counts one request to `upstream` that ended with `status` (nil: no answer).
    public func record(upstream: String, status: Int?, at now: Date = Date()) {
        let minute = Int(now.timeIntervalSince1970 / 60)
        let failed = status.map { $0 == 429 || $0 >= 500 } ?? true
        buckets.withLock { buckets in
            var list = (buckets[upstream] ?? []).filter { minute - $0.minute < minutes }
            if let last = list.indices.last, list[last].minute == minute {
                list[last].requests += 1
                list[last].failures += failed ? 1 : 0
            } else {
                list.append(Bucket(minute: minute, failures: failed ? 1 : 0, requests: 1))
            }
            buckets[upstream] = list
        }
    }

    /// Every upstream called in the last hour, with its failures and requests, by name.
    public func lastHour(at now: Date = Date()) -> [Count] {
        let minute = Int(now.timeIntervalSince1970 / 60)
        return buckets.withLock { buckets in
            buckets.compactMap { upstream, list -> Count? in
                let recent = list.filter { minute - $0.minute < minutes }
                guard !recent.isEmpty else { return nil }
                return Count(
                    upstream: upstream, failures: recent.reduce(0) { $0 + $1.failures }, requests: recent.reduce(0) { $0 + $1.requests })
            }.sorted { $0.upstream < $1.upstream }
        }
    }
}
