import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("A chain's share of the rollups")
struct ChainRollupTests {
    typealias F = ReportFixtures

    @Test("a level counts from the first midnight at or after its start, until the first midnight at or after its end; a flow on its day")
    func daysOfLevelsAndFlows() {
        // Paid from day 2.5 for 30 days: active at midnights 3…32, sold on day 2.
        let chain = F.chain([F.transaction("a-0", of: "a", from: 2.5, days: 30)])
        let rollup = ChainRollup.of(ChainContributions.of(chain, pricing: F.pricing()))
        func amount(_ measure: RollupMeasure, _ day: Double) -> Decimal? {
            rollup.amounts.first { $0.key.measure == measure && $0.key.day == F.day(day) }?.value
        }
        #expect(amount(.active, 3) == 1 && amount(.active, 33) == -1)
        #expect(amount(.newPaid, 2) == 1 && amount(.sold, 2) == 1)
        #expect(amount(.revenue, 2) == Decimal(string: "9.99") && amount(.mrr, 3) == Decimal(string: "9.99"))
        #expect(rollup.spans.map(\.kind) == [.paid])
        #expect(rollup.spans[0].runEnd == F.day(32.5) && rollup.spans[0].nextRunStart == nil)
    }

    @Test("a share's changes are the new amounts and the old ones negated, only where they differ, and sum to the new share")
    func changes() {
        let before = ChainRollup.of(ChainContributions.of(F.chain([F.transaction("b-0", of: "b", from: 0)]), pricing: F.pricing()))
        let after = ChainRollup.of(
            ChainContributions.of(
                F.chain([F.transaction("b-0", of: "b", from: 0, refundedOn: 10), F.transaction("b-1", of: "b", from: 30)]),
                pricing: F.pricing()))
        let changes = ChainRollup.changes(from: before.amounts, to: after.amounts)
        var summed = before.amounts
        for change in changes { summed[change.key, default: 0] += change.amount }
        #expect(summed.filter { $0.value != 0 } == after.amounts)
        #expect(!changes.contains { before.amounts[$0.key] == after.amounts[$0.key] })
        #expect(ChainRollup.changes(from: after.amounts, to: after.amounts).isEmpty)
    }
}
