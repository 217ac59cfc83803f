import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("transaction facts never regress")
struct TransactionFactMergeTests {
    @Test func cancellationSurvivesALaterObservationWithoutIt() {
        let refunded = period("1002", from: 60, to: 90, cancelledOn: 65, reason: "1")
        let plain = period("1002", from: 60, to: 90)
        #expect(refunded.merged(with: plain) == refunded)
        #expect(plain.merged(with: refunded) == refunded)
    }

    @Test("a newer statement from Apple decides the refund: a reversed refund un-revokes, an older one cannot")
    func newerStatementDecidesTheRefund() {
        var refunded = period("1002", from: 60, to: 90, cancelledOn: 65, reason: "0")
        refunded.statedAt = day(65)
        var reversed = period("1002", from: 60, to: 90)
        reversed.statedAt = day(70)
        #expect(refunded.merged(with: reversed).cancellationDate == nil)
        #expect(reversed.merged(with: refunded).cancellationDate == nil)
        #expect(reversed.merged(with: refunded).statedAt == day(70))
        var refundedAgain = refunded
        refundedAgain.statedAt = day(75)
        #expect(reversed.merged(with: refundedAgain).cancellationDate == day(65))
        #expect(refundedAgain.merged(with: reversed).cancellationReason == "0")
        // Any order of the three statements ends in the same row.
        let all = [refunded, reversed, refundedAgain]
        let reference = all.dropFirst().reduce(all[0]) { $0.merged(with: $1) }
        for order in [[2, 1, 0], [1, 0, 2], [0, 2, 1]] {
            let merged = order.dropFirst().reduce(all[order[0]]) { $0.merged(with: all[$1]) }
            #expect(merged == reference)
        }
    }

    @Test("a receipt verified later states the refund's date but not its type or share: the signed statement's are kept, in any order")
    func refundDetailsSurviveALaterReceipt() {
        var signed = period("1002", from: 60, to: 90, cancelledOn: 65, reason: "0")
        signed.statedAt = day(65)
        signed.revocationType = "REFUND_PRORATED"
        signed.revocationPercentage = 40_000
        var receipt = period("1002", from: 60, to: 90, cancelledOn: 65, reason: "0")
        receipt.statedAt = day(80)
        for merged in [signed.merged(with: receipt), receipt.merged(with: signed)] {
            #expect(merged.revocationType == "REFUND_PRORATED" && merged.revocationPercentage == 40_000 && merged.statedAt == day(80))
        }
        // Another date is another cancellation: the newer statement's, with nothing of the old one's.
        var later = period("1002", from: 60, to: 90, cancelledOn: 70, reason: "1")
        later.statedAt = day(90)
        #expect(signed.merged(with: later).revocationType == nil && signed.merged(with: later).cancellationDate == day(70))
    }

    @Test("a restatement is the same facts stated later, and nothing else")
    func restatement() {
        var stored = period("1002", from: 60, to: 90)
        stored.statedAt = day(65)
        var later = stored
        later.statedAt = day(70)
        #expect(stored.merged(with: later).isRestatement(of: stored))
        #expect(!stored.isRestatement(of: stored))
        #expect(!stored.isRestatement(of: later))
        var unstated = stored
        unstated.statedAt = nil
        #expect(stored.isRestatement(of: unstated))
        #expect(!unstated.isRestatement(of: stored))
        var refunded = later
        refunded.cancellationDate = day(66)
        #expect(!refunded.isRestatement(of: stored))
    }

    @Test func flagsAreOredAndGapsFilled() {
        var sparse = period("1001", from: 30, to: nil, group: nil)
        sparse.webOrderLineItemID = "w1"
        let rich = period("1001", from: 30, to: 60, trial: true, upgraded: true)
        let merged = sparse.merged(with: rich)
        #expect(merged.isTrialPeriod && merged.isUpgraded && !merged.isInIntroOfferPeriod)
        #expect(merged.expiresDate == day(60))
        #expect(merged.subscriptionGroupID == "20500000")
        #expect(merged.webOrderLineItemID == "w1")
    }

