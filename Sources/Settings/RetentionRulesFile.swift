import Foundation
import Subscriptions

/// An app's `"retention"` rules as `SUBSCRIPTIOND_CONFIG` writes them:
/// `[{"match": {"product_id", "status", "in_trial", "storefront", "auto_renew", "eligibility": {"<product_id>": "eligible"}},
///   "message": {"message_identifier"} | "alternate_product": {"message_identifier", "product_id"}
///   | "promotional_offer": {"message_identifier", "product_id", "offer_id"}}, ...]`.
struct RetentionRuleEntry: Decodable {
    /// `match`: every condition given must hold.
    struct Match: Decodable {
        let productID: String?
        let status: String?
        let inTrial: Bool?
        let storefront: String?
        let autoRenew: Bool?
        let eligibility: [String: String]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case productID = "product_id", status, inTrial = "in_trial", storefront, autoRenew = "auto_renew", eligibility
        }
    }

    /// The action's fields (each action uses those it needs; the rest must be absent).
    struct Action: Decodable {
        let messageIdentifier: String?
        let productID: String?
        let offerID: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case messageIdentifier = "message_identifier", productID = "product_id", offerID = "offer_id"
        }
    }

    let match: Match?
    let message: Action?
    let alternateProduct: Action?
    let promotionalOffer: Action?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case match, message, alternateProduct = "alternate_product", promotionalOffer = "promotional_offer"
    }

    /// The rule, checked: exactly one action, a UUID message identifier, known status and
    /// eligibility values, a three-letter storefront. Problems name the app and the rule.
    func rule(bundleID: String, index: Int, setting: String) throws -> RetentionRule {
        let place = "app \(bundleID): retention[\(index)]"
        func fail(_ problem: String) -> ConfigurationError { ConfigurationError(setting, "\(place) \(problem)") }
        let actions = [("message", message), ("alternate_product", alternateProduct), ("promotional_offer", promotionalOffer)]
            .filter { $0.1 != nil }
        guard actions.count == 1, let (name, fields) = actions.first, let fields else {
            throw fail("must have exactly one of message, alternate_product, promotional_offer")
        }
        guard let text = fields.messageIdentifier, let messageIdentifier = UUID(uuidString: text) else {
            throw fail("\(name).message_identifier must be the UUID of a message uploaded to Apple")
        }
        func required(_ value: String?, _ key: String) throws -> String {
            guard let value, !value.isEmpty else { throw fail("\(name).\(key) is required") }
            return value
        }
        func absent(_ value: String?, _ key: String) throws {
            if value != nil { throw fail("\(name) takes no \(key)") }
        }
        let action: RetentionAction
        switch name {
        case "message":
            try absent(fields.productID, "product_id")
            try absent(fields.offerID, "offer_id")
            action = .message(messageIdentifier: messageIdentifier)
        case "alternate_product":
            try absent(fields.offerID, "offer_id")
            action = .alternateProduct(messageIdentifier: messageIdentifier, productID: try required(fields.productID, "product_id"))
        default:
            action = .promotionalOffer(
                messageIdentifier: messageIdentifier, productID: try required(fields.productID, "product_id"),
                offerID: try required(fields.offerID, "offer_id"))
        }
        return RetentionRule(match: try checkedMatch(fail: fail), action: action)
    }

    private func checkedMatch(fail: (String) -> ConfigurationError) throws -> RetentionMatch {
        guard let match else { return RetentionMatch() }
        var checked = RetentionMatch(productID: match.productID, inTrial: match.inTrial, autoRenew: match.autoRenew)
        if let text = match.status {
            guard let status = SubscriptionStatus(rawValue: text) else {
                throw fail(
                    "match.status must be one of \(SubscriptionStatus.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
            }
            checked.status = status
        }
        if let text = match.storefront {
            let code = text.uppercased()
            guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw fail("match.storefront must be Apple's three-letter storefront code such as USA, got '\(text)'")
            }
            checked.storefront = code
        }
        for (productID, text) in match.eligibility ?? [:] {
            guard let answer = EligibilityAnswer(rawValue: text) else {
                throw fail(
                    "match.eligibility.\(productID) must be one of \(EligibilityAnswer.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'"
                )
            }
            checked.eligibility[productID] = answer
        }
        return checked
    }
}
