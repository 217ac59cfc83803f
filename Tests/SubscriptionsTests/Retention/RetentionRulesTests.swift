import Foundation
import Subscriptions
import Testing

/// The app's `"retention"` rules, judged purely: each condition alone, all of them together,
/// first match wins, an offer the customer may not have is passed over, and the catalog check
/// startup makes.
@Suite("Retention rules")
struct RetentionRulesTests {
    static let message = UUID(uuidString: "11111111-1111-4111-8111-111111111111")!
    static let other = UUID(uuidString: "22222222-2222-4222-8222-222222222222")!

    /// A subject: an active monthly subscriber in the USA, not in a trial, renewing.
    static func subject(
        productID: String = "pro.monthly", status: SubscriptionStatus = .active, inTrial: Bool = false, storefront: String? = "USA",
        autoRenew: Bool? = true, eligibility: [String: EligibilityAnswer] = [:], admitted: Set<PromotionalOfferKey> = []
    ) -> RetentionSubject {
        RetentionSubject(
            productID: productID, status: status, inTrial: inTrial, storefront: storefront, autoRenew: autoRenew,
            eligibility: eligibility, admittedOffers: admitted)
    }

    static func only(_ match: RetentionMatch) -> RetentionRules {
        RetentionRules([RetentionRule(match: match, action: .message(messageIdentifier: message))])
    }

    @Test("each condition holds only for a subject it describes; an empty match holds for everyone")
    func eachCondition() {
        let cases: [(RetentionMatch, holds: RetentionSubject, fails: RetentionSubject)] = [
            (RetentionMatch(productID: "pro.monthly"), Self.subject(), Self.subject(productID: "pro.yearly")),
            (RetentionMatch(status: .billingRetry), Self.subject(status: .billingRetry), Self.subject()),
            (RetentionMatch(inTrial: true), Self.subject(inTrial: true), Self.subject()),
            (RetentionMatch(inTrial: false), Self.subject(), Self.subject(inTrial: true)),
            (RetentionMatch(storefront: "DEU"), Self.subject(storefront: "DEU"), Self.subject()),
            // A storefront Apple never sent matches no storefront condition.
            (RetentionMatch(storefront: "USA"), Self.subject(), Self.subject(storefront: nil)),
            (RetentionMatch(autoRenew: false), Self.subject(autoRenew: false), Self.subject(autoRenew: nil)),
            (
                RetentionMatch(eligibility: ["news": .eligible]), Self.subject(eligibility: ["news": .eligible]),
                Self.subject(eligibility: ["news": .ineligible])
            ),
        ]
        for (match, holds, fails) in cases {
            #expect(match.holds(for: holds), "\(match)")
            #expect(!match.holds(for: fails), "\(match)")
            #expect(Self.only(match).action(for: holds) == .message(messageIdentifier: Self.message))
            #expect(Self.only(match).action(for: fails) == nil)
        }
        #expect(RetentionMatch().holds(for: Self.subject(storefront: nil, autoRenew: nil)))
    }

    @Test("every condition of a match must hold")
    func allConditions() {
        let match = RetentionMatch(productID: "pro.monthly", status: .active, storefront: "DEU", autoRenew: false)
        #expect(match.holds(for: Self.subject(storefront: "DEU", autoRenew: false)))
        #expect(!match.holds(for: Self.subject(storefront: "DEU", autoRenew: true)))
        #expect(!match.holds(for: Self.subject(storefront: "USA", autoRenew: false)))
    }

    @Test("the first matching rule answers; an offer the customer is not among the audiences of is passed over")
    func firstMatchAndOffers() {
        let offer = PromotionalOfferKey(productID: "pro.monthly", offerID: "stay50")
        let rules = RetentionRules([
            RetentionRule(
                match: RetentionMatch(autoRenew: false),
                action: .promotionalOffer(messageIdentifier: Self.message, productID: offer.productID, offerID: offer.offerID)),
            RetentionRule(match: RetentionMatch(), action: .alternateProduct(messageIdentifier: Self.other, productID: "pro.yearly")),
            RetentionRule(match: RetentionMatch(), action: .message(messageIdentifier: Self.message)),
        ])
        #expect(rules.index(for: Self.subject(autoRenew: false, admitted: [offer])) == 0)
        #expect(rules.index(for: Self.subject(autoRenew: false)) == 1)
        #expect(rules.action(for: Self.subject()) == .alternateProduct(messageIdentifier: Self.other, productID: "pro.yearly"))
        #expect(rules.offers == [offer])
        #expect(rules.messageIdentifiers == [Self.message.uuidString.lowercased(), Self.other.uuidString.lowercased()])
        #expect(RetentionRules.none.action(for: Self.subject()) == nil)
    }

    @Test("the catalog check names an unknown product, another app's, a non-subscription offered, and an offer the product does not list")
    func catalogCheck() {
        let catalog = ProductCatalog(products: [
            Product(
                productID: "pro.monthly", bundleID: "app", type: .autoRenewable, subscriptionGroupID: "g",
                promotionalOffers: [PromotionalOfferRule(offerID: "stay50", audiences: [.autoRenewOff])]),
            Product(productID: "coins", bundleID: "app", type: .consumable),
            Product(productID: "other.monthly", bundleID: "other", type: .autoRenewable, subscriptionGroupID: "h"),
        ])
        func problem(_ match: RetentionMatch, _ action: RetentionAction) -> String? {
            RetentionRules([
                RetentionRule(match: RetentionMatch(), action: .message(messageIdentifier: Self.message)),
                RetentionRule(match: match, action: action),
            ])
            .problem(against: catalog, bundleID: "app")
        }
        let message = RetentionAction.message(messageIdentifier: Self.message)
        #expect(problem(RetentionMatch(productID: "pro.monthly"), message) == nil)
        #expect(problem(RetentionMatch(productID: "gone"), message)?.contains("retention[1] names the product gone") == true)
        #expect(problem(RetentionMatch(eligibility: ["gone": .eligible]), message)?.contains("gone") == true)
        #expect(problem(RetentionMatch(productID: "other.monthly"), message)?.contains("lists for other") == true)
        #expect(
            problem(RetentionMatch(), .alternateProduct(messageIdentifier: Self.message, productID: "coins"))?
                .contains("not an auto-renewable subscription") == true)
        #expect(
            problem(RetentionMatch(), .promotionalOffer(messageIdentifier: Self.message, productID: "pro.monthly", offerID: "nope"))?
                .contains("does not list for pro.monthly") == true)
        #expect(
            problem(RetentionMatch(), .promotionalOffer(messageIdentifier: Self.message, productID: "pro.monthly", offerID: "stay50"))
                == nil)
    }
}
