extension SimulatorConfiguration {
    /// The demo app's bundle id.
    public static let demoBundleID = "com.example.app"
    /// The demo app's shared secret.
    public static let demoSharedSecret = "demo-shared-secret"
    /// The second demo app, sold up front before version 2.0 and by subscription since.
    public static let demoPaidAppBundleID = "com.example.paidapp"
    /// The second demo app's shared secret.
    public static let demoPaidAppSharedSecret = "demo-paidapp-shared-secret"
    /// The second demo app's Apple ID (`appAppleId`).
    public static let demoPaidAppAppleID = 1_234_567_891

    /// The demo setup of `make demo`: two apps, their products and entitlements.
    ///
    /// `com.example.app`: group `20500000` has `com.example.pro.monthly` (1-week free trial),
    /// `com.example.pro.yearly` (pay up front for 3 months) and `com.example.premium.monthly`
    /// (a higher level, no offer); group `20600000` has `com.example.news.weekly` (pay as you go
    /// for 4 weeks), so offers in one group leave the other eligible. Besides subscriptions it
    /// sells `com.example.pro.lifetime` (non-consumable), `com.example.coins.100` (consumable),
    /// `com.example.pass.30days` (non-renewing, 30 days) and `com.example.pro.trial` (a free
    /// 14-day trial of `pro`). Entitlement `pro` comes with group `20500000`, the lifetime
    /// unlock and the pass; `news` with the weekly news.
    ///
    /// Each product costs its USD price in every storefront but Germany (EUR), the United
    /// Kingdom (GBP) and Japan (JPY), which have their own prices.
    ///
    /// With `paidApp`, also `com.example.paidapp`: paid up front before version 2.0, whose
    /// earlier buyers keep `paid_pro` for good; later ones subscribe to
    /// `com.example.paidapp.pro.yearly` (group `20700000`, 1-week free trial).
    public static func demo(
        seed: UInt64 = 42,
        sharedSecret: String = demoSharedSecret,
        paidApp: Bool = true,
        paidAppSharedSecret: String = demoPaidAppSharedSecret
    ) -> SimulatorConfiguration {
        let bundle = demoBundleID
        var products = [
            SimProduct(
                productID: "com.example.pro.monthly", bundleID: bundle, groupID: "20500000",
                period: ISODuration(months: 1), level: 2,
                introOffer: IntroOffer(paymentMode: .freeTrial, period: ISODuration(weeks: 1)),
                price: "4.99", prices: storefrontPrices(eur: "4.99", gbp: "4.49", jpy: "750")
            ),
            SimProduct(
                productID: "com.example.pro.yearly", bundleID: bundle, groupID: "20500000",
                period: ISODuration(years: 1), level: 2,
                introOffer: IntroOffer(paymentMode: .payUpFront, period: ISODuration(months: 3), price: "9.99"),
                price: "39.99", prices: storefrontPrices(eur: "39.99", gbp: "34.99", jpy: "6000", intro: ("9.99", "8.99", "1500"))
            ),
            // Billed monthly through a 12-month commitment (API 1.21): cheaper than monthly, dearer than yearly.
            SimProduct(
                productID: "com.example.pro.annual.monthly", bundleID: bundle, groupID: "20500000",
                period: ISODuration(months: 1), level: 2,
                price: "3.99", prices: storefrontPrices(eur: "3.99", gbp: "3.49", jpy: "600"), commitmentPeriods: 12
            ),
            SimProduct(
                productID: "com.example.premium.monthly", bundleID: bundle, groupID: "20500000",
                period: ISODuration(months: 1), level: 1,
                price: "9.99", prices: storefrontPrices(eur: "10.99", gbp: "8.99", jpy: "1500")
            ),
            SimProduct(
                productID: "com.example.news.weekly", bundleID: bundle, groupID: "20600000",
                period: ISODuration(weeks: 1), level: 1,
                introOffer: IntroOffer(paymentMode: .payAsYouGo, period: ISODuration(weeks: 1), periods: 4, price: "0.49"),
                price: "1.99", prices: storefrontPrices(eur: "1.99", gbp: "1.79", jpy: "300", intro: ("0.49", "0.49", "80"))
            ),
        ]
        let purchases = [
            SimPurchaseProduct(
                productID: "com.example.pro.lifetime", bundleID: bundle, kind: .nonConsumable,
                price: "49.99", prices: storefrontPrices(eur: "49.99", gbp: "44.99", jpy: "7500")
            ),
            SimPurchaseProduct(
                productID: "com.example.coins.100", bundleID: bundle, kind: .consumable,
                price: "0.99", prices: storefrontPrices(eur: "0.99", gbp: "0.89", jpy: "150")
            ),
            SimPurchaseProduct(
                productID: "com.example.pass.30days", bundleID: bundle, kind: .nonRenewing,
                period: ISODuration(days: 30), price: "6.99", prices: storefrontPrices(eur: "6.99", gbp: "5.99", jpy: "1000")
            ),
            SimPurchaseProduct(
                productID: "com.example.pro.trial", bundleID: bundle, kind: .nonConsumable,
                trialOf: "pro", trialPeriod: ISODuration(days: 14), price: "0.00"
            ),
        ]
        let pro = products.filter { $0.groupID == "20500000" }.map(\.productID) + ["com.example.pro.lifetime", "com.example.pass.30days"]
        var entitlements = [
            SimEntitlement(id: "pro", productIDs: pro),
            SimEntitlement(id: "news", productIDs: ["com.example.news.weekly"]),
        ]
        var apps = [SimApp(bundleID: bundle, sharedSecret: sharedSecret)]
        if paidApp {
            let yearly = SimProduct(
                productID: "com.example.paidapp.pro.yearly", bundleID: demoPaidAppBundleID, groupID: "20700000",
                period: ISODuration(years: 1), level: 1,
                introOffer: IntroOffer(paymentMode: .freeTrial, period: ISODuration(weeks: 1)),
                price: "19.99", prices: storefrontPrices(eur: "19.99", gbp: "17.99", jpy: "3000")
            )
            products.append(yearly)
            entitlements.append(SimEntitlement(id: "paid_pro", productIDs: [yearly.productID]))
            apps.append(
                SimApp(
                    bundleID: demoPaidAppBundleID, sharedSecret: paidAppSharedSecret, bundleVersion: "10.2",
                    appAppleID: demoPaidAppAppleID, grandfather: SimGrandfather(beforeVersion: "2.0", entitlement: "paid_pro")
                ))
        }
        return SimulatorConfiguration(
            apps: apps,
            catalog: ProductCatalog(products: products, purchaseProducts: purchases, entitlements: entitlements),
            seed: seed
        )
    }

    /// The demo's prices in `DEU` (EUR), `GBR` (GBP) and `JPN` (JPY), with the introductory
    /// offer's there when the product has a paid one.
    private static func storefrontPrices(
        eur: String, gbp: String, jpy: String, intro: (eur: String, gbp: String, jpy: String)? = nil
    ) -> [String: SimPrice] {
        [
            "DEU": SimPrice(price: eur, currency: "EUR", introPrice: intro?.eur),
            "GBR": SimPrice(price: gbp, currency: "GBP", introPrice: intro?.gbp),
            "JPN": SimPrice(price: jpy, currency: "JPY", introPrice: intro?.jpy),
        ]
    }
}
