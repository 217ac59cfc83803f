import Crypto

/// Which v2 notifications the sender skips on purpose, as if the server had been down: a
/// seeded share, decided per `notificationUUID` so every copy and every run agrees.
public struct DropPolicy: Sendable, Hashable {
    /// The share of v2 notifications skipped, 0...1.
    public var rate: Double
    /// Seeds the choice.
    public var seed: UInt64

    /// A policy from its parts; `rate` is clamped to 0...1.
    public init(rate: Double, seed: UInt64 = 42) {
        self.rate = rate.isFinite ? min(1, max(0, rate)) : 0
        self.seed = seed
    }

    /// Skip nothing.
    public static let none = DropPolicy(rate: 0)

    /// Whether `notification` is skipped; v1 notifications never are (v1 has no history to
    /// recover them from).
    public func drops(_ notification: SimNotification) -> Bool {
        guard rate > 0, let uuid = notification.notificationUUID else { return false }
        let digest = Array(SHA256.hash(data: Array("drop|\(seed)|\(uuid)".utf8)))
        let draw = digest.prefix(7).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(draw) / Double(UInt64(1) << 56) < rate
    }

    /// The notifications of `notifications` this policy skips, in order.
    public func dropped(_ notifications: [SimNotification]) -> [SimNotification] {
        notifications.filter(drops)
    }
}
