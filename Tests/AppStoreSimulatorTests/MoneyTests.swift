import AppStoreSimulator
import Foundation
import Testing

@Suite("Money: prices per storefront, refunds with percentages, the simulator's report arithmetic")
struct MoneyTests {
    @Test func theCatalogExportCarriesPricesPerStorefront() throws {
        let json = try jsonObject(Array(try SimulatorConfiguration.demo().catalog.jsonText().utf8))
        let products = (json["products"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
            $0[$1["product_id"] as? String ?? ""] = $1
        }
        let monthly = try #require(products["com.example.pro.monthly"])
        #expect(monthly["price"] as? String == "4.99" && monthly["currency"] as? String == "USD")
        let prices = try #require(monthly["prices"] as? [String: [String: String]])
        #expect(prices["DEU"] == ["price": "4.99", "currency": "EUR"])
        #expect(prices["JPN"] == ["price": "750", "currency": "JPY"] && prices["GBR"]?["currency"] == "GBP")
        let yearly = try #require(products["com.example.pro.yearly"]?["prices"] as? [String: [String: String]])
        #expect(yearly["JPN"] == ["price": "6000", "currency": "JPY", "intro_price": "1500"])
        let lifetime = try #require(products["com.example.pro.lifetime"]?["prices"] as? [String: [String: String]])
        #expect(lifetime["DEU"] == ["price": "49.99", "currency": "EUR"])
        #expect(products["com.example.pro.trial"]?["prices"] == nil)
    }

    @Test func customersPayInTheirStorefrontsCurrency() throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers(
            [
                CustomerSpec(name: "de", scenario: .trialRenews, productID: "com.example.pro.monthly", renewals: 2, storefront: "DEU"),
                CustomerSpec(name: "jp", scenario: .trialRenews, productID: "com.example.pro.yearly", renewals: 0, storefront: "JPN"),
                CustomerSpec(name: "us", scenario: .trialRenews, productID: "com.example.news.weekly", renewals: 1),
                CustomerSpec(name: "gb", scenario: .consumable, storefront: "GBR"),
            ].map { spec in
                var spec = spec
                spec.notificationVersion = .v2
                return spec
            }, endingAt: fixedEnd)
        let german = customers[0].state(at: fixedEnd).transactions
        #expect(
            german.map(\.charge) == [
                .free("EUR"), SimCharge(milliunits: 4_990, currency: "EUR"), SimCharge(milliunits: 4_990, currency: "EUR"),
            ])
        let renewal = try DecodedNotificationV2(try #require(customers[0].notifications.last))
        #expect(renewal.transaction["price"] as? Int == 4_990 && renewal.transaction["currency"] as? String == "EUR")
        #expect(renewal.transaction["storefront"] as? String == "DEU" && renewal.transaction["storefrontId"] as? String == "143443")
        #expect(renewal.renewal["renewalPrice"] as? Int == 4_990 && renewal.renewal["currency"] as? String == "EUR")
        let trial = try DecodedNotificationV2(try #require(customers[0].notifications.first))
        #expect(trial.transaction["price"] as? Int == 0 && trial.transaction["offerDiscountType"] as? String == "FREE_TRIAL")
        #expect(trial.transaction["offerPeriod"] as? String == "P1W")

        let japanese = try DecodedNotificationV2(try #require(customers[1].notifications.first))
        #expect(japanese.transaction["price"] as? Int == 1_500_000 && japanese.transaction["currency"] as? String == "JPY")
        #expect(
            japanese.transaction["offerDiscountType"] as? String == "PAY_UP_FRONT"
                && japanese.transaction["offerPeriod"] as? String == "P3M")
        #expect(japanese.renewal["renewalPrice"] as? Int == 6_000_000)

        let weekly = customers[2].state(at: fixedEnd).transactions.map(\.charge)
        #expect(weekly == [SimCharge(milliunits: 490, currency: "USD"), SimCharge(milliunits: 490, currency: "USD")])
        let coins = try #require(customers[3].state(at: fixedEnd).purchases.first)
        #expect(coins.priceMilliunits == 890 && coins.currency == "GBP" && coins.storefront == "GBR")
        let charge = try DecodedNotificationV2(try #require(customers[3].notifications.first))
        #expect(charge.transaction["currency"] as? String == "GBP" && charge.transaction["storefrontId"] as? String == "143444")
    }

    @Test func refundsSayWhetherTheyAreProratedAndByHowMuch() throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers(
            [
                CustomerSpec(
                    name: "prorated", scenario: .refund, productID: "com.example.premium.monthly", renewals: 1,
                    notificationVersion: .v2, proratedRefund: true),
                CustomerSpec(
                    name: "full", scenario: .refund, productID: "com.example.premium.monthly", renewals: 1, notificationVersion: .v2),
                CustomerSpec(name: "pass", scenario: .passRefunded, notificationVersion: .v2),
            ], endingAt: fixedEnd)
        let refunded = try #require(customers[0].state(at: fixedEnd).subscriptions.first?.latest)
        let cancelled = try #require(refunded.cancellationDate)
        let unused = refunded.expiresDate.timeIntervalSince(cancelled) / refunded.expiresDate.timeIntervalSince(refunded.purchaseDate)
        let percentage = try #require(refunded.refundPercentage)
        #expect((0...100_000).contains(percentage) && percentage == Int((unused * 100_000).rounded()))
        let prorated = try DecodedNotificationV2(try #require(customers[0].notifications.last))
        #expect(prorated.payload["notificationType"] as? String == "REFUND")
        #expect(prorated.transaction["revocationType"] as? String == "REFUND_PRORATED")
        #expect(prorated.transaction["revocationPercentage"] as? Int == percentage)

        let full = try DecodedNotificationV2(try #require(customers[1].notifications.last))
        #expect(full.transaction["revocationType"] as? String == "REFUND_FULL" && full.transaction["revocationPercentage"] == nil)
        #expect(customers[1].state(at: fixedEnd).subscriptions.first?.latest.refundPercentage == nil)

        // The second 30-day pass is refunded 2 days after its purchase: 28 of its 30 days unused.
        let pass = try #require(customers[2].state(at: fixedEnd).purchases.last)
        #expect(pass.proratedRefund && pass.refundPercentage == 93_333)
        let passRefund = try DecodedNotificationV2(try #require(customers[2].notifications.last))
        #expect(passRefund.transaction["revocationType"] as? String == "REFUND_PRORATED")
        #expect(passRefund.transaction["revocationPercentage"] as? Int == 93_333)
    }

    @Test func theDemoHasCommissionRelevantHistories() throws {
        let simulator = makeSimulator()
        try simulator.addDemoCustomers(notificationVersions: .mixed, endingAt: fixedEnd)
        func subscription(_ name: String) throws -> SimSubscription {
            try #require(simulator.customer(name)?.state(at: fixedEnd).subscriptions.first, "\(name)")
        }
        let year: TimeInterval = 365 * 86_400
        let olga = try subscription("olga-paid-over-a-year").transactions.filter { !$0.isTrialPeriod }
        #expect(olga.reduce(0) { $0 + $1.expiresDate.timeIntervalSince($1.purchaseDate) } > year)
        let pete = try subscription("pete-lapses-90-days").transactions
        let lapses = zip(pete, pete.dropFirst()).map { $1.purchaseDate.timeIntervalSince($0.expiresDate) }
        #expect(lapses.contains { $0 > 60 * 86_400 })
        #expect(pete.dropLast().filter { !$0.isTrialPeriod }.reduce(0) { $0 + $1.expiresDate.timeIntervalSince($1.purchaseDate) } > year)
        let rita = try subscription("rita-refund-prorated").latest
        #expect(rita.refundPercentage != nil && rita.charge.currency == "GBP")
        #expect(try subscription("hank-refund").latest.isRefunded && subscription("hank-refund").latest.refundPercentage == nil)
        #expect(try subscription("emma-deu-euro").latest.charge == SimCharge(milliunits: 4_990, currency: "EUR"))
        #expect(try subscription("kenji-jpn-yen").latest.charge == SimCharge(milliunits: 6_000_000, currency: "JPY"))
        // Only v2 states prices and refund shares: these customers are v2 whenever v2 is in the mix.
        for name in ["rita-refund-prorated", "emma-deu-euro", "kenji-jpn-yen"] {
            #expect(simulator.customer(name)?.spec.notificationVersion == .v2, "\(name)")
        }
        let money = simulator.money(
            day: fixedEnd, revenueFrom: fixedEnd.addingTimeInterval(-29 * 86_400), revenueTo: fixedEnd,
            rates: AppStoreSimulator.standardRates(through: fixedEnd), knownAt: fixedEnd)
        #expect(money.missingRates.isEmpty && money.activeSubscriptions > 0 && money.mrr > 0 && money.revenue > 0)
    }

    @Test func monthlyFactorsFollowTheDesign() {
        let factors = [
            ISODuration(days: 1), ISODuration(weeks: 1), ISODuration(weeks: 2), ISODuration(months: 1),
            ISODuration(months: 3), ISODuration(months: 6), ISODuration(years: 1),
        ].map(\.monthlyFactor)
        #expect(factors == [30, 4, 2, 1, 1 / Decimal(3), 1 / Decimal(6), 1 / Decimal(12)])
        #expect(ISODuration(months: 1, days: 2).monthlyFactor == nil)
    }

    @Test func theSimulatorsRatesReadBackAndConvertAtTheNewestRateBeforeTheDay() throws {
        let rates = SimExchangeRates.standard(from: day("2025-11-20"), through: day("2026-01-15"))
        let lines = rates.csv.split(separator: "\n").map(String.init)
        #expect(lines.first == "date,currency,rate" && lines.count == 1 + 3 * 4)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("2025-11-01,") || $0.hasPrefix("2025-12-01,") || $0.hasPrefix("2026-01-01,") })
        #expect(try SimExchangeRates(csv: rates.csv) == rates)
        let december = try #require(rates.rates.first { $0.currency == "EUR" && $0.day == day("2025-12-01") }?.rate)
        #expect(rates.convert(10, "EUR", on: day("2025-12-31")) == 10 * december)
        #expect(rates.convert(10, "EUR", on: day("2025-10-31")) == nil && rates.convert(10, "USD", on: day("2020-01-01")) == 10)
        #expect(rates.convert(1, "CHF", on: day("2026-01-15")) == nil)
        // Every rate is an exact decimal within 3 % of its base.
        #expect(
            rates.rates.filter { $0.currency == "JPY" }.allSatisfy {
                $0.rate >= Decimal(string: "0.006499")! && $0.rate <= Decimal(string: "0.006901")!
            })
    }

    /// Twelve customers and their worked numbers at the end of 2026-01-15, revenue from
    /// 2025-12-17 through 2026-01-15; EUR is 1.10 USD from 2025-12-01 and 1.20 from 2026-01-10,
    /// JPY 0.007 from 2025-12-01, GBP has no rate.
    @Test func theArithmeticOnAHandMadePopulation() throws {
        let rates = SimExchangeRates(rates: [
            .init(day: day("2025-12-01"), currency: "EUR", rate: Decimal(string: "1.10")!),
            .init(day: day("2026-01-10"), currency: "EUR", rate: Decimal(string: "1.20")!),
            .init(day: day("2025-12-01"), currency: "JPY", rate: Decimal(string: "0.007")!),
        ])
        let catalog = SimulatorConfiguration.demo().catalog
        let usd = { (price: Int) in SimCharge(milliunits: price, currency: "USD") }
        var refundedProrated = period("premium", "2026-01-02", "2026-02-02", usd(9_990))
        refundedProrated.cancellationDate = day("2026-01-08")
        refundedProrated.refundPercentage = 80_000
        var refundedFully = period("monthly", "2026-01-03", "2026-02-03", usd(4_990))
        refundedFully.cancellationDate = day("2026-01-04")
        var passRefund = SimPurchase(
            transactionID: "p2", productID: "com.example.pass.30days", kind: .nonRenewing, purchaseDate: day("2026-01-06"),
            priceMilliunits: 6_990, cancellationDate: day("2026-01-09"), proratedRefund: true, refundPercentage: 50_000)
        passRefund.cancellationReason = "0"
        let population: [MoneyTruth.Customer] = [
            // a: active, 4.99 a month; revenue 4.99.
            customer(period("monthly", "2026-01-01", "2026-02-01", usd(4_990))),
            // b: active in euros: MRR 4.99 × 1.20 = 5.988; revenue at January 5th's 1.10: 5.489.
            customer(period("monthly", "2026-01-05", "2026-02-05", SimCharge(milliunits: 4_990, currency: "EUR"), storefront: "DEU")),
            // c: 1500 yen paid up front for three months: MRR 1500 × 0.007 / 3 = 3.50; revenue 10.50.
            customer(
                period(
                    "yearly", "2025-12-20", "2026-03-20", SimCharge(milliunits: 1_500_000, currency: "JPY"), intro: true, storefront: "JPN")
            ),
            // d: in a free trial: a trial, no MRR, no revenue.
            customer(period("monthly", "2026-01-12", "2026-01-19", usd(0), trial: true)),
            // e: in a grace period until the 26th: active at its last price 9.99; bought before the range.
            customer(period("premium", "2025-12-10", "2026-01-10", usd(9_990)), retrying: day("2026-01-26")),
            // f: in billing retry: not active; revenue 9.99.
            customer(period("premium", "2025-12-20", "2026-01-01", usd(9_990)), retrying: nil),
            // g: refunded prorated by 80 %: revoked; revenue 9.99 × 0.2 = 1.998.
            customer(refundedProrated),
            // h: refunded in full: revoked; revenue 0.
            customer(refundedFully),
            // i: sandbox: counts nowhere.
            customer(period("monthly", "2026-01-01", "2026-02-01", usd(4_990)), environment: .sandbox),
            // j: a lifetime unlock 49.99, a pass refunded by half (6.99 × 0.5 = 3.495), coins in pounds (no rate).
            MoneyTruth.Customer(
                environment: .production,
                state: CustomerState(purchases: [
                    SimPurchase(
                        transactionID: "p1", productID: "com.example.pro.lifetime", kind: .nonConsumable, purchaseDate: day("2026-01-14"),
                        priceMilliunits: 49_990),
                    passRefund,
                    SimPurchase(
                        transactionID: "p3", productID: "com.example.coins.100", kind: .consumable, purchaseDate: day("2026-01-07"),
                        priceMilliunits: 890, currency: "GBP", storefront: "GBR"),
                ])),
            // k: paying 0.49 a week as you go: MRR 0.49 × 4 = 1.96; revenue 0.49.
            customer(period("news", "2026-01-13", "2026-01-20", usd(490), intro: true)),
            // l: expired in December: nothing.
            customer(period("monthly", "2025-11-01", "2025-12-01", usd(4_990))),
        ]
        let money = MoneyTruth(
            customers: population, catalog: catalog, day: day("2026-01-15"), revenueFrom: day("2025-12-17"), revenueTo: day("2026-01-15"),
            rates: rates)
        #expect(money.activeSubscriptions == 5)  // a, b, c, e, k
        #expect(money.activeTrials == 1)  // d
        // 4.99 + 5.988 + 3.50 + 9.99 + 1.96
        #expect(money.mrr == Decimal(string: "26.428")!)
        // 4.99 + 5.489 + 10.50 + 9.99 + 1.998 + 0 + 49.99 + 3.495 + 0.49
        #expect(money.revenue == Decimal(string: "86.942")!)
        #expect(money.missingRates == ["GBP"] && money.currency == "USD")
        #expect(MoneyTruth.cents(money.mrr) == "26.43" && MoneyTruth.cents(money.revenue) == "86.94")
        let json = try jsonObject(Array(money.jsonText().utf8))
        #expect(json["mrr"] as? Double == 26.43 && json["active_subscriptions"] as? Int == 5 && json["day"] as? String == "2026-01-15")

        // The past as known now: on January 5th g was not refunded yet, e's period and f's ran.
        let earlier = MoneyTruth(
            customers: population, catalog: catalog, day: day("2026-01-05"), revenueFrom: day("2026-01-05"), revenueTo: day("2026-01-05"),
            rates: rates)
        #expect(earlier.activeSubscriptions == 5)  // a, b (bought on the 5th), c, e, g
        #expect(earlier.revenue == Decimal(string: "5.489")!)  // b
    }

    @Test func theControlAPIAnswersMoneyAndRates() async throws {
        let simulator = makeSimulator()
        try simulator.addDemoCustomers(endingAt: fixedEnd)
        try await withServer(simulator) { server in
            let control = server.baseURL.appendingPathComponent("control")
            let asked = try #require(URL(string: control.absoluteString + "/money?day=2026-01-15&from=2026-01-01&to=2026-01-15"))
            let money = try jsonObject(try await SimHTTPClient.send("GET", to: asked).body)
            let expected = simulator.money(
                day: day("2026-01-15"), revenueFrom: day("2026-01-01"), revenueTo: day("2026-01-15"),
                rates: AppStoreSimulator.standardRates(through: day("2026-01-15")))
            #expect(money["active_subscriptions"] as? Int == expected.activeSubscriptions)
            #expect(money["active_trials"] as? Int == expected.activeTrials && money["revenue_from"] as? String == "2026-01-01")
            #expect((money["mrr"] as? Double).map { String(format: "%.2f", $0) } == MoneyTruth.cents(expected.mrr))
            let bad = try #require(URL(string: control.absoluteString + "/money?day=yesterday"))
            #expect(try await SimHTTPClient.send("GET", to: bad).status == 400)
            let rates = try #require(URL(string: control.absoluteString + "/rates?through=2026-01-15"))
            let csv = try await SimHTTPClient.send("GET", to: rates).text
            #expect(try SimExchangeRates(csv: csv) == AppStoreSimulator.standardRates(through: day("2026-01-15")))
        }
    }

    @Test func aMoneyQueryDefaultsToTodayAndThirtyDays() throws {
        let query = try #require(MoneyQuery(day: nil, from: nil, to: nil, now: fixedEnd))
        #expect(SimDay.text(query.day) == "2026-01-15" && SimDay.text(query.from) == "2025-12-17" && SimDay.text(query.to) == "2026-01-15")
        #expect(MoneyQuery(day: "2026-02-30", from: nil, to: nil) == nil)
        #expect(MoneyQuery(day: nil, from: "2026-01-10", to: "2026-01-09") == nil)
    }

    // MARK: - A hand-made population

    private func day(_ text: String) -> Date {
        SimDay.parse(text)!
    }

    private func period(
        _ product: String, _ start: String, _ end: String, _ charge: SimCharge, trial: Bool = false, intro: Bool = false,
        storefront: String = "USA"
    ) -> SimTransaction {
        let productID = [
            "monthly": "com.example.pro.monthly", "yearly": "com.example.pro.yearly", "premium": "com.example.premium.monthly",
            "news": "com.example.news.weekly",
        ][product]!
        let id = "\(product)-\(start)"
        return SimTransaction(
            transactionID: id, originalTransactionID: id, productID: productID,
            groupID: productID.contains("news") ? "20600000" : "20500000", purchaseDate: day(start), originalPurchaseDate: day(start),
            expiresDate: day(end), webOrderLineItemID: id, isTrialPeriod: trial, isInIntroOfferPeriod: intro, storefront: storefront,
            charge: charge)
    }

    /// A customer with one subscription of one period; with `retrying`, Apple retries the charge
    /// (in a grace period until that moment when there is one).
    private func customer(
        _ period: SimTransaction, environment: SimEnvironment = .production, retrying: Date?? = .none
    ) -> MoneyTruth.Customer {
        var renewal = SimRenewalInfo(
            originalTransactionID: period.originalTransactionID, productID: period.productID, autoRenewStatusChangeDate: period.purchaseDate
        )
        if case .some(let graceEnd) = retrying {
            renewal.isInBillingRetryPeriod = true
            renewal.expirationIntent = .billingError
            renewal.gracePeriodExpiresDate = graceEnd
        }
        return MoneyTruth.Customer(
            environment: environment,
            state: CustomerState(subscriptions: [SimSubscription(groupID: period.groupID, transactions: [period], renewal: renewal)]))
    }
}
