import Subscriptions

/// A purchase's price and estimated proceeds for people, as the JSON's amounts read.
enum MoneyText {
    /// `9.99 EUR (apple)`, `-` when unpriced.
    static func price(_ money: PurchaseMoney?) -> String {
        money?.priceText ?? "-"
    }

    /// `7.14 EUR`, `-` when unpriced.
    static func proceeds(_ money: PurchaseMoney?) -> String {
        money?.proceedsText ?? "-"
    }

    /// `9.99 EUR (apple), proceeds about 7.14 EUR in DEU`, or what is unknown.
    static func line(_ money: PurchaseMoney?, storefront: String?) -> String {
        guard let money else { return "unpriced (Apple did not say, the catalog has no price)" + (storefront.map { " in \($0)" } ?? "") }
        return "\(price(money)), proceeds about \(proceeds(money))" + (storefront.map { " in \($0)" } ?? "")
    }
}
