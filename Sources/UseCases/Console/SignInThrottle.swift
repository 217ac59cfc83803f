import Foundation
import HTTPClient
import Synchronization

/// Failed console sign-ins per client address (DESIGN.md: "ten failed sign-ins in a minute
/// from one address wait"): an address with `limit` failures in the last `window` waits until
/// the oldest of them leaves it. Kept per process, in memory, for at most `maximumAddresses`
/// addresses (the oldest forgotten first), so a flood of addresses cannot grow it without bound.
public final class SignInThrottle: Sendable {
    public let limit: Int
    public let window: Duration
    private let maximumAddresses: Int
    private let failures = Mutex<[String: [Date]]>([:])

    public init(limit: Int = 10, window: Duration = .seconds(60), maximumAddresses: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maximumAddresses = maximumAddresses
    }

    /// How long `address` must wait before it may try again; nil when it may now.
    public func wait(for address: String, now: Date = Date()) -> Duration? {
        failures.withLock { failures in
            let recent = Self.recent(failures[address] ?? [], now: now, window: window)
            failures[address] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            let seconds = oldest.timeIntervalSince(now) + window.seconds
            return .milliseconds(max(1, Int((seconds * 1_000).rounded(.up))))
        }
    }

    /// Counts a failed sign-in from `address`.
    public func recordFailure(from address: String, now: Date = Date()) {
        failures.withLock { failures in
            if failures[address] == nil, failures.count >= maximumAddresses {
                // Forget the address whose latest failure is oldest.
                if let stalest = failures.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })?.key {
                    failures[stalest] = nil
                }
            }
            var recent = Self.recent(failures[address] ?? [], now: now, window: window)
            recent.append(now)
            failures[address] = Array(recent.suffix(limit))
        }
    }

    /// Forgets `address`'s failures (after it signed in).
    public func reset(_ address: String) {
        failures.withLock { _ = $0.removeValue(forKey: address) }
    }

    private static func recent(_ times: [Date], now: Date, window: Duration) -> [Date] {
        times.filter { now.timeIntervalSince($0) < window.seconds }
    }
}
