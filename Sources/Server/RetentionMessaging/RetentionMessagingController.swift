import Foundation
import Hummingbird
import Subscriptions
import UseCases

/// `POST /retention/appstore`: the App Store's Get Retention Message request
/// (`{"signedPayload"}`), answered with a `RealtimeResponseBody` chosen by the app's
/// `"retention"` rules, or `{}` (Apple's default message). Authenticated by Apple's signature
/// alone, as notification intake is: no API key.
struct RetentionMessagingController<Context: RequestContext> {
    /// A signed request carries a three-certificate chain: a few kilobytes.
    static var maximumBodyBytes: Int { 64 * 1024 }

    let retention: RetentionMessages

    func addRoutes(to router: Router<Context>) {
        router.post("/retention/appstore") { request, _ in
            let body = try await QueryRequest.object(request, maxBytes: Self.maximumBodyBytes)
            let signedPayload = try QueryRequest.string(body, "signedPayload", maxLength: Self.maximumBodyBytes)
            let answer: RetentionMessages.Answer
            do {
                answer = try await retention.answer(signedPayload: signedPayload)
            } catch UseCaseError.signatureRejected(let message) {
                // Not Apple's request for one of our apps: 401, as for a notification.
                throw APIError.unauthorized(message)
            }
            RetentionMetrics.answered(answer)
            return try JSONResponse(document: RealtimeResponseDocument(answer))
        }
    }
}

/// Apple's `RealtimeResponseBody`: exactly one of `message`, `alternateProduct` or
/// `promotionalOffer`, or nothing (`{}`: Apple shows the default message).
struct RealtimeResponseDocument: Encodable {
    let answer: RetentionMessages.Answer

    init(_ answer: RetentionMessages.Answer) {
        self.answer = answer
    }

    private enum CodingKeys: String, CodingKey {
        case message, alternateProduct, promotionalOffer
    }

    private enum FieldKeys: String, CodingKey {
        case messageIdentifier, productId, promotionalOfferSignatureV2
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        guard let action = answer.action else { return }
        let key: CodingKeys =
            switch action.kind {
            case .message: .message
            case .alternateProduct: .alternateProduct
            case .promotionalOffer: .promotionalOffer
            }
        var fields = container.nestedContainer(keyedBy: FieldKeys.self, forKey: key)
        try fields.encode(action.messageIdentifier.uuidString.lowercased(), forKey: .messageIdentifier)
        if case .alternateProduct(messageIdentifier: _, let productID) = action {
            try fields.encode(productID, forKey: .productId)
        }
        if action.kind == .promotionalOffer {
            try fields.encode(answer.promotionalOfferSignature, forKey: .promotionalOfferSignatureV2)
        }
    }
}
