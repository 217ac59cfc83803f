import Foundation
import NIOConcurrencyHelpers

extension AppStoreSimulator {
    /// Accepts App Store Server API tokens signed by `key` (and refuses all others); `nil`
    /// refuses every request with 401.
    public func setAPIKey(_ key: SimAPIKey?) {
        box.withLockedValue { $0.api.key = key }
    }

    /// Answers 429 to the `limit + 1`-th API request of an app within one second, per
    /// environment; `nil` lifts the limit.
    public func setAPIRateLimit(_ limit: Int?) {
        box.withLockedValue { $0.api.rate = APIRateWindow(limit: limit.map { max(0, $0) }) }
    }

    /// Answers every API request 429 until `until`, each with `Retry-After` naming `retryAfter`
    /// seconds later (as Apple does during a long rate-limit window).
    public func holdAPI(until: Date, retryAfter: TimeInterval) {
        box.withLockedValue { $0.api.held = (until, retryAfter) }
    }

    /// Sends test notifications requested through the API to `url` (subscriptiond's
    /// notification URL), once, recording the attempt; `nil` leaves them unsent.
    public func setNotificationTarget(_ url: URL?) {
        box.withLockedValue { $0.api.notificationTarget = url }
    }

    /// Where API-caused notifications are sent (`nil`: nowhere).
    var notificationTarget: URL? {
        box.withLockedValue { $0.api.notificationTarget }
    }

    /// The delivery attempts recorded for the notification `uuid`, oldest first.
    public func sendAttempts(notificationUUID uuid: String) -> [SendAttempt] {
        box.withLockedValue { $0.api.attempts[uuid] ?? [] }
    }

    /// The v2 notifications a drop rate made the sender skip, in `notifications()` order.
    public func droppedNotifications() -> [SimNotification] {
        let dropped = box.withLockedValue { $0.api.dropped }
        return notifications().filter { $0.notificationUUID.map(dropped.contains) ?? false }
    }

    /// Records one delivery attempt of `notification` (v1 ones have no history and are ignored).
    public func recordSendAttempt(_ notification: SimNotification, _ attempt: SendAttempt, dropped: Bool = false) {
        guard let uuid = notification.notificationUUID else { return }
        box.withLockedValue { state in
            state.api.attempts[uuid, default: []].append(attempt)
            if dropped { state.api.dropped.insert(uuid) }
        }
    }
}
