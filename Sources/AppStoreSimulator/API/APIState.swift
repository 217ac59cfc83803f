import Foundation

/// The App Store Server API's mutable part, inside the simulator's lock.
struct APIState: Sendable {
    /// The key bearer tokens must be signed with.
    var key: SimAPIKey?
    /// The per-second limit per app and environment.
    var rate = APIRateWindow()
    /// Look Up Order ID and Get Refund History: Apple's own 10/s per app and environment.
    var customerLookupRate = APIRateWindow(limit: 10)
    /// Delivery attempts per `notificationUUID`, oldest first.
    var attempts: [String: [SendAttempt]] = [:]
    /// `notificationUUID`s a drop rate made the sender skip.
    var dropped: Set<String> = []
    /// Test notifications requested through the API, by token, in request order.
    var tests: [(token: String, bundleID: String, notification: SimNotification)] = []
    /// Where requested test notifications are sent; `nil` keeps them unsent.
    var notificationTarget: URL?
    /// Send Consumption Information bodies accepted, by transaction id, in arrival order.
    var consumptionAnswers: [(transactionID: String, body: String)] = []
    /// Transactions the developer's server finished (Finish Transaction), in call order; a
    /// transaction finished twice appears twice.
    var finishedTransactions: [String] = []
    /// Renewal-date extensions granted, oldest first (one per subscription and request).
    var extensions: [SimExtension] = []
    /// Mass extension requests, by request identifier.
    var massExtensions: [String: SimMassExtension] = [:]
    /// How long a mass extension request takes to complete.
    var massExtensionDuration: TimeInterval = 2
    /// Until when every request is answered 429, and the `Retry-After` delay each answer names.
    var held: (until: Date, retryAfter: TimeInterval)?
}
