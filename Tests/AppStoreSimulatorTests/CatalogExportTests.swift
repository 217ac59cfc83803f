import AppStoreSimulator
import Foundation
import Testing

@Suite("Catalog export: products of every type and entitlements")
struct CatalogExportTests {
    private func exported(
        _ configuration: SimulatorConfiguration = .demo()
    ) throws -> (entitlements: [String: [String]], products: [String: [String: Any]]) {
        let json = try jsonObject(Array(try configuration.catalog.jsonText().utf8))
        let entitlements = (json["entitlements"] as? [[String: Any]] ?? []).reduce(into: [String: [String]]()) {
            $0[$1["id"] as? String ?? ""] = $1["product_ids"] as? [String]
        }
        let products = (json["products"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
            $0[$1["product_id"] as? String ?? ""] = $1
        }
        return (entitlements, products)
    }

    @Test func theDemoCatalogNamesEntitlementsAndEveryProductType() throws {
        let (entitlements, products) = try exported()
        #expect(
            entitlements["pro"] == [
                "com.example.pro.monthly", "com.example.pro.yearly", "com.example.pro.annual.monthly", "com.example.premium.monthly",
                "com.example.pro.lifetime", "com.example.pass.30days",
            ])
        #expect(entitlements["news"] == ["com.example.news.weekly"])
        #expect(entitlements["paid_pro"] == ["com.example.paidapp.pro.yearly"])
        let lifetime = try #require(products["com.example.pro.lifetime"])
        #expect(lifetime["type"] as? String == "non_consumable" && lifetime["bundle_id"] as? String == "com.example.app")
        let pass = try #require(products["com.example.pass.30days"])
        #expect(pass["type"] as? String == "non_renewing" && pass["period"] as? String == "P30D")
        let trial = try #require(products["com.example.pro.trial"])
        #expect(
            trial["type"] as? String == "non_consumable" && trial["trial_of"] as? String == "pro"
                && trial["trial_period"] as? String == "P14D")
        #expect(trial["price"] as? String == "0.00")
        #expect(products["com.example.coins.100"]?["type"] as? String == "consumable")
        for id in ["com.example.pro.lifetime", "com.example.pass.30days", "com.example.pro.trial", "com.example.coins.100"] {
            let product = try #require(products[id])
            #expect(product["subscription_group_id"] == nil && product["intro_offer"] == nil && product["level"] == nil, "\(id)")
            #expect(id == "com.example.pass.30days" || product["period"] == nil, "\(id)")
        }
        #expect(products["com.example.paidapp.pro.yearly"]?["subscription_group_id"] as? String == "20700000")
        #expect(products["com.example.pro.monthly"]?["type"] as? String == "auto_renewable")
        #expect(products.count == 10)
    }

    @Test func theExportReadsBackAsTheSameCatalog() throws {
        let catalog = SimulatorConfiguration.demo().catalog
        // A commitment's length is the simulator's own (Apple's transactions carry it): not in the file.
        var filed = catalog
        for index in filed.products.indices { filed.products[index].commitmentPeriods = nil }
        #expect(catalog.products.contains { $0.commitmentPeriods == 12 })
        #expect(try ProductCatalog(json: Array(try catalog.jsonText().utf8)) == filed)
        let configuration = try SimulatorConfiguration(catalog: catalog, secrets: [:], defaultSecret: "x")
        #expect(configuration.apps.map(\.bundleID) == ["com.example.app", "com.example.paidapp"])
    }

    @Test func withoutThePaidAppThereIsNoPaidPro() throws {
        let (entitlements, products) = try exported(.demo(paidApp: false))
        #expect(Set(entitlements.keys) == ["pro", "news"])
        #expect(!products.keys.contains { $0.hasPrefix("com.example.paidapp") })
    }

    @Test func aNonRenewingProductNeedsAPeriod() throws {
        let json = #"{"products": [{"product_id": "p", "bundle_id": "a", "type": "non_renewing"}]}"#
        #expect(throws: (any Error).self) { try ProductCatalog(json: Array(json.utf8)) }
        let unknown = #"{"products": [{"product_id": "p", "bundle_id": "a", "type": "bundle"}], "entitlements": []}"#
        #expect(try ProductCatalog(json: Array(unknown.utf8)) == ProductCatalog(products: []))
    }
}
