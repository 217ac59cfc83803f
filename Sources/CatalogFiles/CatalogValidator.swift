import Foundation
import Subscriptions

/// Apple's catalog rules (APPSTORE.md, "Introductory offers") applied to one entry.
///
/// Every rule is checked even after one fails, so a file's problems all show at once.
enum CatalogValidator {
    /// The product the entry describes, or `nil`, with every problem (without the name prefix).
    static func check(_ entry: CatalogEntry) -> (product: Product?, problems: [String]) {
        var problems = entry.readProblems
        // Rules about fields that could not be read would only repeat the read problem.
        if entry.isUnreadable { return (nil, problems) }
        if entry.productID == nil { problems.append("missing product_id") }
        if entry.bundleID == nil { problems.append("missing bundle_id") }

        let type = entry.type.flatMap(ProductType.init(rawValue:))
        switch entry.type {
        case nil: problems.append("missing type")
        case let text? where type == nil:
            problems.append("unknown type \"\(text)\" (expected auto_renewable, non_renewing, consumable or non_consumable)")
        default: break
        }

        if type == .autoRenewable, entry.subscriptionGroupID == nil {
            problems.append("auto_renewable product has no subscription_group_id")
        }
        if let type, type != .autoRenewable, entry.subscriptionGroupID != nil {
            // A group on a one-off purchase would pull it into the group's eligibility.
            problems.append("subscription_group_id given for a \(type.rawValue) product (only auto_renewable products have a group)")
        }

        let period = entry.period.flatMap(ISO8601Duration.init)
        if let text = entry.period, period == nil {
            problems.append("bad ISO 8601 duration \"\(text)\" for period")
        } else if type == .autoRenewable, entry.period == nil {
            problems.append("auto_renewable product has no period")
        } else if let type, type == .consumable || type == .nonConsumable, entry.period != nil {
            problems.append("period given for a \(type.rawValue) product (only auto_renewable and non_renewing products have one)")
        }

        let trialPeriod = entry.trialPeriod.flatMap(ISO8601Duration.init)
        if let text = entry.trialPeriod, trialPeriod == nil {
            problems.append("bad ISO 8601 duration \"\(text)\" for trial_period")
        }
        switch (entry.trialOf, entry.trialPeriod) {
        case (_?, nil): problems.append("trial_of given without trial_period")
        case (nil, _?): problems.append("trial_period given without trial_of")
        case (_?, _?):
            if let type, type != .nonConsumable {
                problems.append("trial_of given for a \(type.rawValue) product (a trial is a free non_consumable)")
            }
        case (nil, nil): break
        }

        var offer: IntroOffer?
        if entry.introOffers.count > 1 {
            problems.append("more than one intro offer (\(entry.introOffers.count))")
        } else if let raw = entry.introOffers.first {
            if let type, type != .autoRenewable {
                problems.append("intro offer on a \(type.rawValue) product (only auto_renewable products have one)")
            }
            let checked = checkOffer(raw, basePeriod: period)
            offer = checked.offer
            problems += checked.problems
        }

        let promotionalOffers = checkPromotionalOffers(entry.promotionalOffers, type: type, problems: &problems)
        let price = storePrice(entry.price, entry.currency, field: "", problems: &problems)
        var prices: [String: StorePrice]?
        if let stated = entry.prices {
            prices = [:]
            for (storefront, text, currency) in stated {
                if !ExchangeRates.isCurrencyCode(storefront) {
                    problems.append("prices has \"\(storefront)\", which is not a storefront code (three upper-case letters, such as DEU)")
                }
                guard text != nil || currency != nil else {
                    problems.append("prices.\(storefront) needs price and currency")
                    continue
                }
                prices?[storefront] = storePrice(text, currency, field: "prices.\(storefront).", problems: &problems)
            }
        }

        guard problems.isEmpty, let productID = entry.productID, let bundleID = entry.bundleID, let type else {
            return (nil, problems)
        }
        let product = Product(
            productID: productID,
            bundleID: bundleID,
            type: type,
            subscriptionGroupID: entry.subscriptionGroupID,
            period: period,
            introOffer: offer,
            trialOf: entry.trialOf,
            trialPeriod: trialPeriod,
            promotionalOffers: promotionalOffers,
            price: price,
            prices: prices
        )
        return (product, [])
    }

    /// A price and its currency, both or neither: a decimal of zero or more, three
    /// upper-case letters.
    private static func storePrice(_ text: String?, _ currency: String?, field: String, problems: inout [String]) -> StorePrice? {
        switch (text, currency) {
        case (nil, nil): return nil
        case (_?, nil): problems.append("\(field)price given without \(field)currency")
        case (nil, _?): problems.append("\(field)currency given without \(field)price")
        case (let text?, let currency?):
            var amount: Decimal?
            switch CatalogPrice.read(text) {
            case .price(let value): amount = value
            case .negative: problems.append("\(field)price \(text) is negative")
            case .notDecimal: problems.append("\(field)price \"\(text)\" is not a decimal such as 9.99")
            }
            guard ExchangeRates.isCurrencyCode(currency) else {
                problems.append("\(field)currency \"\(currency)\" is not three upper-case letters such as EUR")
                return nil
            }
            return amount.map { StorePrice(amount: $0, currency: currency) }
        }
        return nil
    }

    /// `promotional_offers`: auto-renewable products only, each with a unique `id` and at
    /// least one known audience.
    private static func checkPromotionalOffers(
        _ raw: [(id: String?, audiences: [String])]?, type: ProductType?, problems: inout [String]
    ) -> [PromotionalOfferRule]? {
        guard let raw else { return nil }
        if let type, type != .autoRenewable {
            problems.append("promotional_offers on a \(type.rawValue) product (only auto_renewable products have them)")
        }
        var rules: [PromotionalOfferRule] = []
        let known = OfferAudience.allCases.map(\.rawValue).joined(separator: ", ")
        for (index, offer) in raw.enumerated() {
            let field = "promotional_offers[\(index)]"
            guard let id = offer.id else {
                problems.append("\(field) has no id")
                continue
            }
            if rules.contains(where: { $0.offerID == id }) { problems.append("\(field): offer \(id) is listed twice") }
            let audiences = offer.audiences.compactMap(OfferAudience.init(rawValue:))
            for name in offer.audiences where OfferAudience(rawValue: name) == nil {
                problems.append("\(field): unknown audience \"\(name)\" (expected \(known))")
            }
            if offer.audiences.isEmpty { problems.append("\(field).for names no audience (expected some of \(known))") }
            rules.append(PromotionalOfferRule(offerID: id, audiences: audiences))
        }
        return rules
    }
}
