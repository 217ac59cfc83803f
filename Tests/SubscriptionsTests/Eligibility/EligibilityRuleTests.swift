import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("introductory offer eligibility")
struct EligibilityRuleTests {
    @Test("eligibility table", arguments: EligibilityCase.table)
    func table(_ row: EligibilityCase) {
        #expect(row.answer() == row.expected)
    }

    @Test func tableIsLargeAndNamesAreUnique() {
        #expect(EligibilityCase.table.count >= 25)
        #expect(Set(EligibilityCase.table.map(\.name)).count == EligibilityCase.table.count)
    }

    @Test func answersEveryProductAskedOnce() {
        let history = CustomerHistory(transactions: [purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true)])
        let asked = ["pro.monthly", "plus.monthly", "pro.weekly", "nope", "pro.monthly"]
        let answers = EligibilityRule.answers(for: asked, catalog: EligibilityFixture.catalog, history: history, now: day(100))
        #expect(
            answers == [
                "pro.monthly": .ineligible,
                "plus.monthly": .eligible,
                "pro.weekly": .noIntroOffer,
                "nope": .unknownProduct,
            ])
    }

    @Test func noProductsAskedGivesNoAnswers() {
        #expect(EligibilityRule.answers(for: [], catalog: EligibilityFixture.catalog, history: .empty, now: day(0)).isEmpty)
    }

    @Test func emptyCatalogKnowsNoProduct() {
        let answers = EligibilityRule.answers(for: ["pro.monthly"], catalog: .empty, history: .empty, now: day(0))
        #expect(answers == ["pro.monthly": .unknownProduct])
    }

    @Test func answersDoNotDependOnTheOrderOfFacts() {
        let facts = [
            purchase("1", of: "pro.monthly", from: 60, to: 90),
            purchase("2", of: "pro.monthly", original: "1", from: 90, to: 120),
            purchase("3", of: "plus.monthly", from: 0, to: 30, intro: true),
            purchase("4", of: "lite.monthly", from: 0, to: 30),
        ]
        let asked = ["pro.yearly", "plus.monthly", "lite.monthly"]
        let expected: [String: EligibilityAnswer] = ["pro.yearly": .ineligible, "plus.monthly": .ineligible, "lite.monthly": .eligible]
        var rng = SplitMix64(state: 42)
        for _ in 0..<20 {
            let history = CustomerHistory(transactions: facts.shuffled(using: &rng))
            #expect(EligibilityRule.answers(for: asked, catalog: EligibilityFixture.catalog, history: history, now: day(100)) == expected)
        }
    }

    @Test func repeatedObservationsOfOneTransactionKeepTheTrialFlag() {
        // A later receipt that omits the flag must not erase the trial an earlier one reported.
        let history = CustomerHistory(transactions: [
            purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true),
            purchase("1", of: "pro.monthly", from: 0, to: 7),
        ])
        let answers = EligibilityRule.answers(for: ["pro.yearly"], catalog: EligibilityFixture.catalog, history: history, now: day(100))
        #expect(answers["pro.yearly"] == .ineligible)
    }

    @Test func theSameHistoryChangesWithTime() {
        let history = CustomerHistory(transactions: [purchase("1", of: "pro.monthly", from: 80, to: 110)])
        let ask = { (now: Double) in
            EligibilityRule.answers(for: ["pro.yearly"], catalog: EligibilityFixture.catalog, history: history, now: day(now))["pro.yearly"]
        }
        #expect(ask(109) == .ineligible)
        #expect(ask(110) == .eligible)
    }

    @Test func policyDefaultsToApple() {
        #expect(EligibilityPolicy(rawValue: "apple") == .apple)
        #expect(EligibilityPolicy(rawValue: "strict") == .strict)
        let lapsed = CustomerHistory(transactions: [purchase("1", of: "pro.monthly", from: 0, to: 30)])
        let answers = EligibilityRule.answers(for: ["pro.yearly"], catalog: EligibilityFixture.catalog, history: lapsed, now: day(100))
        #expect(answers["pro.yearly"] == .eligible)
    }

    @Test func answersEncodeWithTheContractValues() throws {
        let answers: [String: EligibilityAnswer] = ["a": .noIntroOffer, "b": .unknownProduct]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(answers), as: UTF8.self)
        #expect(json == #"{"a":"no_intro_offer","b":"unknown_product"}"#)
        #expect(EligibilityAnswer.allCases.map(\.rawValue) == ["eligible", "ineligible", "no_intro_offer", "unknown_product"])
    }
}
