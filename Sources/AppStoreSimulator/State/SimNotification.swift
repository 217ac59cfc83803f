import Foundation

/// One v1 notification body, ready to POST.
public struct SimNotification: Sendable, Hashable {
    /// The customer it is about.
    public let customerID: String
    /// Its place in the customer's life, from 0.
    public let sequence: Int
    /// `notification_type`.
    public let type: NotificationType
    /// The environment (sandbox notifications are not retried by Apple).
    public let environment: SimEnvironment
    /// When the event happened in scenario time.
    public let date: Date
    /// The JSON body, exactly as sent.
    public let body: [UInt8]

    /// The body as text.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }
}
