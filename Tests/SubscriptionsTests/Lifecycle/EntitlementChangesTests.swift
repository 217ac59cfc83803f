import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("entitlement_changed: which entitlements began or ended between two reviews")
struct EntitlementChangesTests {
    static let until = Date(timeIntervalSince1970: 1_790_000_000)
    static let pro = EntitlementState(
        active: true, source: .subscription, productID: "pro.monthly", expiresAt: until, environment: .production)

    @Test("began, ended, stayed (another source or a later end is no change), and one the catalog dropped ended")
    func changes() {
        var renewed = Self.pro
        renewed.expiresAt = Self.until.addingTimeInterval(86_400)
        let changes = EntitlementChanges.changes(
            previouslyActive: ["pro", "old", "stays"],
            now: ["pro": .inactive, "new": Self.pro, "stays": renewed, "never": .inactive])
        #expect(
            changes == [
                EntitlementChanges.Change(entitlementID: "new", state: Self.pro),
                EntitlementChanges.Change(entitlementID: "old", state: .inactive),
                EntitlementChanges.Change(entitlementID: "pro", state: .inactive),
            ])
        #expect(EntitlementChanges.changes(previouslyActive: ["pro"], now: ["pro": Self.pro]).isEmpty)
    }

    @Test("an entitlement's events go to the apps of its products; one no product grants goes to every app")
    func apps() {
        let catalog = ProductCatalog(
            products: [
                Product(productID: "a.pro", bundleID: "com.example.a", type: .autoRenewable),
                Product(productID: "b.pro", bundleID: "com.example.b", type: .nonConsumable),
            ],
            entitlements: [Entitlement(id: "pro", productIDs: ["b.pro", "a.pro", "unknown"]), Entitlement(id: "legacy", productIDs: [])])
        #expect(EntitlementChanges.bundleIDs(of: "pro", catalog: catalog, apps: ["com.example.c"]) == ["com.example.a", "com.example.b"])
        #expect(
            EntitlementChanges.bundleIDs(of: "legacy", catalog: catalog, apps: ["com.example.c", "com.example.a"]) == [
                "com.example.a", "com.example.c",
            ])
        #expect(EntitlementChanges.bundleIDs(of: "gone", catalog: catalog, apps: ["com.example.c"]) == ["com.example.c"])
    }
}
