import Foundation

/// One moment of a customer's life: the state after an event, and what changed.
struct LifecycleEvent: Sendable {
    /// When it happened.
    var date: Date
    /// What happened; it decides the notification of either version.
    var change: LifecycleChange
    /// The group the event is about (its subscription fills the top-level fields).
    var groupID: String
    /// The one-time purchase the event is about (`ONE_TIME_CHARGE`, `REFUND`); `nil` for
    /// subscription events.
    var purchaseID: String?
    /// Everything the customer owns right after the event.
    var state: CustomerState

    /// The v1 notification Apple sends for it; `nil` for changes v1 keeps silent (a lapse,
    /// the end of retries).
    var notification: NotificationType? {
        change.v1Type
    }
}
