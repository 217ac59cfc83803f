import AppStore
import Foundation
import Subscriptions
import Testing

@testable import ContractDocuments
@testable import Store

/// The read documents are written one way, without `JSONEncoder`; the bytes must stay
/// exactly what their former `Encodable` path gave (the contract is byte for byte).
@Suite("ContractJSONWriter: the same bytes as JSONEncoder")
struct ContractJSONWriterTests {
    /// Every control character, quotes, a backslash, a slash, non-ASCII and an emoji.
    static let awkward: String = {
        var text = ""
        for byte in UInt8(0)..<0x20 { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        return text + "\"\\/\u{7f}é\u{2028}😀 end"
    }()

    static let dates: [Date] = [
        Date(timeIntervalSince1970: 1_767_323_045.999_9), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5),
        Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
        Date(timeIntervalSince1970: 4_107_542_399),  // 2100-02-28T23:59:59
        Date(timeIntervalSince1970: 253_402_300_799.5),  // 9999-12-31T23:59:59
        Date(timeIntervalSince1970: -62_135_596_800),  // 0001-01-01 (Foundation: Julian calendar)
        Date(timeIntervalSince1970: -11_676_096_000),  // 1600-01-01
        Date(timeIntervalSince1970: -11_676_096_001),  // 1599-12-31T23:59:59
        Date(timeIntervalSince1970: -2_208_988_800.25),  // 1899-12-31
    ]

    private func transaction(_ index: Int, full: Bool) -> TransactionFact {
        TransactionFact(
            transactionID: "t\(index)", originalTransactionID: full ? Self.awkward : "o", productID: "p\(index)", bundleID: "b",
            environment: index % 2 == 0 ? .production : .sandbox, subscriptionGroupID: full ? "g" : nil,
            purchaseDate: Self.dates[index % Self.dates.count], expiresDate: full ? Self.dates[(index + 1) % Self.dates.count] : nil,
            webOrderLineItemID: full ? "w" : nil, isTrialPeriod: full, isInIntroOfferPeriod: !full, isUpgraded: full,
            cancellationDate: full ? Self.dates[(index + 2) % Self.dates.count] : nil, cancellationReason: full ? "1" : nil,
            ownershipType: full ? "FAMILY_SHARED" : nil
        )
    }

    private func view(_ index: Int, full: Bool) -> SubscriptionView {
        let snapshot = SubscriptionSnapshot(
            originalTransactionID: full ? Self.awkward : "o\(index)", bundleID: "com.example.app",
            environment: full ? .sandbox : .production, productID: "p", subscriptionGroupID: full ? "2050" : nil,
            status: SubscriptionStatus.allCases[index % SubscriptionStatus.allCases.count],
            expiresAt: full ? Self.dates[index % Self.dates.count] : nil, autoRenew: full ? index % 2 == 0 : nil,
            autoRenewProductID: full ? "p2" : nil, expirationIntent: full ? .billingError : nil, inTrial: full, inIntroOffer: !full,
            gracePeriodExpiresAt: full ? Self.dates[(index + 3) % Self.dates.count] : nil,
            revokedAt: full ? Self.dates[(index + 4) % Self.dates.count] : nil, revocationReason: full ? "0" : nil,
            latestTransactionID: "t", source: full ? .v2 : .v1, ownershipType: full ? "PURCHASED" : nil,
            offerKind: full ? .introductory : nil, appAccountToken: full ? "5f0c2a54-2b7e-4a0e-9d55-1d2a3b4c5d6e" : nil
        )
        return SubscriptionView(
            snapshot: snapshot, updatedAt: Self.dates[(index + 5) % Self.dates.count],
            transactions: (0..<(full ? 3 : 0)).map { transaction(index + $0, full: $0 % 2 == 0) },
            renewal: full
                ? RenewalFact(
                    originalTransactionID: "o", bundleID: "com.example.app", environment: .sandbox,
                    eligibleWinBackOfferIDs: ["winback.\(index)", Self.awkward], observedAt: Self.dates[0])
                : nil
        )
    }

    /// The writer's bytes equal what the document's former `Encodable` path wrote, and its
    /// `jsonValue` (what webhooks and the CLI embed) encodes to those bytes too.
    private func expectSameBytes(_ document: some ContractJSONWritable, as former: some Encodable) throws {
        let written = ContractJSONWriter.bytes(of: document)
        let encoded = Array(try ContractJSON.encode(former))
        #expect(Array(try ContractJSON.encode(document.jsonValue)) == written)
        // Both are valid UTF-8, so equal text means equal bytes; text fails readably.
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
        #expect(written.count == encoded.count)
    }

    /// Tax in Germany, the app in the Small Business Program: proceeds with digits to round.
    static let pricing = PurchasePricing(
        taxRates: TaxRates(["DEU": Decimal(string: "0.19")!]),
        smallBusiness: ["com.example.app": SmallBusinessProgram(periods: [.init(from: Date(timeIntervalSince1970: 0), until: nil)])])

    /// Every product the views name, priced in USD with a storefront price in EUR.
    static var pricedCatalog: ProductCatalog {
        let price = StorePrice(amount: Decimal(string: "9.99")!, currency: "USD")
        let prices = ["DEU": StorePrice(amount: Decimal(string: "8.99")!, currency: "EUR")]
        return ProductCatalog(
            products: (0..<(dates.count + 3)).map { index in
                Product(productID: "p\(index)", bundleID: "com.example.app", type: .autoRenewable, price: price, prices: prices)
            })
    }

