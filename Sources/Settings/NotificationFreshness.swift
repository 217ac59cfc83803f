import Foundation

/// How old a signed notification may be when it arrives over HTTP.
///
/// Apple retries a notification for a few days and its notification history reaches back
/// 180 days; nothing older can come from Apple, so an older one posted to intake is a
/// replay of captured evidence. The bound holds at intake only: the worker re-reads
/// evidence it stored when it was fresh, and a StoreKit 2 transaction the app posts is
/// bounded by its chain's validity alone. `NOTIFICATION_MAX_AGE_DAYS` sets it (appstore-sim
/// replays customer histories signed at their event dates, so its demos raise it).
public struct NotificationFreshness: Sendable {
    /// Apple's notification history reaches back this many days.
    public static let defaultDays = 180

    /// The oldest `signedDate` intake takes, in days back from now.
    public let days: Int

    /// A bound of `days` days.
    public init(days: Int = NotificationFreshness.defaultDays) {
        self.days = days
    }

    /// Whether a notification signed at `signedDate` may still come from Apple at `now`.
    /// A payload without `signedDate` was checked at `now` by the verifier, so it passes.
    public func isDeliverable(signedDate: Date?, now: Date) -> Bool {
        guard let signedDate else { return true }
        return now.timeIntervalSince(signedDate) <= TimeInterval(days) * 24 * 60 * 60
    }

    /// The sender-facing reason for a refusal.
    public var refusal: String {
        "the signed notification is more than \(days) days old (NOTIFICATION_MAX_AGE_DAYS): Apple delivers nothing that old, so it is refused as a replay"
    }
}
