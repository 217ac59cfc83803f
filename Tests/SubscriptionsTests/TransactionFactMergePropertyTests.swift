import AppStore
import Foundation
import Subscriptions
import Testing

/// The stored row of a transaction is the merge of every observation of it, applied in
/// whatever order and batches they arrived: any order and any grouping of the same facts must
/// give the same row, whichever of them carry a statement time.
@Suite("transaction fact merges: any order and grouping, one row")
struct TransactionFactMergePropertyTests {
    /// A random observation of transaction 1001: statement time, cancellation, expiry, flags.
    static func observation(_ rng: inout SplitMix64) -> TransactionFact {
        let cancellations: [(Double?, String?)] = [(nil, nil), (35, "1"), (40, "0"), (35, "0"), (nil, "0")]
        let (cancelledOn, reason) = cancellations[Int(rng.next() % UInt64(cancellations.count))]
        var fact = period(
            "1001", from: 30, to: [nil, 60, 62][Int(rng.next() % 3)], trial: rng.next() % 2 == 0, upgraded: rng.next() % 5 == 0,
            cancelledOn: cancelledOn, reason: reason, group: rng.next() % 4 == 0 ? nil : "20500000")
        fact.statedAt = [nil, day(50), day(70), day(90)][Int(rng.next() % 4)]
        fact.source = rng.next() % 2 == 0 ? .v1 : .v2
        return fact
    }

    /// The merge of `facts` grouped as a random binary tree.
    static func mergedInGroups(_ facts: ArraySlice<TransactionFact>, _ rng: inout SplitMix64) -> TransactionFact {
        guard facts.count > 1 else { return facts[facts.startIndex] }
        let split = facts.startIndex + 1 + Int(rng.next() % UInt64(facts.count - 1))
        let left = mergedInGroups(facts[..<split], &rng)
        let right = mergedInGroups(facts[split...], &rng)
        return left.merged(with: right)
    }

    @Test(arguments: 0..<200)
    func anyOrderAndGroupingGivesTheSameRow(seed: Int) {
        var rng = SplitMix64(state: UInt64(seed) &* 0x9E37_79B9)
        let facts = (0..<(2 + Int(rng.next() % 6))).map { _ in Self.observation(&rng) }
        let reference = facts.dropFirst().reduce(facts[0]) { $0.merged(with: $1) }
        for _ in 0..<6 {
            let shuffled = facts.shuffled(using: &rng)
            #expect(Self.mergedInGroups(shuffled[...], &rng) == reference)
        }
        // The observations stated last decide the refund, whatever the older ones said.
        let newest = facts.map(\.statedAt).max { ($0 ?? .distantPast) < ($1 ?? .distantPast) } ?? nil
        let deciding = facts.filter { $0.statedAt == newest }
        let decided = deciding.dropFirst().reduce(deciding[0]) { $0.merged(with: $1) }
        #expect(reference.cancellationDate == decided.cancellationDate)
        #expect(reference.cancellationReason == decided.cancellationReason)
        #expect(reference.statedAt == newest)
    }

    @Test("a row stored before statement times were kept does not ignore a later REFUND_REVERSED")
    func legacyRowTakesALaterReversal() {
        let legacy = period("1002", from: 60, to: 90, cancelledOn: 65, reason: "0")  // statedAt nil
        var reversed = period("1002", from: 60, to: 90)
        reversed.statedAt = day(70)
        #expect(legacy.merged(with: reversed).cancellationDate == nil)
        #expect(reversed.merged(with: legacy).cancellationDate == nil)
        // Grouped either way with a third, unstated, observation: the same row.
        let third = period("1002", from: 60, to: 91)
        #expect(legacy.merged(with: third).merged(with: reversed) == legacy.merged(with: third.merged(with: reversed)))
    }
}
