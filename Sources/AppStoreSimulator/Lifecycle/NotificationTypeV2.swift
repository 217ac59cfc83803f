/// A v2 notification's `notificationType` with its `subtype`, as Apple spells them.
public struct NotificationTypeV2: Sendable, Hashable, CustomStringConvertible {
    /// `notificationType`, e.g. `SUBSCRIBED`.
    public var notificationType: String
    /// `subtype`, e.g. `INITIAL_BUY`; `nil` when Apple sends none.
    public var subtype: String?

    /// A type with an optional subtype.
    public init(_ notificationType: String, _ subtype: String? = nil) {
        self.notificationType = notificationType
        self.subtype = subtype
    }

    /// `TYPE` or `TYPE/SUBTYPE`.
    public var description: String {
        subtype.map { "\(notificationType)/\($0)" } ?? notificationType
    }

    /// The `TEST` notification Apple sends on request.
    public static let test = NotificationTypeV2("TEST")
}
