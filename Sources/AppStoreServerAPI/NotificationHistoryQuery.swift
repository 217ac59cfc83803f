import Foundation

/// What to ask Get Notification History for.
public struct NotificationHistoryQuery: Sendable, Hashable {
    /// The oldest start Apple accepts, counted back from now.
    public static let maximumAge: TimeInterval = 180 * 24 * 60 * 60

    /// `startDate`: at most 180 days back.
    public var startDate: Date
    /// `endDate`: after `startDate`.
    public var endDate: Date
    /// `notificationType`, e.g. `DID_RENEW`; `nil` for every type.
    public var notificationType: String?
    /// `transactionId`: only notifications about this transaction's subscription.
    public var transactionID: String?
    /// `onlyFailures`: only notifications whose delivery to us failed.
    public var onlyFailures: Bool

    /// Creates a query.
    public init(startDate: Date, endDate: Date, notificationType: String? = nil, transactionID: String? = nil, onlyFailures: Bool = false) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.transactionID = transactionID
        self.onlyFailures = onlyFailures
    }

    /// The JSON body, or `.invalidRequest` when Apple would refuse the window.
    func body(now: Date) throws(AppStoreAPIError) -> [UInt8] {
        guard startDate >= now.addingTimeInterval(-Self.maximumAge) else {
            throw .invalidRequest(
                reason:
                    "notification history reaches back at most 180 days; start at \(now.addingTimeInterval(-Self.maximumAge).ISO8601Format()) or later"
            )
        }
        guard endDate > startDate else {
            throw .invalidRequest(reason: "the notification history end must be after its start")
        }
        let wire = AppStoreAPIWire.NotificationHistoryRequest(
            startDate: Self.milliseconds(startDate),
            endDate: Self.milliseconds(endDate),
            notificationType: notificationType,
            transactionId: transactionID,
            onlyFailures: onlyFailures ? true : nil
        )
        guard let data = try? JSONEncoder().encode(wire) else {
            throw .invalidRequest(reason: "cannot encode the notification history request")
        }
        return Array(data)
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return Int64(min(max(ms, 0), 253_402_300_799_999))
    }
}
