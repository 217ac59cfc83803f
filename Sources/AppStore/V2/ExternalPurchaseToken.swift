import Foundation

/// The `externalPurchaseToken` object of an EXTERNAL_PURCHASE_TOKEN notification.
public struct ExternalPurchaseToken: Sendable, Decodable, Hashable {
    /// `externalPurchaseId`.
    public var externalPurchaseID: String?
    /// `tokenCreationDate`.
    public var tokenCreationDate: Date?
    /// `appAppleId`.
    public var appAppleID: String?
    /// `bundleId`.
    public var bundleID: String?

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleKey.self)
        externalPurchaseID = try container.v2ID("externalPurchaseId")
        tokenCreationDate = try container.v2Date("tokenCreationDate")
        appAppleID = try container.v2ID("appAppleId")
        bundleID = try container.v2String("bundleId")
    }
}
