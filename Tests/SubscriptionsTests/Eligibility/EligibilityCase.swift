import AppStore
import Foundation
import Subscriptions
import Testing

/// One row of the eligibility table: a customer's history, a question and Apple's answer.
struct EligibilityCase: Sendable, CustomTestStringConvertible {
    var name: String
    var transactions: [TransactionFact] = []
    var renewals: [RenewalFact] = []
    var product: String
    var policy: EligibilityPolicy = .apple
    var now: Double = 100
    var expected: EligibilityAnswer

    var testDescription: String { name }

    /// The rule's answer for this row.
    func answer() -> EligibilityAnswer? {
        EligibilityRule.answers(
            for: [product],
            catalog: EligibilityFixture.catalog,
            history: CustomerHistory(transactions: transactions, renewals: renewals),
            now: day(now),
            policy: policy
        )[product]
    }
}
