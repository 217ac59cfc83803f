import Foundation

/// The `summary` object of a RENEWAL_EXTENSION / SUMMARY notification.
public struct NotificationV2Summary: Sendable, Decodable, Hashable {
    /// `requestIdentifier` of the mass renewal-date extension.
    public var requestIdentifier: String?
    /// `environment` exactly as sent.
    public var environmentRaw: String?
    /// `appAppleId`.
    public var appAppleID: String?
    /// `bundleId`.
    public var bundleID: String?
    /// `productId`.
    public var productID: String?
    /// `storefrontCountryCodes`.
    public var storefrontCountryCodes: [String]?
    /// `failedCount`.
    public var failedCount: Int?
    /// `succeededCount`.
    public var succeededCount: Int?

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleKey.self)
        requestIdentifier = try container.v2String("requestIdentifier")
        environmentRaw = try container.v2String("environment")
        appAppleID = try container.v2ID("appAppleId")
        bundleID = try container.v2String("bundleId")
        productID = try container.v2String("productId")
        storefrontCountryCodes = try container.v2Strings("storefrontCountryCodes")
        failedCount = try container.v2Int("failedCount")
        succeededCount = try container.v2Int("succeededCount")
    }
}
