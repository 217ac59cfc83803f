/// The kind of offer a subscription period was bought with (the contract's `offer_type`).
public enum OfferKind: String, Sendable, Hashable, Codable {
    /// An introductory offer (free trial, pay as you go, pay up front).
    case introductory
    /// A promotional offer.
    case promotional
    /// An offer code.
    case offerCode = "offer_code"
    /// A win-back offer.
    case winBack = "win_back"

    /// Apple's v2 `offerType` number.
    public init?(offerType: Int) {
        switch offerType {
        case 1: self = .introductory
        case 2: self = .promotional
        case 3: self = .offerCode
        case 4: self = .winBack
        default: return nil
        }
    }
}

extension TransactionFact {
    /// The period's offer: Apple's v2 `offerType` when known, else what a v1 receipt shows
    /// (trial or intro flags, a promotional offer id, an offer code name).
    public var offerKind: OfferKind? {
        if let offerType { return OfferKind(offerType: offerType) }
        if isTrialPeriod || isInIntroOfferPeriod { return .introductory }
        if promotionalOfferID != nil { return .promotional }
        if offerCodeRefName != nil { return .offerCode }
        return nil
    }
}
