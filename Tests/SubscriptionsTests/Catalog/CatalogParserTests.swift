import CatalogFiles
import Foundation
import Subscriptions
import Testing

@Suite("catalog parser")
struct CatalogParserTests {
    /// DESIGN.md's example plus one product of each other kind and offer.
    static let validFile = """
        { "products": [
          { "product_id": "com.example.pro.monthly", "bundle_id": "com.example.app",
            "type": "auto_renewable", "subscription_group_id": "20500000", "period": "P1M", "level": 2,
            "intro_offer": { "payment_mode": "free_trial", "period": "P1W", "periods": 1, "price": "0.00" } },
          { "product_id": "com.example.pro.yearly", "bundle_id": "com.example.app",
            "type": "auto_renewable", "subscription_group_id": 20500000, "period": "P1Y",
            "intro_offer": [{ "payment_mode": "pay_up_front", "period": "P3M", "periods": 1, "price": 9.99 }] },
          { "product_id": "com.example.plus.monthly", "bundle_id": "com.example.app",
            "type": "auto_renewable", "subscription_group_id": "20600000", "period": "P1M",
            "intro_offer": { "payment_mode": "pay_as_you_go", "period": "P1M", "periods": "3", "price": "0.99" } },
          { "product_id": "com.example.pro.weekly", "bundle_id": "com.example.app",
            "type": "auto_renewable", "subscription_group_id": "20500000", "period": "P1W", "intro_offer": null },
          { "product_id": "com.example.pass", "bundle_id": "com.example.app", "type": "non_renewing" },
          { "product_id": "com.example.coins", "bundle_id": "com.example.app", "type": "consumable", "intro_offer": [] },
          { "product_id": "com.example.unlock", "bundle_id": "com.example.app", "type": "non_consumable",
            "subscription_group_id": "" }
        ] }
        """

