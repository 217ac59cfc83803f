/// The notification version one customer's app receives.
public enum NotificationVersion: String, Sendable, Hashable, Codable, CaseIterable {
    /// App Store Server Notifications v1 (JSON with `unified_receipt`).
    case v1 = "1"
    /// Version 2: `{"signedPayload": JWS}`.
    case v2 = "2"
    /// An app moving from v1 to v2: the first half of the customer's life in v1, the rest in v2.
    case migrating

    /// The version of the notification for the `index`-th of `count` events.
    func version(ofEvent index: Int, count: Int) -> NotificationVersion {
        switch self {
        case .v1, .v2: self
        case .migrating: index < count / 2 ? .v1 : .v2
        }
    }
}

/// How notification versions are spread over generated customers.
public enum NotificationVersionMix: String, Sendable, Hashable, CaseIterable {
    /// Everyone v1 (the default, as before v2 existed).
    case v1 = "1"
    /// Everyone v2.
    case v2 = "2"
    /// Each customer v1, v2 or migrating, drawn from the seed and the customer's name.
    case mixed
    /// Everyone migrating from v1 to v2.
    case migrating

    /// The version of the customer `name` under `seed`.
    public func version(for name: String, seed: UInt64) -> NotificationVersion {
        switch self {
        case .v1: return .v1
        case .v2: return .v2
        case .migrating: return .migrating
        case .mixed:
            // A separate stream, so v1 customers come out exactly as before mixes existed.
            var random = SeededRandom(seed: seed, name: "version-" + name)
            let draw = random.next() % 5
            return draw < 2 ? .v1 : draw < 4 ? .v2 : .migrating
        }
    }
}
