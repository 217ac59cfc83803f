import Foundation

/// What a retention rule shows the customer (Retention Messaging API, `RealtimeResponseBody`):
/// a message uploaded to Apple and approved in advance, alone or with a plan to switch to or a
/// promotional offer to stay for.
public enum RetentionAction: Sendable, Hashable {
    /// A text message (with or without an image).
    case message(messageIdentifier: UUID)
    /// A message with another subscription of the same group to switch to.
    case alternateProduct(messageIdentifier: UUID, productID: String)
    /// A message with a promotional offer of `productID`, signed for the customer's subscription.
    case promotionalOffer(messageIdentifier: UUID, productID: String, offerID: String)

    /// The kinds, as configuration and the recorded answers name them.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case message
        case alternateProduct = "alternate_product"
        case promotionalOffer = "promotional_offer"
    }

    /// This action's kind.
    public var kind: Kind {
        switch self {
        case .message: .message
        case .alternateProduct: .alternateProduct
        case .promotionalOffer: .promotionalOffer
        }
    }

    /// The message Apple shows.
    public var messageIdentifier: UUID {
        switch self {
        case .message(let id), .alternateProduct(let id, _), .promotionalOffer(let id, _, _): id
        }
    }

    /// The product it offers (to switch to, or the offer's), if any.
    public var productID: String? {
        switch self {
        case .message: nil
        case .alternateProduct(_, let productID), .promotionalOffer(_, let productID, _): productID
        }
    }

    /// The promotional offer it signs, if any.
    public var offer: PromotionalOfferKey? {
        guard case .promotionalOffer(_, let productID, let offerID) = self else { return nil }
        return PromotionalOfferKey(productID: productID, offerID: offerID)
    }
}

/// One promotional offer of one product.
public struct PromotionalOfferKey: Sendable, Hashable {
    public let productID: String
    public let offerID: String

    public init(productID: String, offerID: String) {
        self.productID = productID
        self.offerID = offerID
    }
}
