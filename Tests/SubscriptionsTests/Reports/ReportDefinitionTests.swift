import AppStore
import Foundation
import Subscriptions
import Testing

/// The metric definitions of DESIGN.md, "Money and reports", each on a hand-made history
/// whose numbers are worked out here.
@Suite("Report definitions on hand-made histories")
struct ReportDefinitionTests {
    typealias F = ReportFixtures

    static func answer(
        _ metric: ReportMetric, _ chains: [ReportedSubscription], from: Double, to: Double, interval: ReportInterval = .day,
        groupBy: ReportGrouping? = nil, proceeds: Bool = false, pricing: ReportPricing = F.pricing(), now: Double = 400
    ) -> ReportAnswer {
        ReportEvaluator(pricing: pricing, now: F.day(now)).answer(
            ReportQuery(metric: metric, from: F.day(from), to: F.day(to), interval: interval, groupBy: groupBy, proceeds: proceeds),
            over: chains)
    }

    @Test("periods normalise to a month: P1D ×30, P1W ×4, P2W ×2, P1M ×1, P2M ×½, P3M ×⅓, P6M ×⅙, P1Y ×1⁄12")
    func normalisation() {
        let cases: [(String, Decimal)] = [
            ("P1D", 30), ("P1W", 4), ("P2W", 2), ("P1M", 1), ("P2M", 0.5), ("P3M", Decimal(1) / 3), ("P6M", Decimal(1) / 6),
            ("P1Y", Decimal(1) / 12),
        ]
        for (text, factor) in cases {
            #expect(ISO8601Duration(text)?.monthlyFactor == factor, "\(text)")
        }
    }

    /// On day 45: A pays monthly in USD, B yearly in EUR, C is in a free trial, D lapsed on
    /// day 40, E is in billing retry, F in a grace period (last paid 4.99), G weekly in JPY.
    static let population: [ReportedSubscription] = [
        F.monthly("A", from: 0, months: 3),
        F.chain([F.transaction("B-0", of: "B", product: "pro.yearly", from: 10, days: 365, price: "59.99", currency: "EUR")]),
        F.chain([F.transaction("C-0", of: "C", from: 40, days: 7, trial: true)]),
        F.chain([F.transaction("D-0", of: "D", from: 10, days: 30)]),
        F.chain(
            [F.transaction("E-0", of: "E", from: 0, days: 30)],
            renewal: RenewalFact(
                originalTransactionID: "E", bundleID: F.bundleID, environment: .production, isInBillingRetryPeriod: true,
                observedAt: F.day(31))),
        F.chain(
            [F.transaction("F-0", of: "F", from: 14, days: 30, price: "4.99")],
            renewal: RenewalFact(
                originalTransactionID: "F", bundleID: F.bundleID, environment: .production, isInBillingRetryPeriod: true,
                gracePeriodExpiresDate: F.day(60), observedAt: F.day(44))),
        F.chain([F.transaction("G-0", of: "G", product: "pro.weekly", from: 44, days: 7, price: "500", currency: "JPY")]),
    ]

    @Test("actives count paid subscriptions active or in grace at the day's end; billing retry and lapsed do not; trials apart")
    func actives() {
        #expect(F.value(Self.answer(.activeSubscriptions, Self.population, from: 45, to: 45)) == 4)  // A, B, F, G
        #expect(F.value(Self.answer(.activeTrials, Self.population, from: 45, to: 45)) == 1)  // C
        let grouped = Self.answer(.activeSubscriptions, Self.population, from: 45, to: 45, groupBy: .product)
        #expect(grouped.points[0].groups == ["pro.monthly": 2, "pro.yearly": 1, "pro.weekly": 1])
    }

    @Test(
        "MRR sums each paid period's price per month in the report currency; a grace period keeps its price; a currency without a rate is named"
    )
    func mrr() {
        let answer = Self.answer(.mrr, Self.population, from: 45, to: 45)
        // A 9.99 + B 59.99 € × 1.10 / 12 + F 4.99; G (JPY) has no rate.
        let expected = Decimal(string: "9.99")! + Decimal(string: "59.99")! * Decimal(string: "1.10")! / 12 + Decimal(string: "4.99")!
        #expect(F.rounded(F.value(answer)) == F.rounded(expected))
        #expect(answer.missingRates == ["JPY"])
        #expect(F.rounded(F.value(Self.answer(.arr, Self.population, from: 45, to: 45))) == F.rounded(expected * 12))
    }

