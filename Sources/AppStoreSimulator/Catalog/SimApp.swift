/// An app the simulator knows: its bundle id, shared secret, current build and entitlement settings.
public struct SimApp: Sendable, Hashable {
    /// What an app does with purchases made in the sandbox (subscriptiond's `sandbox_entitlement`).
    public enum SandboxEntitlement: String, Sendable, Hashable, CaseIterable {
        /// Sandbox purchases grant entitlements (the default).
        case grant
        /// Sandbox purchases are kept but grant nothing.
        case ignore
    }

    /// The bundle id, e.g. `com.example.app`.
    public var bundleID: String
    /// The app-specific shared secret (`password` in verifyReceipt and v1 notifications).
    public var sharedSecret: String
    /// `bvrs` and `application_version`: the app's CFBundleVersion.
    public var bundleVersion: String
    /// The app's Apple ID: v2's `appAppleId`, which subscriptiond checks in Production.
    public var appAppleID: Int
    /// Earlier buyers of a formerly paid app who keep an entitlement, if the app has such a rule.
    public var grandfather: SimGrandfather?
    /// Whether sandbox purchases grant entitlements.
    public var sandboxEntitlement: SandboxEntitlement

    /// An app from its parts.
    public init(
        bundleID: String,
        sharedSecret: String,
        bundleVersion: String = "42",
        appAppleID: Int = 1_234_567_890,
        grandfather: SimGrandfather? = nil,
        sandboxEntitlement: SandboxEntitlement = .grant
    ) {
        self.bundleID = bundleID
        self.sharedSecret = sharedSecret
        self.bundleVersion = bundleVersion
        self.appAppleID = appAppleID
        self.grandfather = grandfather
        self.sandboxEntitlement = sandboxEntitlement
    }
}
