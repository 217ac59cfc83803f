/// The order notifications go out in: each one `duplicates` times, optionally shuffled with a
/// seed, so redelivery and out-of-order arrival are reproducible.
public enum DeliveryPlan {
    /// `notifications` with every one repeated `duplicates` times (copies next to each
    /// other), then shuffled when `shuffle` is set.
    public static func order(
        _ notifications: [SimNotification],
        duplicates: Int = 1,
        shuffle: Bool = false,
        seed: UInt64 = 42
    ) -> [SimNotification] {
        var copies = notifications.flatMap { Array(repeating: $0, count: max(1, duplicates)) }
        if shuffle {
            var random = SeededRandom(seed: seed, name: "delivery")
            copies.shuffle(using: &random)
        }
        return copies
    }
}
