import AppStore
import Foundation
import Postgres
import Subscriptions
import TestSupport
import Testing

@testable import Store

/// An apply keeps in memory what it wrote, for the applies after it in the same transaction
/// to compare with: that copy must be what a query would read back, dates included (a
/// `timestamptz` holds microseconds), or a comparison could come out otherwise than against
/// the stored row.
@Suite("Facts kept in memory as written read as their rows do")
struct StoredPrecisionTests {
    /// A moment with a fraction of a microsecond.
    static let moment = Date(timeIntervalSince1970: 1_795_000_000.123_456_789)

    @Test(
        "a transaction and renewal info with every date (and the money: price, refund share) set, written and read back, equal their asStored copies"
    )
    func roundTrip() async throws {
        try await TestDatabase.withClient { client, _ in
            let transaction = TransactionFact(
                transactionID: "4500000000000001", originalTransactionID: "4500000000000001", productID: "com.example.pro.monthly",
                bundleID: "com.example.app", environment: .production, purchaseDate: Self.moment,
                originalPurchaseDate: Self.moment.addingTimeInterval(-0.000_000_4), expiresDate: Self.moment.addingTimeInterval(86_400.5),
                cancellationDate: Self.moment.addingTimeInterval(3.999_999_6), statedAt: Self.moment.addingTimeInterval(7.000_000_49),
                priceMilliunits: 11_900, currency: "EUR", storefront: "DEU", revocationType: "REFUND_PRORATED",
                revocationPercentage: 25_000)
            let renewal = RenewalFact(
                originalTransactionID: "4500000000000001", bundleID: "com.example.app", environment: .production,
                productID: "com.example.pro.monthly", autoRenewProductID: "com.example.pro.monthly", autoRenewStatus: true,
                expirationIntent: nil, isInBillingRetryPeriod: true, gracePeriodExpiresDate: Self.moment.addingTimeInterval(0.000_000_5),
                observedAt: Self.moment.addingTimeInterval(1.000_000_51))
            try await client.withTransaction { session in
                try transaction.upsert(in: session)
                try renewal.upsert(in: session)
            }
            let read = try await client.withTransaction { session in
                try StoredPurchases.load(environment: .production, originalTransactionIDs: ["4500000000000001"], in: session)
            }
            #expect(read.transactions["4500000000000001"] == [transaction.asStored])
            #expect(read.renewals["4500000000000001"] == renewal.asStored)
            #expect(transaction.asStored != transaction, "the moment has a fraction of a microsecond to lose")
        }
    }
}
