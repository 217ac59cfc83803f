import Foundation

/// The `appData` object of app-level version 2 notifications (RESCIND_CONSENT).
public struct NotificationV2AppData: Sendable, Decodable, Hashable {
    /// `appAppleId`.
    public var appAppleID: String?
    /// `bundleId`.
    public var bundleID: String?
    /// `environment` exactly as sent.
    public var environmentRaw: String?
    /// `signedAppTransactionInfo`: a JWS, not verified by this library yet.
    public var signedAppTransactionInfo: String?

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleKey.self)
        appAppleID = try container.v2ID("appAppleId")
        bundleID = try container.v2String("bundleId")
        environmentRaw = try container.v2String("environment")
        signedAppTransactionInfo = try container.v2String("signedAppTransactionInfo")
    }
}
