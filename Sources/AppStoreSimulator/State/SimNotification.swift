import Foundation

/// One notification body, v1 or v2, ready to POST.
public struct SimNotification: Sendable, Hashable {
    /// The customer it is about (empty for a `TEST` notification).
    public let customerID: String
    /// Its place in the customer's life, from 0.
    public let sequence: Int
    /// `.v1` or `.v2` (never `.migrating`: a migrating customer's notifications are one or the other).
    public let version: NotificationVersion
    /// The v1 `notification_type` of the event; for v2 notifications the v1 type Apple would
    /// have sent instead, `nil` where v1 is silent (EXPIRED, TEST).
    public let type: NotificationType?
    /// The v2 `notificationType` and `subtype`; `nil` for v1 notifications.
    public let typeV2: NotificationTypeV2?
    /// The v2 `notificationUUID`; `nil` for v1 notifications.
    public let notificationUUID: String?
    /// The environment (Apple never retries sandbox v2 notifications, nor v1 by default).
    public let environment: SimEnvironment
    /// When the event happened in scenario time (v2's `signedDate`).
    public let date: Date
    /// The JSON body, exactly as sent.
    public let body: [UInt8]

    /// A notification from its parts.
    init(
        customerID: String, sequence: Int, version: NotificationVersion = .v1,
        type: NotificationType?, typeV2: NotificationTypeV2? = nil, notificationUUID: String? = nil,
        environment: SimEnvironment, date: Date, body: [UInt8]
    ) {
        self.customerID = customerID
        self.sequence = sequence
        self.version = version
        self.type = type
        self.typeV2 = typeV2
        self.notificationUUID = notificationUUID
        self.environment = environment
        self.date = date
        self.body = body
    }

    /// The body as text.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The wire type: v1's `notification_type` or v2's `TYPE/SUBTYPE`.
    public var typeName: String {
        typeV2?.description ?? type?.rawValue ?? ""
    }
}
