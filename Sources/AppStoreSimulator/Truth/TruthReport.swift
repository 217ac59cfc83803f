import Foundation

/// The truth of every customer at one moment.
public struct TruthReport: Sendable, Hashable {
    /// The moment the truth is for.
    public var at: Date
    /// The simulator's seed.
    public var seed: UInt64
    /// One entry per customer, in the order they were added.
    public var customers: [CustomerTruth]

    /// The truth of the customer `appUserID`.
    public func customer(_ appUserID: String) -> CustomerTruth? {
        customers.first { $0.appUserID == appUserID }
    }

    /// JSON: `{"at": RFC 3339, "seed": N, "customers": [...]}`, indented when `pretty`.
    public func jsonText(pretty: Bool = true) -> String {
        let value = JSONValue.object([
            ("at", .string(AppleDate.rfc3339(at))),
            ("at_ms", .string(AppleDate.milliseconds(at))),
            ("seed", .string(String(seed))),
            ("customers", .array(customers.map(\.json))),
        ])
        return pretty ? value.prettyText() : value.serialized()
    }
}
