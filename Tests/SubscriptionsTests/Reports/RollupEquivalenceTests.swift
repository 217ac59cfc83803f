import AppStore
import Foundation
import Subscriptions
import Testing

/// The rollups' shape (each chain's share, summed by day, and its spans) answers every report exactly as
/// the definition computed from the facts does, on random populations: trials, renewals,
/// lapses, plan changes, grace and billing retry, full, prorated and family refunds, four
/// currencies (one without a rate), unpriced purchases and one-time purchases.
@Suite("Rollups from contributions equal the reports computed from the facts")
struct RollupEquivalenceTests {
    typealias F = ReportFixtures

    /// Draws from a seeded generator (``SplitMix64``), so every population can be made again.
    struct Random {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(state: state) }
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
        mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
    }

    static func population(seed: UInt64, size: Int) -> [ReportedSubscription] {
        var random = Random(state: seed)
        var chains: [ReportedSubscription] = []
        let products: [(String, Double)] = [("pro.monthly", 30), ("pro.yearly", 365), ("pro.weekly", 7)]
        for index in 0..<size {
            let original = "o\(index)"
            let currency = random.pick(["USD", "EUR", "GBP", "JPY"])
            let storefront = random.pick(["USA", "DEU", "GBR"])
            var day = Double(random.int(0...150)) + Double(random.int(0...23)) / 24
            var transactions: [TransactionFact] = []
            if random.chance(10) {  // a one-time purchase
                var purchase = F.transaction(
                    "\(original)-0", of: original, product: "coins", from: day, days: 0, price: random.chance(90) ? "4.99" : nil,
                    currency: currency, storefront: storefront, refundedOn: random.chance(20) ? day + 10 : nil)
                purchase.expiresDate = nil
                purchase.productType = .consumable
                chains.append(
                    ReportedSubscription(
                        originalTransactionID: original, bundleID: F.bundleID, environment: .production, transactions: [purchase],
                        renewal: nil, isAutoRenewable: false))
                continue
            }
            if random.chance(35) {
                transactions.append(F.transaction("\(original)-t", of: original, from: day, days: 7, trial: true, currency: currency))
                day += 7
                if random.chance(30) { day += Double(random.int(1...40)) }  // lapses after the trial, perhaps for good
            }
            var (product, length) = random.pick(products)
            for period in 0..<random.int(0...8) {
                if random.chance(15) { (product, length) = random.pick(products) }
                let price: String? = random.chance(95) ? random.pick(["9.99", "59.99", "2.49", "0.99"]) : nil
                var refund: Double?
                var revocation: (String, Int?)?
                if random.chance(8) {
                    refund = day + Double(random.int(1...Int(length)))
                    revocation = random.pick([("REFUND_FULL", nil), ("REFUND_PRORATED", random.int(1...99_999)), ("FAMILY_REVOKE", nil)])
                }
                transactions.append(
                    F.transaction(
                        "\(original)-\(period)", of: original, product: product, from: day, days: length, price: price, currency: currency,
                        storefront: storefront, refundedOn: refund, revocation: revocation))
                day += length
                if random.chance(10) { day += Double(random.int(1...90)) }  // a lapse, then back
            }
            guard !transactions.isEmpty else { continue }
            var renewal: RenewalFact?
            if random.chance(25), let last = transactions.last?.expiresDate {
                renewal = RenewalFact(
                    originalTransactionID: original, bundleID: F.bundleID, environment: .production, isInBillingRetryPeriod: true,
                    gracePeriodExpiresDate: random.chance(50) ? last.addingTimeInterval(Double(random.int(1...16)) * 86_400) : nil,
                    observedAt: last)
            }
            chains.append(F.chain(transactions, renewal: renewal))
        }
        return chains
    }

    static let queries: [ReportQuery] = ReportMetric.allCases.flatMap { metric in
        [
            ReportQuery(metric: metric, from: F.day(0), to: F.day(240), interval: .day),
            ReportQuery(metric: metric, from: F.day(3), to: F.day(200), interval: .week, groupBy: .storefront),
            ReportQuery(metric: metric, from: F.day(0), to: F.day(364), interval: .month, groupBy: .product),
            ReportQuery(metric: metric, from: F.day(0), to: F.day(364), interval: .month, product: "pro.monthly"),
            ReportQuery(metric: metric, from: F.day(0), to: F.day(364), interval: .month, proceeds: true),
        ]
    }

    static func normalised(_ answer: ReportAnswer) -> [String] {
        answer.points.map { point in
            let groups = point.groups.sorted { $0.key < $1.key }.map { "\($0.key)=\(F.rounded($0.value, 6)!)" }.joined(separator: ",")
            return
                "\(point.date.timeIntervalSince1970) \(F.rounded(point.value, 6).map { "\($0)" } ?? "nil") [\(groups)] \(point.counts.sorted { $0.key < $1.key })"
        } + ["missing \(answer.missingRates)", "warnings \(answer.warnings.count)"]
    }

    @Test("every metric, interval, grouping and filter agrees on three random populations", arguments: [UInt64(1), 2, 20_261_127])
    func equivalence(seed: UInt64) {
        let chains = Self.population(seed: seed, size: 150)
        let pricing = F.pricing(
            taxRates: TaxRates(["DEU": Decimal(string: "0.19")!, "GBR": Decimal(string: "0.20")!]),
            smallBusiness: SmallBusinessProgram(periods: [.init(from: F.day(100), until: F.day(160))]))
        let now = F.day(210)
        let evaluator = ReportEvaluator(pricing: pricing, now: now)
        let rollups = InMemoryRollups(chains, pricing: pricing)
        var checked = 0
        for query in Self.queries {
            let expected = Self.normalised(evaluator.answer(query, over: chains))
            let actual = Self.normalised(RollupReport.answer(query, from: rollups.extract(query, now: now), convert: pricing.convert))
            #expect(actual == expected, "\(query.metric) \(query.interval) \(query.groupBy.map(\.rawValue) ?? "-") \(query.product ?? "-")")
            checked += 1
        }
        #expect(checked == ReportMetric.allCases.count * 5)
        // The population exercises what the definitions distinguish.
        let trials = evaluator.answer(ReportQuery(metric: .trialConversion, from: F.day(0), to: F.day(364), interval: .month), over: chains)
        #expect(trials.points.contains { ($0.counts["converted"] ?? 0) > 0 })
        let mrr = evaluator.answer(ReportQuery(metric: .mrr, from: F.day(0), to: F.day(240), interval: .day), over: chains)
        #expect(mrr.missingRates == ["JPY"])
    }
}
