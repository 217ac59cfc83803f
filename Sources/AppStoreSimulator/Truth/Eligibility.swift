import Foundation

/// Whether a customer may get a product's introductory offer.
public enum Eligibility: String, Sendable, Hashable, Codable {
    /// The offer applies at purchase.
    case eligible
    /// The customer used an offer in the group, or is subscribed in it now.
    case ineligible
    /// The product has no introductory offer.
    case noIntroOffer = "no_intro_offer"
    /// The product is not in the catalog.
    case unknownProduct = "unknown_product"
}

extension CustomerState {
    /// Apple's rule (APPSTORE.md, "Introductory offers"): ineligible after any trial or intro
    /// period in the product's group (refunded ones count) or while entitled in that group.
    public func eligibility(for product: SimProduct?, at date: Date) -> Eligibility {
        guard let product else { return .unknownProduct }
        guard product.introOffer != nil else { return .noIntroOffer }
        let usedOffer = transactions.contains {
            $0.groupID == product.groupID && ($0.isTrialPeriod || $0.isInIntroOfferPeriod)
        }
        let entitled = subscription(inGroup: product.groupID)?.status(at: date).isEntitled ?? false
        return usedOffer || entitled ? .ineligible : .eligible
    }
}
