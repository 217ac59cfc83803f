import Foundation

/// One of an app's `"retention"` rules: when it matches, what the customer is shown.
public struct RetentionRule: Sendable, Hashable {
    public let match: RetentionMatch
    public let action: RetentionAction

    public init(match: RetentionMatch, action: RetentionAction) {
        self.match = match
        self.action = action
    }

    /// Every product the rule names (matched, asked about, switched to or offered), for the
    /// check against the catalog.
    public var productIDs: Set<String> {
        var ids = Set(match.eligibility.keys)
        if let id = match.productID { ids.insert(id) }
        if let id = action.productID { ids.insert(id) }
        return ids
    }
}

/// An app's retention rules in order: the first that matches, and whose offer (if it makes
/// one) the customer may have, chooses the answer (DESIGN.md, "Apple's 2025–2026 server features").
///
/// Pure: the same rules and subject always give the same answer.
public struct RetentionRules: Sendable, Hashable {
    public let rules: [RetentionRule]

    public init(_ rules: [RetentionRule]) {
        self.rules = rules
    }

    /// No rules: Apple shows its default message.
    public static let none = RetentionRules([])

    public var isEmpty: Bool { rules.isEmpty }

    /// The answer for `subject`, or nil when no rule applies (Apple then shows the default
    /// message). A promotional offer whose audiences exclude the customer is passed over, so
    /// a later rule can answer instead.
    public func action(for subject: RetentionSubject) -> RetentionAction? {
        index(for: subject).map { rules[$0].action }
    }

    /// The position of the rule that answers for `subject`, as ``action(for:)`` chooses it.
    public func index(for subject: RetentionSubject) -> Int? {
        rules.firstIndex { rule in
            guard rule.match.holds(for: subject) else { return false }
            guard let offer = rule.action.offer else { return true }
            return subject.admittedOffers.contains(offer)
        }
    }

    /// The products whose eligibility the rules ask about.
    public var eligibilityProducts: [String] {
        Array(Set(rules.flatMap(\.match.eligibility.keys))).sorted()
    }

    /// The promotional offers the rules make.
    public var offers: Set<PromotionalOfferKey> {
        Set(rules.compactMap(\.action.offer))
    }

    /// Every product the rules name.
    public var productIDs: Set<String> {
        rules.reduce(into: Set<String>()) { $0.formUnion($1.productIDs) }
    }

    /// The messages the rules show.
    public var messageIdentifiers: Set<String> {
        Set(rules.map { $0.action.messageIdentifier.uuidString.lowercased() })
    }

    /// The first product a rule of the app `bundleID` names that `catalog` does not list for
    /// that app, said for a startup error; also an offer the product's catalog entry does not
    /// list, and an alternate product or offer that is not an auto-renewable subscription.
    public func problem(against catalog: ProductCatalog, bundleID: String) -> String? {
        for (index, rule) in rules.enumerated() {
            for id in rule.productIDs.sorted() {
                guard let product = catalog.product(id) else {
                    return "retention[\(index)] names the product \(id), which the catalog does not list"
                }
                guard product.bundleID == bundleID else {
                    return "retention[\(index)] names the product \(id), which the catalog lists for \(product.bundleID)"
                }
            }
            if let id = rule.action.productID, catalog.product(id)?.type != .autoRenewable {
                return "retention[\(index)] offers \(id), which is not an auto-renewable subscription"
            }
            if let offer = rule.action.offer, let listed = catalog.product(offer.productID)?.promotionalOffers,
                !listed.contains(where: { $0.offerID == offer.offerID })
            {
                return "retention[\(index)] signs the offer \(offer.offerID), which the catalog does not list for \(offer.productID)"
            }
        }
        return nil
    }
}
