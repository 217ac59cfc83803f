/// Who a purchase belongs to when more than one app user proves it (DESIGN.md, "Who owns a
/// purchase"), per app: `"link_policy"` in `SUBSCRIPTIOND_CONFIG`.
public enum LinkPolicy: String, Sendable, CaseIterable {
    /// The user who last proved the purchase owns it; the others are unlinked (the default,
    /// what a "restore purchases" button expects).
    case transfer
    /// Every user who proved it is linked.
    case share
    /// The first owner keeps it; another user's proof is refused.
    case refuse
}

/// Every app's link policy, by bundle id; an app not listed transfers.
public struct LinkPolicies: Sendable, Equatable {
    private let byBundleID: [String: LinkPolicy]

    public init(_ byBundleID: [String: LinkPolicy]) {
        self.byBundleID = byBundleID
    }

    /// `transfer` for every app.
    public static let standard = LinkPolicies([:])

    /// The policy of `bundleID`.
    public func policy(bundleID: String) -> LinkPolicy {
        byBundleID[bundleID] ?? .transfer
    }
}
