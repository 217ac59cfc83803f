import Foundation
import Subscriptions
import Testing

/// `SubscriptionStatusRule.nextChange` bounds how long a stored answer may be served: no
/// snapshot, and no group usage, may differ anywhere between `now` and the instant it gives.
@Suite("Status rule: the next instant a snapshot can change")
struct NextChangeTests {
    /// Histories that use every time comparison of the rule: an active period, an upgrade,
    /// a refund, a lapse in billing retry with and without grace, two subscriptions.
    static let histories: [(transactions: [TransactionFact], renewals: [RenewalFact])] = [
        ([period("1", from: 0, to: 30), period("2", from: 30, to: 60)], [renewal(observedOn: 31)]),
        ([period("1", from: 0, to: 30, trial: true)], [renewal(retrying: true, graceUntil: 46, observedOn: 31)]),
        ([period("1", from: 0, to: 30)], [renewal(retrying: true, observedOn: 31)]),
        ([period("1", from: 0, to: 30, upgraded: true), period("2", product: "pro.yearly", from: 10, to: 375)], []),
        ([period("1", from: 0, to: 30, cancelledOn: 5, reason: "1"), period("2", from: 40, to: 70)], []),
        (
            [period("1", from: 0, to: 30), period("9", original: "2000", product: "news.weekly", from: 20, to: 27, group: "20600000")],
            [renewal(original: "2000", retrying: true, graceUntil: 33, observedOn: 28)]
        ),
        ([period("1", from: 0, to: nil)], []),
    ]

    static func snapshots(_ history: (transactions: [TransactionFact], renewals: [RenewalFact]), at now: Date) -> [SubscriptionSnapshot?] {
        Set(history.transactions.map(\.originalTransactionID)).sorted().map { id in
            SubscriptionStatusRule.snapshot(
                originalTransactionID: id, transactions: history.transactions,
                renewal: history.renewals.first { $0.originalTransactionID == id }, at: now)
        }
    }

    @Test("every snapshot and the group usage stay the same from now until the next change", arguments: 0..<histories.count)
    func nothingChangesBeforeTheNextChange(index: Int) throws {
        let history = Self.histories[index]
        let catalog = ProductCatalog(products: [])
        let customer = CustomerHistory(transactions: history.transactions, renewals: history.renewals)
        // Every half day over a year and a half, and the instants just before each change.
        for step in 0..<1_100 {
            let now = day(Double(step) / 2)
            let next = SubscriptionStatusRule.nextChange(after: now, transactions: history.transactions, renewals: history.renewals)
            let end = next ?? day(600)
            for later in [now.addingTimeInterval(1), end.addingTimeInterval(-0.001), now + (end.timeIntervalSince(now) / 2)]
            where later >= now && later < end {
                #expect(Self.snapshots(history, at: later) == Self.snapshots(history, at: now), "history \(index) at step \(step)")
                #expect(
                    GroupUsage(history: customer, catalog: catalog, now: later) == GroupUsage(history: customer, catalog: catalog, now: now)
                )
            }
            if let next { #expect(next > now) }
        }
    }

    @Test("the next change is the first period or grace end after now, and nil once none is left")
    func firstEndAfterNow() {
        let transactions = [period("1", from: 0, to: 30), period("2", from: 30, to: 60)]
        let renewals = [renewal(retrying: true, graceUntil: 45, observedOn: 31)]
        #expect(SubscriptionStatusRule.nextChange(after: day(10), transactions: transactions, renewals: renewals) == day(30))
        #expect(SubscriptionStatusRule.nextChange(after: day(30), transactions: transactions, renewals: renewals) == day(45))
        #expect(SubscriptionStatusRule.nextChange(after: day(50), transactions: transactions, renewals: renewals) == day(60))
        #expect(SubscriptionStatusRule.nextChange(after: day(60), transactions: transactions, renewals: renewals) == nil)
        #expect(SubscriptionStatusRule.nextChange(after: day(0), transactions: [], renewals: []) == nil)
    }

    @Test("a group key reads back from its stored text, and other texts are refused")
    func groupKeyText() {
        for key in [GroupUsage.Key.group("20500000"), .product("legacy.monthly"), .group(""), .product("a:b"), .group("group:x")] {
            #expect(GroupUsage.Key(text: key.text) == key)
        }
        #expect(GroupUsage.Key(text: "20500000") == nil)
        #expect(GroupUsage.Key(text: "") == nil)
    }
}
