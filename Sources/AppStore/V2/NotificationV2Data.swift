import Foundation

/// The `data` object of a version 2 notification.
public struct NotificationV2Data: Sendable, Decodable, Hashable {
    /// `appAppleId`: the app's numeric Apple id (checked in Production only).
    public var appAppleID: String?
    /// `bundleId`.
    public var bundleID: String?
    /// `bundleVersion`.
    public var bundleVersion: String?
    /// `environment` exactly as sent (`Sandbox` or `Production`).
    public var environmentRaw: String?
    /// `signedTransactionInfo`: a JWS to verify before use.
    public var signedTransactionInfo: String?
    /// `signedRenewalInfo`: a JWS to verify before use.
    public var signedRenewalInfo: String?
    /// `status` code of the subscription (1 active … 5 revoked).
    public var statusRaw: Int?
    /// `consumptionRequestReason` on CONSUMPTION_REQUEST.
    public var consumptionRequestReason: String?

    /// The normalised environment.
    public var environment: AppStoreEnvironment? {
        environmentRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// The typed subscription status; `nil` when absent or unknown.
    public var status: SubscriptionStatusV2? {
        statusRaw.flatMap(SubscriptionStatusV2.init(rawValue:))
    }

    /// Builds data in code (tests, the simulator); unspecified fields are absent.
    public init(
        appAppleID: String? = nil, bundleID: String?, environmentRaw: String?,
        signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil, statusRaw: Int? = nil
    ) {
        self.appAppleID = appAppleID
        self.bundleID = bundleID
        self.environmentRaw = environmentRaw
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.statusRaw = statusRaw
    }

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleKey.self)
        appAppleID = try container.v2ID("appAppleId")
        bundleID = try container.v2String("bundleId")
        bundleVersion = try container.v2ID("bundleVersion")
        environmentRaw = try container.v2String("environment")
        signedTransactionInfo = try container.v2String("signedTransactionInfo")
        signedRenewalInfo = try container.v2String("signedRenewalInfo")
        statusRaw = try container.v2Int("status")
        consumptionRequestReason = try container.v2String("consumptionRequestReason")
    }
}
