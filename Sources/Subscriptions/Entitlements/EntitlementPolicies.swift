/// Every configured app's ``EntitlementPolicy``, by bundle id; an app without one (or not
/// configured) has the standard policy.
public struct EntitlementPolicies: Sendable, Hashable {
    private let byBundleID: [String: EntitlementPolicy]

    /// The policies of the apps that have one.
    public init(_ byBundleID: [String: EntitlementPolicy] = [:]) {
        self.byBundleID = byBundleID.filter { $0.value != .standard }
    }

    /// The policy of `bundleID`.
    public func policy(for bundleID: String) -> EntitlementPolicy {
        byBundleID[bundleID] ?? .standard
    }

    /// A stable text naming every policy, for the fingerprint of stored answers: answers
    /// stored under other policies are not served.
    public var fingerprint: String {
        byBundleID.keys.sorted().map { "\($0):\(byBundleID[$0]?.fingerprint ?? "")" }.joined(separator: "|")
    }
}
