/// Whether a customer may be shown a product's introductory offer (DESIGN.md, eligibility values).
public enum EligibilityAnswer: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple will apply the intro offer if the customer buys now.
    case eligible
    /// The customer used an offer in the product's group, or is subscribed in it.
    case ineligible
    /// The product is known but has no intro offer configured.
    case noIntroOffer = "no_intro_offer"
    /// The product is not in the catalog, so whether it has an offer is unknown.
    case unknownProduct = "unknown_product"
}
