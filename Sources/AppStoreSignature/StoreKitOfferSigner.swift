import Crypto
import Foundation

/// The signatures StoreKit accepts from the developer's server, made with the app's In-App
/// Purchase key (the `.p8` that also signs App Store Server API tokens): the
/// introductory-offer eligibility JWS, the promotional-offer JWS, and the promotional-offer
/// signature of the original StoreKit API. Claims, audiences and the v1 field order are
/// those of Apple's server library (APPSTORE.md, "Signatures the server gives the app").
/// Never log the key; a signature is only as secret as the offer it grants.
public struct StoreKitOfferSigner: Sendable {
    /// The key's identifier in App Store Connect (the JWS `kid`, the v1 `keyIdentifier`).
    public var keyID: String { key.keyID }
    private let key: InAppPurchaseKey

    /// A signer for one app; `privateKeyPEM` is the `.p8` file's text.
    public init(privateKeyPEM: String, keyID: String, issuerID: String, bundleID: String) throws {
        key = try InAppPurchaseKey(privateKeyPEM: privateKeyPEM, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }

    /// The JWS for StoreKit's `introductoryOfferEligibility(compactJWS:)` purchase option:
    /// whether the customer who owns `transactionID` (any of their transactions, or their
    /// app transaction id) may buy `productID` with its introductory offer.
    public func introductoryOfferEligibility(
        productID: String, allowIntroductoryOffer: Bool, transactionID: String, nonce: UUID = UUID(), now: Date = Date()
    ) throws -> String {
        try jws(
            audience: "introductory-offer-eligibility", nonce: nonce, now: now,
            claims: ["productId": productID, "allowIntroductoryOffer": allowIntroductoryOffer, "transactionId": transactionID])
    }

    /// The JWS for StoreKit's promotional-offer purchase option: `offerID` of `productID`, for
    /// the customer who owns `transactionID` when given (Apple recommends giving it).
    public func promotionalOffer(
        productID: String, offerID: String, transactionID: String?, nonce: UUID = UUID(), now: Date = Date()
    ) throws -> String {
        var claims: [String: Any] = ["productId": productID, "offerIdentifier": offerID]
        if let transactionID { claims["transactionId"] = transactionID }
        return try jws(audience: "promotional-offer", nonce: nonce, now: now, claims: claims)
    }

    /// The original API's promotional-offer signature (`SKPaymentDiscount`, or StoreKit 2's
    /// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`): ECDSA P-256 with
    /// SHA-256 over `promotionalOfferV1Message`, DER, base64. `appAccountToken` is what the
    /// purchase carries as `applicationUsername` / `appAccountToken` ("" for none).
    public func promotionalOfferV1(
        productID: String, offerID: String, appAccountToken: String, nonce: UUID = UUID(), now: Date = Date()
    ) throws -> PromotionalOfferSignatureV1 {
        let timestamp = now.claimMilliseconds
        let message = Self.promotionalOfferV1Message(
            bundleID: key.bundleID, keyID: keyID, productID: productID, offerID: offerID, appAccountToken: appAccountToken,
            nonce: nonce, timestamp: timestamp)
        let signature = try key.key.signature(for: Array(message.utf8))
        return PromotionalOfferSignatureV1(
            keyID: keyID, nonce: nonce.uuidString.lowercased(), timestamp: timestamp,
            signature: signature.derRepresentation.base64EncodedString())
    }

    /// The text a v1 promotional-offer signature signs: the bundle id, key id, product id,
    /// offer id, application user name (lower-case), nonce (lower-case) and timestamp (ms),
    /// joined by U+2063 INVISIBLE SEPARATOR, in that order.
    public static func promotionalOfferV1Message(
        bundleID: String, keyID: String, productID: String, offerID: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) -> String {
        [bundleID, keyID, productID, offerID, appAccountToken.lowercased(), nonce.uuidString.lowercased(), String(timestamp)]
            .joined(separator: "\u{2063}")
    }

    private func jws(audience: String, nonce: UUID, now: Date, claims: [String: Any]) throws -> String {
        let base: [String: Any] = [
            "iss": key.issuerID, "iat": now.claimSeconds, "aud": audience, "bid": key.bundleID, "nonce": nonce.uuidString.lowercased(),
        ]
        return try key.jws(claims: base.merging(claims) { first, _ in first })
    }
}

/// What the app passes to StoreKit with a v1 promotional offer.
public struct PromotionalOfferSignatureV1: Sendable, Equatable {
    /// The In-App Purchase key's identifier.
    public let keyID: String
    /// The lower-case UUID that was signed.
    public let nonce: String
    /// Milliseconds since 1970 when it was signed; StoreKit accepts it for 24 hours.
    public let timestamp: Int64
    /// Base64 of the DER ECDSA signature.
    public let signature: String
}
