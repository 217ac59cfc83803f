/// An app the simulator knows: its bundle id, shared secret and current build.
public struct SimApp: Sendable, Hashable {
    /// The bundle id, e.g. `com.example.app`.
    public var bundleID: String
    /// The app-specific shared secret (`password` in verifyReceipt and v1 notifications).
    public var sharedSecret: String
    /// `bvrs` and `application_version`: the app's CFBundleVersion.
    public var bundleVersion: String
    /// The app's Apple ID: v2's `appAppleId`, which subscriptiond checks in Production.
    public var appAppleID: Int

    /// An app from its parts.
    public init(bundleID: String, sharedSecret: String, bundleVersion: String = "42", appAppleID: Int = 1_234_567_890) {
        self.bundleID = bundleID
        self.sharedSecret = sharedSecret
        self.bundleVersion = bundleVersion
        self.appAppleID = appAppleID
    }
}
