/// Where the app account tokens handed out are kept (`AppAccountTokenStore` in production).
public protocol AppAccountTokenRepository: Sendable {
    /// The installation's token namespace (16 bytes).
    func namespace() async throws -> [UInt8]
    /// The token recorded for the user in the app, else `candidate`, recorded now.
    func token(bundleID: String, appUserID: String, recordingIfNone candidate: String) async throws -> String
}
