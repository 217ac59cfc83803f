import AppStore

/// An event a notification type brings of its own, beside what its facts change (those are
/// ``LifecycleRule``'s): Apple says something happened that no stored fact shows.
public enum AppleNotificationEvent: Sendable, Equatable {
    /// RESCIND_CONSENT: consent for the app was withdrawn for the Apple account of this
    /// AppTransaction; the event names that account's users.
    case consentRescinded(appTransactionID: String)
    /// An Advanced Commerce notification about one subscription.
    case subscription(LifecycleEvent, originalTransactionID: String)

    /// The webhook type.
    public var kind: LifecycleEvent.Kind {
        switch self {
        case .consentRescinded: .consentRescinded
        case .subscription(let event, _): event.kind
        }
    }

    /// The event `type` brings, from the verified notification's parts; nil for a type that
    /// brings none, or one whose subject is missing.
    public static func of(
        _ type: NotificationV2Type?, subtype: String?, originalTransactionID: String?, appTransactionID: String?
    ) -> AppleNotificationEvent? {
        switch type {
        case .rescindConsent?:
            return appTransactionID.map { .consentRescinded(appTransactionID: $0) }
        case .metadataUpdate?:
            return originalTransactionID.map { .subscription(LifecycleEvent(.metadataUpdated, reason: subtype), originalTransactionID: $0) }
        case .migration?:
            return originalTransactionID.map { .subscription(LifecycleEvent(.migrated, reason: subtype), originalTransactionID: $0) }
        case .priceChange?:
            return originalTransactionID.map { .subscription(LifecycleEvent(.priceChanged, reason: subtype), originalTransactionID: $0) }
        default:
            return nil
        }
    }
}
