import Subscriptions

/// One product as a file states it, before any rule is checked.
///
/// Both file formats read into this shape so that JSON and CSV are held to the same rules
/// (`CatalogValidator`). Values are trimmed text; empty text counts as absent.
struct CatalogEntry: Sendable {
    /// Where the entry is (`products[2]`, `line 4`): names it when the id is missing.
    var position: String
    var productID: String?
    var bundleID: String?
    var type: String?
    var subscriptionGroupID: String?
    var period: String?
    /// `trial_of` and `trial_period` (JSON only).
    var trialOf: String?
    var trialPeriod: String?
    /// `promotional_offers` (JSON only): each offer's id and audiences as written; nil when absent.
    var promotionalOffers: [(id: String?, audiences: [String])]?
    /// `price` and `currency`: what a purchase Apple does not price cost.
    var price: String?
    var currency: String?
    /// `prices` (JSON only): per storefront, the price and currency as written; nil when absent.
    var prices: [(storefront: String, price: String?, currency: String?)]?
    /// Every intro offer stated; the rules allow at most one.
    var introOffers: [RawIntroOffer] = []
    /// Shape problems met while reading (a field of the wrong JSON type), without the prefix.
    var readProblems: [String] = []
    /// The entry could not be read into fields at all; only `readProblems` apply.
    var isUnreadable = false

    /// The prefix of this entry's problem lines: the product id when known.
    var name: String { productID ?? position }
}