    @Test("the commission's year: 15% once 365 paid days are behind a period; a 59-day lapse keeps the count, a 61-day lapse restarts it")
    func paidServiceYear() {
        func periods(months: Int, lapse: Double?) -> [DateInterval] {
            var result = (0..<months).map { DateInterval(start: F.day(Double($0) * 30), duration: 30 * 86_400) }
            if let lapse { result.append(DateInterval(start: F.day(Double(months) * 30 + lapse), duration: 30 * 86_400)) }
            return result
        }
        // Twelve periods are 360 paid days: the thirteenth starts short of a year, the fourteenth after.
        #expect(PaidServiceYear.reduced(periods(months: 14, lapse: nil)) == Array(repeating: false, count: 13) + [true])
        #expect(PaidServiceYear.reduced(periods(months: 13, lapse: 59)).last == true)
        #expect(PaidServiceYear.reduced(periods(months: 13, lapse: 61)).last == false)
        #expect(PaidServiceYear.reduced(periods(months: 13, lapse: 60)).last == true, "exactly 60 days is not over 60")
    }

    @Test(
        "proceeds: price without tax less 30%, or 15% in the Small Business Program or after a paid year; prorated refunds keep their share"
    )
    func proceeds() {
        let german = F.chain([F.transaction("P-0", of: "P", from: 5, price: "11.90", currency: "EUR", storefront: "DEU")])
        let taxes = TaxRates(["DEU": Decimal(string: "0.19")!])
        // 11.90 € with 19% tax is 10.00 € net; 70% of it is 7.00 €, × 1.10 = 7.70 USD.
        #expect(F.rounded(F.value(Self.answer(.proceeds, [german], from: 5, to: 5, pricing: F.pricing(taxRates: taxes)))) == 7.7)
        let program = SmallBusinessProgram(periods: [.init(from: F.day(0), until: F.day(6))])
        #expect(
            F.rounded(
                F.value(Self.answer(.proceeds, [german], from: 5, to: 5, pricing: F.pricing(taxRates: taxes, smallBusiness: program))))
                == 9.35)  // 85% of 10.00 € × 1.10
        let outside = SmallBusinessProgram(periods: [.init(from: F.day(0), until: F.day(5))])  // `until` is excluded
        #expect(
            F.rounded(
                F.value(Self.answer(.proceeds, [german], from: 5, to: 5, pricing: F.pricing(taxRates: taxes, smallBusiness: outside))))
                == 7.7)
        // A loyal subscriber: the fifteenth monthly period is after a paid year.
        let loyal = F.monthly("L", from: 0, months: 15, price: "10.00")
        #expect(F.value(Self.answer(.proceeds, [loyal], from: 420, to: 420)) == Decimal(string: "8.5"))
        #expect(F.value(Self.answer(.proceeds, [loyal], from: 360, to: 360)) == 7)
        // Refunds: half of a prorated one is kept; nothing of a full one, or one without a type.
        let halfRefund = F.chain([
            F.transaction("R-0", of: "R", from: 5, price: "10.00", refundedOn: 20, revocation: ("REFUND_PRORATED", 50_000))
        ])
        #expect(F.value(Self.answer(.revenue, [halfRefund], from: 5, to: 5)) == 5)
        #expect(F.value(Self.answer(.proceeds, [halfRefund], from: 5, to: 5)) == Decimal(string: "3.5"))
        let fullRefund = F.chain([F.transaction("R2-0", of: "R2", from: 5, price: "10.00", refundedOn: 20)])
        #expect(F.value(Self.answer(.revenue, [fullRefund], from: 5, to: 5)) == 0)
    }

    @Test("churn: of the paid subscriptions active at the interval's start, those not active at its end; a refund counts from its date")
    func churn() {
        let chains = [
            F.monthly("stays", from: 0, months: 3),
            F.monthly("lapses", from: 10, months: 1),  // ends day 40
            F.chain([F.transaction("refunded-0", of: "refunded", from: 20, days: 30, refundedOn: 35)]),
            F.chain([F.transaction("later-0", of: "later", from: 20, days: 30, refundedOn: 70)]),  // refunded after the interval
            F.chain([F.transaction("trial-0", of: "trial", from: 29, days: 7, trial: true)]),  // not paid: not in the base
        ]
        let total = Self.answer(.churn, chains, from: 30, to: 58, interval: .month)  // January 31 to February 28
        let first = total.points[0]  // day 30 (Jan 31) alone: nothing ends that day
        #expect(first.counts == ["churned": 0, "base": 4])
        let february = total.points[1]  // February 1 (day 31) to 28 (day 58)
        #expect(february.counts == ["churned": 3, "base": 4])  // lapses, refunded (day 35), later (ends day 50)
        #expect(february.value == Decimal(3) / 4)
    }

    @Test("trial conversion: trials started in the interval followed by a paid, unrefunded period; still running is pending")
    func trialConversion() {
        let chains = [
            F.chain([F.transaction("c-0", of: "c", from: 1, days: 7, trial: true), F.transaction("c-1", of: "c", from: 8)]),
            F.chain([
                F.transaction("r-0", of: "r", from: 2, days: 7, trial: true), F.transaction("r-1", of: "r", from: 9, refundedOn: 12),
            ]),
            F.chain([F.transaction("p-0", of: "p", from: 3, days: 7, trial: true)]),
            F.chain([F.transaction("x-0", of: "x", from: 40, days: 7, trial: true)]),  // another interval
        ]
        let point = Self.answer(.trialConversion, chains, from: 0, to: 6, interval: .week, now: 9.5).points
        let counts = point.reduce(into: [String: Int]()) { total, next in total.merge(next.counts, uniquingKeysWith: +) }
        #expect(counts == ["converted": 1, "started": 3, "pending": 1])
        #expect(Self.answer(.trialConversion, chains, from: 20, to: 20).points[0].value == nil, "no trial started: no rate")
    }

    @Test(
        "revenue counts paid transactions on their purchase day, net of refunds known now; a late refund changes that day, and the refund rate"
    )
    func revenueAndLateRefund() {
        let before = [F.monthly("m", from: 5, months: 2, price: "10.00")]
        #expect(F.value(Self.answer(.revenue, before, from: 5, to: 5)) == 10)
        let refunded = [
            F.chain([
                F.transaction("m-0", of: "m", from: 5, price: "10.00", refundedOn: 90),
                F.transaction("m-1", of: "m", from: 35, price: "10.00"),
            ])
        ]
        #expect(F.value(Self.answer(.revenue, refunded, from: 5, to: 5)) == 0)
        #expect(F.value(Self.answer(.revenue, refunded, from: 35, to: 35)) == 10)
        #expect(F.value(Self.answer(.refundRate, refunded, from: 0, to: 59, interval: .month)) == 1)
        #expect(Self.answer(.refundRate, refunded, from: 0, to: 59, interval: .month).points[1].value == 0)
        // Before its refund date, the refunded period still counts as active with its price.
        #expect(F.value(Self.answer(.mrr, refunded, from: 20, to: 20)) == 10)
        #expect(F.value(Self.answer(.newSubscriptions, refunded, from: 5, to: 5)) == 1)
    }

    @Test("a month's buckets are calendar months clipped to the days asked; weeks start on Monday")
    func buckets() {
        let january15 = F.day(14)
        let march10 = F.day(68)
        let months = ReportQuery(metric: .mrr, from: january15, to: march10, interval: .month).buckets
        #expect(months.map(\.start) == [F.day(14), F.day(31), F.day(59)])
        #expect(months.last?.end == F.day(69))
        let weeks = ReportQuery(metric: .mrr, from: F.day(0), to: F.day(13), interval: .week).buckets  // 2026-01-01 is a Thursday
        #expect(weeks.map(\.start) == [F.day(0), F.day(4), F.day(11)])
    }

    @Test("a transaction with no price is left out of the amounts and named in a warning, never counted as zero")
    func unpriced() {
        let chains = [F.chain([F.transaction("n-0", of: "n", from: 5, price: nil)]), F.monthly("m", from: 5, months: 1, price: "3.00")]
        let answer = Self.answer(.revenue, chains, from: 5, to: 5)
        #expect(answer.points[0].value == 3)
        #expect(answer.warnings.count == 1 && answer.warnings[0].contains("n-0"))
    }
}
