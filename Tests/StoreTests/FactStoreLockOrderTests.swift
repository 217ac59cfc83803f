import AppStore
import Foundation
import Subscriptions
import Testing

@testable import Store

/// Subscriptions are locked in one global order across every batch of a transaction, so two
/// transactions applying the same subscriptions in different batches cannot deadlock.
@Suite struct FactStoreLockOrderTests {
    static func batch(_ ids: [String], environment: AppStoreEnvironment = .production) -> ReceiptFacts {
        let transactions = ids.map { id in
            TransactionFact(
                transactionID: id + "9", originalTransactionID: id, productID: "p", bundleID: "b", environment: environment,
                purchaseDate: Date(timeIntervalSince1970: 1_700_000_000), expiresDate: Date(timeIntervalSince1970: 1_702_592_000))
        }
        return ReceiptFacts(environment: environment, bundleID: "b", transactions: transactions, renewals: [], latestReceipt: nil)
    }

    @Test func batchesInAnyOrderLockInOneOrder() {
        let a = Self.batch(["300", "100"])
        let b = Self.batch(["200", "100"])
        let sandbox = Self.batch(["050"], environment: .sandbox)
        let expected = ["Production:100", "Production:200", "Production:300", "Sandbox:050"]
        #expect(FactStore.lockKeys(of: [a, b, sandbox]) == expected)
        #expect(FactStore.lockKeys(of: [sandbox, b, a]) == expected)
        #expect(FactStore.lockKeys(of: [b, a, sandbox]) == expected)
    }

    @Test func oneTimePurchasesAreLockedToo() {
        let lifetime = TransactionFact(
            transactionID: "400", originalTransactionID: "400", productID: "lifetime", bundleID: "b", environment: .production,
            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000), productType: .nonConsumable)
        let purchase = ReceiptFacts(environment: .production, bundleID: "b", transactions: [lifetime], renewals: [], latestReceipt: nil)
        #expect(FactStore.lockKeys(of: [purchase, Self.batch(["100"])]) == ["Production:100", "Production:400"])
    }
}
