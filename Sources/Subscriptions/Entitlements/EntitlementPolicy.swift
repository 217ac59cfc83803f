import AppStore

/// What one app's configuration says about entitlements (`SUBSCRIPTIOND_CONFIG`:
/// `grandfather`, `sandbox_entitlement`).
public struct EntitlementPolicy: Sendable, Hashable {
    /// Customers who first bought a version before `beforeVersion` have `entitlement` for good.
    public struct Grandfather: Sendable, Hashable {
        /// The first version that is not grandfathered.
        public let beforeVersion: DottedVersion
        /// The entitlement the earlier customers keep.
        public let entitlement: String

        /// Creates the rule.
        public init(beforeVersion: DottedVersion, entitlement: String) {
            self.beforeVersion = beforeVersion
            self.entitlement = entitlement
        }
    }

    /// Whether Sandbox purchases (TestFlight, sandbox testers) grant entitlements.
    public enum SandboxEntitlement: String, Sendable, Hashable, CaseIterable {
        /// They do (the default).
        case grant
        /// They do not: they show in `purchases`, and their entitlements say `"active": false`.
        case ignore
    }

    /// The app's grandfathering rule, if it has one.
    public let grandfather: Grandfather?
    /// Whether Sandbox purchases count.
    public let sandboxEntitlement: SandboxEntitlement
    /// Whether StoreKit Testing in Xcode purchases count: only in an app that accepts them
    /// (`xcode_certificate_file`), a local development deployment.
    public let xcodeEntitlement: Bool

    /// Creates a policy.
    public init(grandfather: Grandfather? = nil, sandboxEntitlement: SandboxEntitlement = .grant, xcodeEntitlement: Bool = false) {
        self.grandfather = grandfather
        self.sandboxEntitlement = sandboxEntitlement
        self.xcodeEntitlement = xcodeEntitlement
    }

    /// No grandfathering, Sandbox purchases count.
    public static let standard = EntitlementPolicy()

    /// Whether a purchase or proof made in `environment` may grant anything.
    public func counts(_ environment: AppStoreEnvironment) -> Bool {
        switch environment {
        case .production: true
        case .sandbox: sandboxEntitlement == .grant
        case .xcode: xcodeEntitlement
        }
    }

    /// A stable text naming the policy, for fingerprints of stored answers.
    public var fingerprint: String {
        "grandfather=\(grandfather.map { "\($0.beforeVersion)<\($0.entitlement)" } ?? "-");sandbox=\(sandboxEntitlement.rawValue)"
            + (xcodeEntitlement ? ";xcode=grant" : "")
    }
}
