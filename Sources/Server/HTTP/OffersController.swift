import Access
import AppStoreSignature
import Hummingbird
import JSON
import UseCases

/// `POST /v1/offers/sign {"app_user_id", "product_id", "offer_id", "format", "transaction_id",
/// "bundle_id"?}`: a promotional offer signed with the app's In-App Purchase key for a customer
/// this server verified (the transaction's Apple account), as StoreKit takes it (`format` `v2`, the default: `{"jws"}`; `v1`:
/// `{"key_id", "nonce", "timestamp", "signature", "app_account_token"}`).
struct OffersController<Context: PrincipalRequestContext> {
    let offers: OfferSignatures
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.postOfferSignature) { request, context in
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            let formatName = try QueryRequest.optionalString(body, "format") ?? OfferSignatures.Format.v2.rawValue
            guard let format = OfferSignatures.Format(rawValue: formatName) else {
                throw APIError.malformed("format must be v2 or v1")
            }
            let signed = try await offers.promotionalOffer(
                appUserID: try QueryRequest.string(body, "app_user_id"), productID: try QueryRequest.string(body, "product_id"),
                offerID: try QueryRequest.string(body, "offer_id"), format: format,
                transactionID: try QueryRequest.string(body, "transaction_id"),
                bundleID: try QueryRequest.optionalString(body, "bundle_id"), by: try context.requirePrincipal())
            return try JSONResponse(document: PromotionalOfferResponse(signed))
        }
    }
}

/// The answer of `POST /v1/offers/sign`.
struct PromotionalOfferResponse: Encodable {
    let signed: OfferSignatures.PromotionalOffer

    init(_ signed: OfferSignatures.PromotionalOffer) {
        self.signed = signed
    }

    private enum CodingKeys: String, CodingKey {
        case format, jws, keyID = "key_id", nonce, timestamp, signature, appAccountToken = "app_account_token"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch signed {
        case .v2(let jws):
            try container.encode("v2", forKey: .format)
            try container.encode(jws, forKey: .jws)
        case .v1(let signature, let appAccountToken):
            try container.encode("v1", forKey: .format)
            try container.encode(signature.keyID, forKey: .keyID)
            try container.encode(signature.nonce, forKey: .nonce)
            try container.encode(signature.timestamp, forKey: .timestamp)
            try container.encode(signature.signature, forKey: .signature)
            try container.encode(appAccountToken, forKey: .appAccountToken)
        }
    }
}
