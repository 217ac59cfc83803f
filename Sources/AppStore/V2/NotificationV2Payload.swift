import Foundation

/// The decoded payload of a version 2 notification (`responseBodyV2DecodedPayload`).
///
/// Forward compatible: raw strings are kept and typed views are optional, so a type Apple
/// adds later never fails decoding. Decode it only from a verified JWS.
public struct NotificationV2Payload: Sendable, Decodable, Hashable {
    /// `notificationType` exactly as sent.
    public var notificationTypeRaw: String?
    /// `subtype` exactly as sent.
    public var subtypeRaw: String?
    /// `notificationUUID`: the dedupe key (Apple re-signs redeliveries, so bytes differ).
    public var notificationUUID: String?
    /// `version` (`"2.0"`).
    public var version: String?
    /// `signedDate`: when Apple signed this payload; the certificate validation time.
    public var signedDate: Date?
    /// `data`: the app, environment and nested signed transaction and renewal info.
    public var data: NotificationV2Data?
    /// `summary`: present on RENEWAL_EXTENSION summaries instead of `data`.
    public var summary: NotificationV2Summary?
    /// `externalPurchaseToken`: present on EXTERNAL_PURCHASE_TOKEN instead of `data`.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// `appData`: present on app-level notifications (RESCIND_CONSENT) instead of `data`.
    public var appData: NotificationV2AppData?

    /// The typed notification type; `nil` for a type this code does not know yet.
    public var notificationType: NotificationV2Type? {
        notificationTypeRaw.flatMap(NotificationV2Type.init(rawValue:))
    }

    /// The typed subtype; `nil` when absent or unknown.
    public var subtype: NotificationV2Subtype? {
        subtypeRaw.flatMap(NotificationV2Subtype.init(rawValue:))
    }

    /// The bundle id from whichever part of the payload carries it.
    public var bundleID: String? {
        data?.bundleID ?? summary?.bundleID ?? externalPurchaseToken?.bundleID ?? appData?.bundleID
    }

    /// The environment from whichever part of the payload carries it.
    public var environment: AppStoreEnvironment? {
        let raw = data?.environmentRaw ?? summary?.environmentRaw ?? appData?.environmentRaw
        return raw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// The app's Apple id from whichever part of the payload carries it.
    public var appAppleID: String? {
        data?.appAppleID ?? summary?.appAppleID ?? externalPurchaseToken?.appAppleID ?? appData?.appAppleID
    }

    /// Builds a payload in code (tests, the simulator); unspecified fields are absent.
    public init(
        notificationTypeRaw: String?, subtypeRaw: String? = nil, notificationUUID: String?,
        version: String? = "2.0", signedDate: Date?, data: NotificationV2Data? = nil
    ) {
        self.notificationTypeRaw = notificationTypeRaw
        self.subtypeRaw = subtypeRaw
        self.notificationUUID = notificationUUID
        self.version = version
        self.signedDate = signedDate
        self.data = data
    }

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleKey.self)
        notificationTypeRaw = try container.v2String("notificationType")
        subtypeRaw = try container.v2String("subtype")
        notificationUUID = try container.v2String("notificationUUID")
        version = try container.v2String("version")
        signedDate = try container.v2Date("signedDate")
        data = try container.v2Object(NotificationV2Data.self, "data")
        summary = try container.v2Object(NotificationV2Summary.self, "summary")
        externalPurchaseToken = try container.v2Object(ExternalPurchaseToken.self, "externalPurchaseToken")
        appData = try container.v2Object(NotificationV2AppData.self, "appData")
    }
}
