import Subscriptions

/// An intro offer as a file states it, before any rule is checked (see `CatalogEntry`).
struct RawIntroOffer: Sendable {
    var paymentMode: String?
    var period: String?
    /// The number of periods as text; absent means 1.
    var periods: String?
    /// The price as text; JSON numbers are turned into their shortest decimal text.
    var price: String?
}
