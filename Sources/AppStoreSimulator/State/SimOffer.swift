/// A promotional offer or an offer code redeemed for one period: never an introductory offer,
/// so it leaves the customer's intro-offer eligibility alone.
public struct SimOffer: Sendable, Hashable {
    /// v2's `offerType`: 2 promotional, 3 offer code.
    public enum Kind: Int, Sendable, Hashable {
        /// A promotional offer the app signed (v1 `promotional_offer_id`).
        case promotional = 2
        /// An offer code (v1 `offer_code_ref_name`).
        case offerCode = 3
    }

    /// Promotional or offer code.
    public var kind: Kind
    /// v2's `offerIdentifier`: the promotional offer id or the offer code's reference name.
    public var identifier: String
    /// v2's `offerDiscountType`: `PAY_AS_YOU_GO` or `PAY_UP_FRONT` (both one base period here).
    public var discountType: String
    /// What the period cost, in milliunits of the storefront's currency.
    public var priceMilliunits: Int

    /// An offer from its parts.
    public init(kind: Kind, identifier: String, discountType: String, priceMilliunits: Int) {
        self.kind = kind
        self.identifier = identifier
        self.discountType = discountType
        self.priceMilliunits = priceMilliunits
    }

    /// The offer code of the `offer-code` scenario: the first period at half the price in `storefront`.
    static func halfPriceCode(for product: SimProduct, in storefront: String) -> SimOffer {
        SimOffer(
            kind: .offerCode, identifier: "HALF-FIRST-PERIOD", discountType: "PAY_AS_YOU_GO",
            priceMilliunits: product.charge(in: storefront).milliunits / 2
        )
    }

    /// The promotional offer of the `promotional-offer` scenario: a lapsed customer comes back
    /// for one period at half the price in `storefront`.
    static func comeback(for product: SimProduct, in storefront: String) -> SimOffer {
        SimOffer(
            kind: .promotional, identifier: "comeback-half-price", discountType: "PAY_UP_FRONT",
            priceMilliunits: product.charge(in: storefront).milliunits / 2
        )
    }
}
