/// The two fields of a version 1 body that authenticate it: `bid` and `password`.
///
/// Read before anything else of the body, with the same lenient rules as
/// ``NotificationV1``, so an unauthenticated sender costs a parse and a constant-time
/// compare, never a full typed decode of whatever it sent.
public struct NotificationV1Credentials: Decodable, Sendable {
    /// `bid`: the bundle id the body claims.
    public let bundleID: String?
    /// `password`: the shared secret the body offers. Compare it, never store or log it.
    public let password: String?

    /// Decodes the two fields; every other member is ignored.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        bundleID = c.lenientString("bid")
        password = c.lenientString("password")
    }
}