    @Test func validCatalog() throws {
        let products = try CatalogParser.parse(json: Array(Self.validFile.utf8)).get().products
        #expect(
            products.map(\.productID) == [
                "com.example.pro.monthly", "com.example.pro.yearly", "com.example.plus.monthly",
                "com.example.pro.weekly", "com.example.pass", "com.example.coins", "com.example.unlock",
            ])
        #expect(
            products[0]
                == Product(
                    productID: "com.example.pro.monthly", bundleID: "com.example.app", type: .autoRenewable,
                    subscriptionGroupID: "20500000", period: ISO8601Duration("P1M"),
                    introOffer: IntroOffer(paymentMode: .freeTrial, period: ISO8601Duration("P1W")!, periods: 1, price: 0)
                ))
        #expect(products[1].subscriptionGroupID == "20500000")
        #expect(
            products[1].introOffer
                == IntroOffer(paymentMode: .payUpFront, period: ISO8601Duration("P3M")!, periods: 1, price: Decimal(string: "9.99")!))
        #expect(products[2].introOffer?.periods == 3)
        #expect(products[2].introOffer?.price == Decimal(string: "0.99"))
        #expect(products[2].introOffer?.totalDuration == ISO8601Duration("P3M"))
        #expect(products[3].introOffer == nil)
        #expect(products[4] == Product(productID: "com.example.pass", bundleID: "com.example.app", type: .nonRenewing))
        #expect(products[5].introOffer == nil && products[5].type == .consumable)
        #expect(products[6].subscriptionGroupID == nil)
    }

    @Test func catalogLooksUpByIDAndGroup() throws {
        let catalog = ProductCatalog(products: try CatalogParser.parse(json: Array(Self.validFile.utf8)).get().products)
        #expect(catalog.product("com.example.plus.monthly")?.subscriptionGroupID == "20600000")
        #expect(catalog.product("nope") == nil)
        #expect(
            catalog.products(inGroup: "20500000").map(\.productID) == [
                "com.example.pro.monthly", "com.example.pro.yearly", "com.example.pro.weekly",
            ])
        #expect(catalog.products(inGroup: "99").isEmpty)
    }

    @Test func trialBoundsAreInclusive() throws {
        for period in ["P3D", "P1Y", "P12M", "P52W", "P365D"] {
            let file = CatalogText.file(CatalogText.product(intro: CatalogText.offer(period: period)))
            #expect(CatalogParser.parse(json: file).problemLines == [], "free trial \(period)")
        }
    }

    @Test func freeTrialWithoutPriceIsFreeAndPeriodsDefaultToOne() throws {
        let file = CatalogText.file(CatalogText.product(intro: CatalogText.offer(periods: nil, price: nil)))
        let offer = try #require(try CatalogParser.parse(json: file).get().products.first?.introOffer)
        #expect(offer.price == 0 && offer.periods == 1)
    }

    @Test func payAsYouGoAcceptsTheSamePeriodWrittenDifferently() throws {
        let file = CatalogText.file(
            CatalogText.product(
                period: "P1W", intro: CatalogText.offer(mode: "pay_as_you_go", period: "P7D", periods: "4", price: "\"0.49\"")
            ))
        #expect(CatalogParser.parse(json: file).problemLines == [])
    }

    @Test func emptyCatalogIsValid() throws {
        #expect(try CatalogParser.parse(json: Array(#"{"products": []}"#.utf8)).get().products.isEmpty)
    }

    /// Read by the strict parser every JSON input goes through: a key given twice is refused
    /// instead of silently keeping one of the two values.
    @Test func duplicateKeysAreRefused() throws {
        let twice = Array(
            #"{"products": [{"product_id": "a", "product_id": "b", "bundle_id": "com.example.app", "type": "consumable"}]}"#.utf8)
        #expect(CatalogParser.parse(json: twice).problemLines == ["catalog: not valid JSON"])
    }

    @Test func fileNameChoosesTheFormat() throws {
        let csv = Array("product_id,bundle_id,type\ncoins,com.example.app,consumable\n".utf8)
        #expect(try CatalogParser.parse(csv, fileName: "catalog.CSV").get().products.map(\.productID) == ["coins"])
        #expect(CatalogParser.parse(csv, fileName: "catalog.json").problemLines == ["catalog: not valid JSON"])
    }

    @Test func promotionalOffersAreReadAndWrittenBack() throws {
        let file = CatalogText.file(
            CatalogText.product(
                extra:
                    #""promotional_offers": [{"id": "comeback50", "for": ["lapsed"]}, {"id": "stay", "for": ["auto_renew_off", "billing_retry"]}]"#
            ))
        let product = try #require(try CatalogParser.parse(json: file).get().products.first)
        #expect(
            product.promotionalOffers == [
                PromotionalOfferRule(offerID: "comeback50", audiences: [.lapsed]),
                PromotionalOfferRule(offerID: "stay", audiences: [.autoRenewOff, .billingRetry]),
            ])
        let encoded = try JSONEncoder().encode(["products": [product]])
        #expect(try CatalogParser.parse(json: Array(encoded)).get().products == [product])
        #expect(try CatalogParser.parse(json: CatalogText.file(CatalogText.product())).get().products.first?.promotionalOffers == nil)
    }

    @Test func productsEncodeInTheCatalogFormatAndReadBack() throws {
        let products = try CatalogParser.parse(json: Array(Self.validFile.utf8)).get().products
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(["products": products])
        let first = String(decoding: try encoder.encode(products[0]), as: UTF8.self)
        #expect(
            first
                == #"{"bundle_id":"com.example.app","intro_offer":{"payment_mode":"free_trial","period":"P1W","periods":1,"price":"0"},"period":"P1M","product_id":"com.example.pro.monthly","subscription_group_id":"20500000","type":"auto_renewable"}"#
        )
        #expect(try CatalogParser.parse(json: Array(data)).get().products == products)
        #expect(try JSONDecoder().decode([String: [Product]].self, from: data)["products"] == products)
    }
}