    /// `view(index, full:)` with money: every other transaction priced by Apple in Germany and
    /// refunded in part, the others paid periods the catalog prices (in Germany when `full`);
    /// the latest period the last transaction.
    private func pricedView(_ index: Int, full: Bool) -> SubscriptionView {
        let base = view(index, full: full)
        var transactions = base.transactions
        for position in transactions.indices {
            transactions[position].isTrialPeriod = false
            transactions[position].isInIntroOfferPeriod = false
            transactions[position].storefront = full ? "DEU" : nil
            guard position % 2 == 1 else { continue }
            transactions[position].priceMilliunits = 9_990
            transactions[position].currency = "EUR"
            transactions[position].revocationType = "REFUND_PRORATED"
            transactions[position].revocationPercentage = 33_333
        }
        var snapshot = base.snapshot
        snapshot.latestTransactionID = transactions.last?.transactionID ?? "t"
        return SubscriptionView(snapshot: snapshot, updatedAt: base.updatedAt, transactions: transactions, renewal: base.renewal)
    }

    @Test("subscription documents, with and without transactions, every field set or null")
    func subscriptions() throws {
        for index in 0..<Self.dates.count {
            for full in [true, false] {
                for transactions in [true, false] {
                    try expectSameBytes(
                        SubscriptionDocument(view(index, full: full), includeTransactions: transactions),
                        as: FormerSubscriptionDocument(view: view(index, full: full), includeTransactions: transactions))
                    // As the read endpoints show it: each period priced by Apple, the catalog or nobody.
                    let priced = pricedView(index, full: full)
                    try expectSameBytes(
                        SubscriptionDocument(priced, includeTransactions: transactions, pricing: Self.pricing, catalog: Self.pricedCatalog),
                        as: FormerSubscriptionDocument(
                            view: priced, includeTransactions: transactions,
                            money: Self.pricing.money(ofSubscription: priced.transactions, catalog: Self.pricedCatalog)))
                }
            }
        }
    }

    @Test("subscriber documents: none, one and several subscriptions, entitlements and purchases")
    func subscribers() throws {
        let catalog = ProductCatalog(
            products: [
                Product(
                    productID: "p", bundleID: "com.example.app", type: .autoRenewable, subscriptionGroupID: "2050",
                    period: ISO8601Duration("P1M")),
                Product(productID: "life", bundleID: "com.example.app", type: .nonConsumable),
                Product(productID: "pass", bundleID: "com.example.app", type: .nonRenewing, period: ISO8601Duration("P30D")),
            ],
            entitlements: [Entitlement(id: Self.awkward, productIDs: ["life"]), Entitlement(id: "pro", productIDs: ["p", "pass"])])
        func purchase(_ index: Int, _ product: String) -> TransactionFact {
            var fact = transaction(index, full: index % 2 == 0)
            fact.productID = product
            fact.expiresDate = nil
            fact.isUpgraded = false
            fact.priceMilliunits = index % 2 == 0 ? 9_990 : nil
            fact.currency = index % 2 == 0 ? "EUR" : nil
            fact.revocationType = index % 2 == 0 ? "REFUND_PRORATED" : nil
            return fact
        }
        let purchases = [purchase(1, "life"), purchase(2, "pass"), purchase(3, "pass"), purchase(4, "coins")]
        let grant = ManualGrant(
            id: 7, appUserID: "u", entitlement: "pro", expiresAt: Self.dates[0], reason: "r", createdAt: Self.dates[1], revokedAt: nil)
        for (user, views, held) in [
            (Self.awkward, [], []), ("u", [view(0, full: true)], purchases), ("u", (0..<6).map { view($0, full: $0 % 3 != 0) }, purchases),
        ] {
            let read = SubscriberRead(
                views: views, holdings: CustomerHoldings(subscriptions: views.map(\.snapshot), oneTimePurchases: held, grants: [grant]),
                history: .empty, catalogGroups: [:], validUntil: nil, isStorable: true)
            for now in [Self.dates[1], Self.dates[3]] {
                let document = SubscriberDocument(appUserID: user, read: read, catalog: catalog, policies: EntitlementPolicies(), now: now)
                try expectSameBytes(document, as: FormerSubscriberDocument(appUserID: user, document: document, catalog: catalog))
                let priced = SubscriberDocument(
                    appUserID: user, read: read, catalog: catalog, policies: EntitlementPolicies(), pricing: Self.pricing, now: now)
                try expectSameBytes(
                    priced, as: FormerSubscriberDocument(appUserID: user, document: priced, catalog: catalog, pricing: Self.pricing))
            }
        }
    }

    @Test("eligibility documents: keys sorted as JSONEncoder sorts them")
    func eligibility() throws {
        let answers: [String: String] = [
            "com.example.pro.monthly": "eligible", "a10": "ineligible", "a9": "no_intro_offer", "B": "unknown_product",
            "_": "eligible", "é": "eligible", "e": "eligible", "a.b": "eligible", "a_b": "eligible", Self.awkward: "eligible",
        ]
        for eligibility in [[:], answers] {
            try expectSameBytes(EligibilityDocument(eligibility: eligibility), as: FormerEligibilityDocument(eligibility: eligibility))
        }
    }
}
