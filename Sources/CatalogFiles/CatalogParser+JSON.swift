import Foundation
import JSON
import Subscriptions

extension CatalogParser {
    /// The entries of a JSON catalog, or the one problem that stops reading it at all. Read
    /// by the strict parser every other JSON input goes through (a duplicate key is refused),
    /// field by field, so a wrong type is a problem line, not one error for the whole file.
    static func entries(json: [UInt8]) -> Result<(products: [CatalogEntry], entitlements: [EntitlementEntry]?), CatalogProblems> {
        guard let root = try? StrictJSONParser.parse(json) else {
            return .failure(CatalogProblems(lines: ["catalog: not valid JSON"]))
        }
        guard case .object(let top) = root, case .array(let items)? = top["products"] else {
            return .failure(CatalogProblems(lines: ["catalog: expected an object with a \"products\" array"]))
        }
        let products = items.enumerated().map { index, item in entry(item, position: "products[\(index)]") }
        switch top["entitlements"] {
        case nil, .null?:
            return .success((products, nil))
        case .array(let items)?:
            return .success((products, items.enumerated().map { index, item in entitlement(item, position: "entitlements[\(index)]") }))
        default:
            return .failure(CatalogProblems(lines: ["catalog: \"entitlements\" must be an array"]))
        }
    }

    private static func entitlement(_ item: JSONValue, position: String) -> EntitlementEntry {
        var entry = EntitlementEntry(position: position)
        guard case .object(let fields) = item else {
            entry.readProblems.append("expected an object with \"id\" and \"product_ids\"")
            return entry
        }
        var reader = FieldReader(fields: fields)
        entry.id = reader.text("id")
        entry.readProblems = reader.problems
        switch fields["product_ids"] {
        case nil, .null?: entry.readProblems.append("missing product_ids")
        case .array(let ids)?:
            for (index, id) in ids.enumerated() {
                if case .string(let text) = id, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    entry.productIDs.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
                } else {
                    entry.readProblems.append("product_ids[\(index)] must be a product id (a non-empty string)")
                }
            }
        default: entry.readProblems.append("product_ids must be an array of product ids")
        }
        return entry
    }

    private static func entry(_ item: JSONValue, position: String) -> CatalogEntry {
        var entry = CatalogEntry(position: position)
        guard case .object(let fields) = item else {
            entry.readProblems.append("expected an object")
            entry.isUnreadable = true
            return entry
        }
        var reader = FieldReader(fields: fields)
        entry.productID = reader.text("product_id")
        entry.bundleID = reader.text("bundle_id")
        entry.type = reader.text("type")
        // Apple's group ids are numeric strings; people write them as numbers too.
        entry.subscriptionGroupID = reader.text("subscription_group_id", allowNumber: true)
        entry.period = reader.text("period")
        entry.trialOf = reader.text("trial_of")
        entry.trialPeriod = reader.text("trial_period")
        entry.price = reader.text("price", allowNumber: true)
        entry.currency = reader.text("currency")
        entry.readProblems = reader.problems
        storefrontPrices(fields["prices"], into: &entry)
        promotionalOffers(fields["promotional_offers"], into: &entry)

        switch fields["intro_offer"] {
        case nil, .null?: break
        case .object(let offer)?: entry.introOffers = [introOffer(offer, field: "intro_offer", into: &entry)]
        case .array(let offers)?:
            for (index, offer) in offers.enumerated() {
                if case .object(let fields) = offer {
                    entry.introOffers.append(introOffer(fields, field: "intro_offer[\(index)]", into: &entry))
                } else {
                    entry.readProblems.append("intro_offer[\(index)] must be an object")
                }
            }
        default: entry.readProblems.append("intro_offer must be an object")
        }
        return entry
    }

    /// `"prices": {"DEU": {"price": "9.99", "currency": "EUR"}, ...}`.
    private static func storefrontPrices(_ value: JSONValue?, into entry: inout CatalogEntry) {
        switch value {
        case nil, .null?: return
        case .object(let storefronts)?:
            entry.prices = storefronts.keys.sorted().map { storefront in
                guard case .object(let fields)? = storefronts[storefront] else {
                    entry.readProblems.append("prices.\(storefront) must be an object with price and currency")
                    return (storefront, nil, nil)
                }
                var reader = FieldReader(fields: fields, prefix: "prices.\(storefront).")
                let price = reader.text("price", allowNumber: true)
                let currency = reader.text("currency")
                entry.readProblems += reader.problems
                return (storefront, price, currency)
            }
        default:
            entry.readProblems.append(
                "prices must be an object of storefront codes, such as {\"DEU\": {\"price\": \"9.99\", \"currency\": \"EUR\"}}")
        }
    }

    /// `"promotional_offers": [{"id": "comeback50", "for": ["lapsed"]}, ...]`.
    private static func promotionalOffers(_ value: JSONValue?, into entry: inout CatalogEntry) {
        switch value {
        case nil, .null?: return
        case .array(let items)?:
            entry.promotionalOffers = items.enumerated().map { index, item in
                let field = "promotional_offers[\(index)]"
                guard case .object(let fields) = item else {
                    entry.readProblems.append("\(field) must be an object with \"id\" and \"for\"")
                    return (nil, [])
                }
                var reader = FieldReader(fields: fields, prefix: field + ".")
                let id = reader.text("id")
                entry.readProblems += reader.problems
                var audiences: [String] = []
                switch fields["for"] {
                case .array(let names)?:
                    for (position, name) in names.enumerated() {
                        if case .string(let text) = name {
                            audiences.append(text)
                        } else {
                            entry.readProblems.append("\(field).for[\(position)] must be a string")
                        }
                    }
                default: entry.readProblems.append("\(field).for must be an array of audiences")
                }
                return (id, audiences)
            }
        default: entry.readProblems.append("promotional_offers must be an array")
        }
    }

    private static func introOffer(_ fields: [String: JSONValue], field: String, into entry: inout CatalogEntry) -> RawIntroOffer {
        var reader = FieldReader(fields: fields, prefix: field + ".")
        let offer = RawIntroOffer(
            paymentMode: reader.text("payment_mode"),
            period: reader.text("period"),
            periods: reader.text("periods", allowNumber: true),
            price: reader.text("price", allowNumber: true)
        )
        entry.readProblems += reader.problems
        return offer
    }
}

/// Reads text fields of one JSON object, noting fields of the wrong type.
private struct FieldReader {
    let fields: [String: JSONValue]
    var prefix = ""
    var problems: [String] = []

    /// Trimmed text, `nil` when absent, null or empty; a number only when `allowNumber`.
    mutating func text(_ key: String, allowNumber: Bool = false) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?:
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let value)? where allowNumber:
            // What Foundation read the number as, written the way the catalog keeps numbers.
            guard let double = value.double, double.isFinite else { fallthrough }
            return CatalogNumber.text(of: double)
        default:
            problems.append("\(prefix)\(key) must be a \(allowNumber ? "string or number" : "string")")
            return nil
        }
    }
}
