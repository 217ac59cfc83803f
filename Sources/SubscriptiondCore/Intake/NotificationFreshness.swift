import Foundation

/// How old a signed notification may be when it arrives over HTTP.
///
/// Apple retries a notification for a few days and its notification history reaches back
/// 180 days; nothing older can come from Apple, so an older one posted to intake is a
/// replay of captured evidence. The bound holds at intake only: the worker re-reads
/// evidence it stored when it was fresh, and a StoreKit 2 transaction the app posts is
/// bounded by its chain's validity alone.
public enum NotificationFreshness {
    /// The oldest `signedDate` intake takes, counted back from now.
    public static let maximumAge: TimeInterval = 180 * 24 * 60 * 60

    /// Whether a notification signed at `signedDate` may still come from Apple at `now`.
    /// A payload without `signedDate` was checked at `now` by the verifier, so it passes.
    public static func isDeliverable(signedDate: Date?, now: Date) -> Bool {
        guard let signedDate else { return true }
        return now.timeIntervalSince(signedDate) <= maximumAge
    }

    /// The sender-facing reason for a refusal.
    public static let refusal = "the signed notification is more than 180 days old: Apple delivers nothing older, so it is refused as a replay"
}
