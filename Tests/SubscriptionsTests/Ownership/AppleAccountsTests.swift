import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("Apple accounts behind an app user: appTransactionId, else one original transaction per group")
struct AppleAccountsTests {
    typealias Purchase = AppleAccounts.Purchase

    @Test("appTransactionIds name accounts; two purchases with one id are one account")
    func named() {
        #expect(
            AppleAccounts.count([
                Purchase(key: "P:1", appTransactionID: "a", subscriptionGroupID: "g"),
                Purchase(key: "P:2", appTransactionID: "a", subscriptionGroupID: nil),
                Purchase(key: "P:3", appTransactionID: "b", subscriptionGroupID: "h"),
            ]) == 2)
    }

    @Test("without one, original transactions of one group are separate accounts; of different groups, maybe one")
    func unnamed() {
        let threeInOneGroup = (1...3).map { Purchase(key: "P:\($0)", appTransactionID: nil, subscriptionGroupID: "20500000") }
        #expect(AppleAccounts.count(threeInOneGroup) == 3)
        #expect(
            AppleAccounts.count([
                Purchase(key: "P:1", appTransactionID: nil, subscriptionGroupID: "g"),
                Purchase(key: "P:2", appTransactionID: nil, subscriptionGroupID: "h"),
                Purchase(key: "P:3", appTransactionID: nil, subscriptionGroupID: nil),
            ]) == 1)
        #expect(AppleAccounts.count([]) == 0)
        #expect(AppleAccounts.count([Purchase(key: "P:1", appTransactionID: nil, subscriptionGroupID: nil)]) == 1)
    }

    @Test("a lower bound when both kinds mix: the larger of the two")
    func mixed() {
        #expect(
            AppleAccounts.count([
                Purchase(key: "P:1", appTransactionID: "a", subscriptionGroupID: "g"),
                Purchase(key: "P:2", appTransactionID: nil, subscriptionGroupID: "g"),
                Purchase(key: "P:3", appTransactionID: nil, subscriptionGroupID: "g"),
            ]) == 2)
    }

    @Test("purchases are one per original transaction and environment, taking any transaction's appTransactionId")
    func purchasesOfTransactions() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        func fact(_ id: String, _ original: String, _ environment: AppStoreEnvironment, app: String?) -> TransactionFact {
            TransactionFact(
                transactionID: id, originalTransactionID: original, productID: "p", bundleID: "b", environment: environment,
                subscriptionGroupID: "g", purchaseDate: date, appTransactionID: app)
        }
        let purchases = AppleAccounts.purchases(of: [
            fact("1", "1", .production, app: nil), fact("2", "1", .production, app: "a"), fact("1", "1", .sandbox, app: nil),
        ]) { $0.subscriptionGroupID }
        #expect(
            purchases == [
                Purchase(key: "Production:1", appTransactionID: "a", subscriptionGroupID: "g"),
                Purchase(key: "Sandbox:1", appTransactionID: nil, subscriptionGroupID: "g"),
            ])
    }
}
