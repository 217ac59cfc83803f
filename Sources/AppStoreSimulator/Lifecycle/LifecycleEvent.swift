import Foundation

/// One moment of a customer's life: the state after an event, and the notification it sent.
struct LifecycleEvent: Sendable {
    /// When it happened.
    var date: Date
    /// The notification Apple sends for it; `nil` for silent changes (a lapse, the end of retries).
    var notification: NotificationType?
    /// The group the event is about (its subscription fills the top-level fields).
    var groupID: String
    /// Everything the customer owns right after the event.
    var state: CustomerState
}
