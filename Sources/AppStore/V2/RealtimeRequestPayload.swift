import Foundation

/// The payload of the App Store's Get Retention Message request (Retention Messaging API,
/// `DecodedRealtimeRequestBody`): a customer is looking at a subscription they may cancel,
/// and the App Store asks which retention message to show. Decode it only from a verified JWS.
public struct RealtimeRequestPayload: Sendable, Decodable, Hashable {
    /// `originalTransactionId`: the subscription the customer is looking at.
    public var originalTransactionID: String?
    /// `appAppleId`: the app's Apple ID.
    public var appAppleID: String?
    /// `productId`: the subscription's current product.
    public var productID: String?
    /// `userLocale`: the device's locale, e.g. `en-US`.
    public var userLocale: String?
    /// `requestIdentifier`: a UUID per request, kept with what was answered.
    public var requestIdentifier: String?
    /// `environment`: `Sandbox` or `Production` (exactly as sent).
    public var environmentRaw: String?
    /// `signedDate`: when Apple signed it; the certificate validation time and its freshness.
    public var signedDate: Date?

    /// The normalised environment; nil for a value Apple has not defined.
    public var environment: AppStoreEnvironment? {
        environmentRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it, an unknown
    /// field is ignored.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        originalTransactionID = try c.v2ID("originalTransactionId")
        appAppleID = try c.v2ID("appAppleId")
        productID = try c.v2String("productId")
        userLocale = try c.v2String("userLocale")
        requestIdentifier = try c.v2String("requestIdentifier")
        environmentRaw = try c.v2String("environment")
        signedDate = try c.v2Date("signedDate")
    }
}
