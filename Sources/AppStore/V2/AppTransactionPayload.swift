import Foundation

/// A decoded StoreKit 2 `AppTransaction` (`AppTransaction.jwsRepresentation` sent by an
/// app): Apple's word on who bought the app and which version first. Decode it only from a
/// verified JWS.
public struct AppTransactionPayload: Sendable, Decodable, Hashable {
    /// `receiptType`: `Production` or `Sandbox` (exactly as sent).
    public var receiptTypeRaw: String?
    /// `bundleId`.
    public var bundleID: String?
    /// `appAppleId`: the app's Apple ID (absent in Sandbox).
    public var appAppleID: String?
    /// `applicationVersion`: the version running now.
    public var applicationVersion: String?
    /// `originalApplicationVersion`: the version the customer first bought.
    public var originalApplicationVersion: String?
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: Date?
    /// `appTransactionId`: Apple's id of the customer's purchase of the app.
    public var appTransactionID: String?
    /// `signedDate`: when Apple signed it; the certificate validation time.
    public var signedDate: Date?

    /// The normalised environment.
    public var environment: AppStoreEnvironment? {
        receiptTypeRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// Decodes Apple's JSON; a known field of the wrong type is an error naming it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        receiptTypeRaw = try c.v2String("receiptType")
        bundleID = try c.v2String("bundleId")
        appAppleID = try c.v2ID("appAppleId")
        applicationVersion = try c.v2String("applicationVersion")
        originalApplicationVersion = try c.v2String("originalApplicationVersion")
        originalPurchaseDate = try c.v2Date("originalPurchaseDate")
        appTransactionID = try c.v2ID("appTransactionId")
        signedDate = try c.v2Date("signedDate")
    }
}
