import Foundation
import Subscriptions
import Testing

/// One catalog entry that breaks a rule, and the exact lines the parser must print for it.
struct CatalogProblemCase: Sendable, CustomTestStringConvertible {
    var name: String
    var products: [String]
    var lines: [String]

    var testDescription: String { name }

    init(_ name: String, _ products: String..., lines: [String]) {
        self.name = name
        self.products = products
        self.lines = lines
    }
}

extension CatalogProblemCase {
    private typealias T = CatalogText
    private static let id = "com.example.pro.monthly"

    static let table: [CatalogProblemCase] = [
        .init(
            "unknown type", T.product(type: "subscription", group: nil, period: nil),
            lines: [
                "\(id): unknown type \"subscription\" (expected auto_renewable, non_renewing, consumable or non_consumable)"
            ]),
        .init("missing type", T.product(type: nil, group: nil, period: nil), lines: ["\(id): missing type"]),
        .init(
            "missing group for an auto-renewable", T.product(group: nil),
            lines: [
                "\(id): auto_renewable product has no subscription_group_id"
            ]),
        .init(
            "empty group counts as missing", T.product(group: " "),
            lines: [
                "\(id): auto_renewable product has no subscription_group_id"
            ]),
        .init(
            "missing period for an auto-renewable", T.product(period: nil),
            lines: [
                "\(id): auto_renewable product has no period"
            ]),
        .init(
            "bad base period", T.product(period: "1 month"),
            lines: [
                "\(id): bad ISO 8601 duration \"1 month\" for period"
            ]),
        .init(
            "base period with a time part", T.product(period: "PT720H"),
            lines: [
                "\(id): bad ISO 8601 duration \"PT720H\" for period"
            ]),
        .init(
            "pay as you go period differs from the base period",
            T.product(intro: T.offer(mode: "pay_as_you_go", period: "P1W", periods: "3", price: "\"0.99\"")),
            lines: [
                "\(id): pay_as_you_go intro period P1W differs from the base period P1M"
            ]),
        .init(
            "free trial shorter than 3 days", T.product(intro: T.offer(period: "P2D")),
            lines: [
                "\(id): free trial P2D is shorter than 3 days"
            ]),
        .init(
            "free trial longer than 1 year", T.product(intro: T.offer(period: "P13M")),
            lines: [
                "\(id): free trial P13M is longer than 1 year"
            ]),
        .init(
            "free trial periods multiply", T.product(intro: T.offer(period: "P6M", periods: "3")),
            lines: [
                "\(id): free trial 3 × P6M (P18M) is longer than 1 year"
            ]),
        .init(
            "more than one intro offer",
            T.product(intro: "[\(T.offer()), \(T.offer(mode: "pay_up_front", period: "P3M", price: "\"4.99\""))]"),
            lines: [
                "\(id): more than one intro offer (2)"
            ]),
        .init(
            "intro offer on a non-auto-renewable",
            T.product(type: "non_renewing", group: nil, period: nil, intro: T.offer()),
            lines: [
                "\(id): intro offer on a non_renewing product (only auto_renewable products have one)"
            ]),
        .init(
            "group on a consumable", T.product(id: "coins", type: "consumable", period: nil),
            lines: [
                "coins: subscription_group_id given for a consumable product (only auto_renewable products have a group)"
            ]),
        .init(
            "duplicate product id", T.product(), T.product(period: "P1Y"),
            lines: [
                "\(id): duplicate product id (first at products[0])"
            ]),
        .init(
            "bad intro duration", T.product(intro: T.offer(period: "P1Q")),
            lines: [
                "\(id): bad ISO 8601 duration \"P1Q\" for intro_offer.period"
            ]),
        .init(
            "zero intro duration", T.product(intro: T.offer(period: "P0D")),
            lines: [
                "\(id): bad ISO 8601 duration \"P0D\" for intro_offer.period"
            ]),
        .init(
            "negative price", T.product(intro: T.offer(mode: "pay_up_front", period: "P3M", price: "\"-1.00\"")),
            lines: [
                "\(id): negative intro price -1.00"
            ]),
        .init(
            "negative numeric price", T.product(intro: T.offer(mode: "pay_up_front", period: "P3M", price: "-2.5")),
            lines: [
                "\(id): negative intro price -2.5"
            ]),
        .init(
            "comma price", T.product(intro: T.offer(mode: "pay_up_front", period: "P3M", price: "\"4,99\"")),
            lines: [
                "\(id): intro price \"4,99\" is not a decimal number"
            ]),
        .init(
            "text price", T.product(intro: T.offer(mode: "pay_up_front", period: "P3M", price: "\"abc\"")),
            lines: [
                "\(id): intro price \"abc\" is not a decimal number"
            ]),
        .init(
            "boolean price", T.product(intro: T.offer(mode: "pay_up_front", period: "P3M", price: "true")),
            lines: [
                "\(id): intro_offer.price must be a string or number",
                "\(id): intro offer has no price",
            ]),
        .init(
            "zero periods", T.product(intro: T.offer(periods: "0")),
            lines: [
                "\(id): intro offer periods 0 is less than 1"
            ]),
        .init(
            "fractional periods", T.product(intro: T.offer(periods: "1.5")),
            lines: [
                "\(id): intro offer periods \"1.5\" is not a whole number"
            ]),
        .init(
            "free trial with a price", T.product(intro: T.offer(price: "\"0.99\"")),
            lines: [
                "\(id): free trial price 0.99 must be 0"
            ]),
        .init(
            "unknown payment mode", T.product(intro: T.offer(mode: "half_price")),
            lines: [
                "\(id): unknown intro payment_mode \"half_price\" (expected pay_as_you_go, pay_up_front or free_trial)"
            ]),
        .init(
            "paid offer without a price", T.product(intro: T.offer(mode: "pay_up_front", period: "P3M", price: nil)),
            lines: [
                "\(id): intro offer has no price"
            ]),
        .init(
            "offer without mode and period", T.product(intro: T.offer(mode: nil, period: nil)),
            lines: [
                "\(id): intro offer has no payment_mode",
                "\(id): intro offer has no period",
            ]),
        .init(
            "missing product id names the entry", T.product(), T.product(id: nil, period: "P1Y"),
            lines: [
                "products[1]: missing product_id"
            ]),
        .init("missing bundle id", T.product(bundle: nil), lines: ["\(id): missing bundle_id"]),
        .init(
            "product id of the wrong type", T.product(id: nil, extra: "\"product_id\": 42"),
            lines: [
                "products[0]: product_id must be a string",
                "products[0]: missing product_id",
            ]),
        .init("entry that is not an object", "\"com.example.x\"", lines: ["products[0]: expected an object"]),
        .init(
            "intro offer that is not an object", T.product(intro: "\"free\""),
            lines: [
                "\(id): intro_offer must be an object"
            ]),
        .init(
            "promotional offers on a one-time purchase",
            T.product(type: "non_consumable", group: nil, period: nil, extra: #""promotional_offers": [{"id": "x", "for": ["lapsed"]}]"#),
            lines: [
                "\(id): promotional_offers on a non_consumable product (only auto_renewable products have them)"
            ]),
        .init(
            "promotional offer without id, twice, or for unknown audiences",
            T.product(
                extra:
                    #""promotional_offers": [{"for": ["lapsed"]}, {"id": "a", "for": ["lapsed"]}, {"id": "a", "for": ["everyone"]}, {"id": "b", "for": []}]"#
            ),
            lines: [
                "\(id): promotional_offers[0] has no id",
                "\(id): promotional_offers[2]: offer a is listed twice",
                "\(id): promotional_offers[2]: unknown audience \"everyone\" (expected active, auto_renew_off, billing_retry, lapsed)",
                "\(id): promotional_offers[3].for names no audience (expected some of active, auto_renew_off, billing_retry, lapsed)",
            ]),
        .init(
            "promotional offers of the wrong shape",
            T.product(extra: #""promotional_offers": ["a", {"id": "b", "for": "lapsed"}, {"id": "c", "for": [1]}]"#),
            lines: [
                "\(id): promotional_offers[0] must be an object with \"id\" and \"for\"",
                "\(id): promotional_offers[1].for must be an array of audiences",
                "\(id): promotional_offers[2].for[0] must be a string",
                "\(id): promotional_offers[0] has no id",
                "\(id): promotional_offers[1].for names no audience (expected some of active, auto_renew_off, billing_retry, lapsed)",
                "\(id): promotional_offers[2].for names no audience (expected some of active, auto_renew_off, billing_retry, lapsed)",
            ]),
        .init(
            "promotional offers that are not an array", T.product(extra: #""promotional_offers": {}"#),
            lines: ["\(id): promotional_offers must be an array"]),
    ]
}