    @Test func aLaterExpiryWinsBecauseApplesOnlyExtendPeriods() {
        let original = period("1001", from: 30, to: 60)
        let extended = period("1001", from: 30, to: 67)
        #expect(original.merged(with: extended).expiresDate == day(67))
        #expect(extended.merged(with: original).expiresDate == day(67))
    }

    @Test func anotherTransactionOrEnvironmentIsNotMerged() {
        let a = period("1001", from: 30, to: 60)
        #expect(a.merged(with: period("1002", from: 60, to: 90, trial: true)) == a)
        #expect(a.merged(with: period("1001", from: 30, to: 60, trial: true, environment: .sandbox)) == a)
    }

    @Test func mergeIsCommutativeAssociativeAndIdempotent() {
        let observations = [
            period("1001", from: 30, to: 60),
            period("1001", from: 30, to: nil, trial: true, group: nil),
            period("1001", from: 30, to: 62, cancelledOn: 40, reason: "0"),
            period("1001", from: 29, to: 60, cancelledOn: 35, group: "other"),
            period("1001", product: "pro.other", from: 30, to: 60, upgraded: true),
            period("1001", from: 30, to: 60, cancelledOn: 35, reason: "1"),
            period("1001", from: 30, to: 60, reason: "0"),
        ]
        for a in observations {
            #expect(a.merged(with: a) == a)
            for b in observations {
                #expect(a.merged(with: b) == b.merged(with: a))
                #expect(a.merged(with: b).merged(with: b) == a.merged(with: b))
                for c in observations {
                    #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
                }
            }
        }
        var rng = SplitMix64(state: 7)
        let expected = TransactionFact.coalesced(observations)
        #expect(expected.count == 1)
        #expect(expected[0].cancellationDate == day(35) && expected[0].cancellationReason == "1")
        for _ in 0..<50 {
            #expect(TransactionFact.coalesced(observations.shuffled(using: &rng)) == expected)
        }
    }

    @Test func cancellationReasonTravelsWithItsDate() {
        let first = period("1", from: 0, to: 30, cancelledOn: 5, reason: "1")
        let second = period("1", from: 0, to: 30, cancelledOn: 6, reason: "0")
        #expect(first.merged(with: second).cancellationReason == "1")
        #expect(second.merged(with: first).cancellationDate == day(5))
    }

    @Test func coalescedKeepsOneFactPerIdSortedByPurchase() {
        let facts = [period("b", from: 30, to: 60), period("a", from: 0, to: 30), period("b", from: 30, to: 60, trial: true)]
        let result = TransactionFact.coalesced(facts)
        #expect(result.map(\.transactionID) == ["a", "b"])
        #expect(result[1].isTrialPeriod)
    }

    @Test func upgradeCancellationIsNotARevocation() {
        #expect(period("1", from: 0, to: 30, upgraded: true, cancelledOn: 5).isRevoked == false)
        #expect(period("1", from: 0, to: 30, cancelledOn: 5).isRevoked)
    }

    @Test func factFromAReceiptEntryNeedsAPurchaseDate() throws {
        let entry = ReceiptTransaction(
            transactionID: "2", originalTransactionID: "1", productID: "p",
            purchaseDate: day(1), expiresDate: day(31), isTrialPeriod: true,
            subscriptionGroupIdentifier: "g", inAppOwnershipType: "FAMILY_SHARED", offerCodeRefName: "SPRING"
        )
        let fact = try #require(TransactionFact(receiptTransaction: entry, bundleID: "b", environment: .sandbox))
        #expect(fact.subscriptionGroupID == "g" && fact.ownershipType == "FAMILY_SHARED" && fact.offerCodeRefName == "SPRING")
        #expect(fact.environment == .sandbox && fact.bundleID == "b" && fact.isTrialPeriod)
        var undated = entry
        undated.purchaseDate = nil
        #expect(TransactionFact(receiptTransaction: undated, bundleID: "b", environment: .sandbox) == nil)
    }
}
