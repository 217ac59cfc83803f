import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("eligibility from real verifyReceipt responses")
struct EligibilityRealWorldTests {
    @Test func sandboxTrialMakesTheGroupIneligible() throws {
        let facts = ReceiptFacts(
            verifyResponse: try RealWorld.verify("status0_sandbox_trial_expiration-intent.json"),
            bundleID: "fallback", observedAt: ms(1_466_184_881_174)
        )
        let catalog = ProductCatalog(products: [
            EligibilityFixture.subscription("com.example.product_id", group: "1", period: "P1M", offer: .freeTrial),
            EligibilityFixture.subscription("com.example.other", group: "1", period: "P1Y", offer: .freeTrial),
            EligibilityFixture.subscription("com.example.elsewhere", group: "2", period: "P1M", offer: .freeTrial),
        ])
        let answers = EligibilityRule.answers(
            for: ["com.example.other", "com.example.elsewhere"],
            catalog: catalog,
            history: CustomerHistory(receipts: [facts]),
            now: ms(1_466_184_881_174)
        )
        #expect(answers == ["com.example.other": .ineligible, "com.example.elsewhere": .eligible])
    }

    @Test func productionSubscriberWithoutOffersBySubscriptionState() throws {
        let facts = ReceiptFacts(
            verifyResponse: try RealWorld.verify("status0_production_expiration-intent.json"),
            bundleID: "fallback", observedAt: ms(1_611_147_700_000)
        )
        // The receipt names group 20667927 on some entries only; the catalog places both products.
        let catalog = ProductCatalog(products: [
            EligibilityFixture.subscription("one_month_subscription", group: "20667927", period: "P1M", offer: .freeTrial),
            EligibilityFixture.subscription("one_year_subscription", group: "20667927", period: "P1Y", offer: .freeTrial),
        ])
        let history = CustomerHistory(receipts: [facts])
        func ask(_ millis: Double, _ policy: EligibilityPolicy = .apple) -> EligibilityAnswer? {
            EligibilityRule.answers(for: ["one_year_subscription"], catalog: catalog, history: history, now: ms(millis), policy: policy)[
                "one_year_subscription"]
        }
        #expect(ask(1_611_147_800_000) == .ineligible)  // still active
        #expect(ask(1_611_147_900_000) == .eligible)  // lapsed, never used an offer
        #expect(ask(1_611_147_900_000, .strict) == .ineligible)
    }
}
