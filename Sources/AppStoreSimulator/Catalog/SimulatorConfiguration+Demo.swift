extension SimulatorConfiguration {
    /// The demo app's bundle id.
    public static let demoBundleID = "com.example.app"
    /// The demo app's shared secret.
    public static let demoSharedSecret = "demo-shared-secret"

    /// The demo setup of `make demo`: one app and two groups.
    ///
    /// Group `20500000` has `com.example.pro.monthly` (1-week free trial),
    /// `com.example.pro.yearly` (pay up front for 3 months) and `com.example.premium.monthly`
    /// (a higher level, no offer). Group `20600000` has `com.example.news.weekly`
    /// (pay as you go for 4 weeks), so offers in one group leave the other eligible.
    public static func demo(seed: UInt64 = 42, sharedSecret: String = demoSharedSecret) -> SimulatorConfiguration {
        let bundle = demoBundleID
        let products = [
            SimProduct(
                productID: "com.example.pro.monthly", bundleID: bundle, groupID: "20500000",
                period: ISODuration(months: 1), level: 2,
                introOffer: IntroOffer(paymentMode: .freeTrial, period: ISODuration(weeks: 1)),
                price: "4.99"
            ),
            SimProduct(
                productID: "com.example.pro.yearly", bundleID: bundle, groupID: "20500000",
                period: ISODuration(years: 1), level: 2,
                introOffer: IntroOffer(paymentMode: .payUpFront, period: ISODuration(months: 3), price: "9.99"),
                price: "39.99"
            ),
            SimProduct(
                productID: "com.example.premium.monthly", bundleID: bundle, groupID: "20500000",
                period: ISODuration(months: 1), level: 1, price: "9.99"
            ),
            SimProduct(
                productID: "com.example.news.weekly", bundleID: bundle, groupID: "20600000",
                period: ISODuration(weeks: 1), level: 1,
                introOffer: IntroOffer(paymentMode: .payAsYouGo, period: ISODuration(weeks: 1), periods: 4, price: "0.49"),
                price: "1.99"
            ),
        ]
        return SimulatorConfiguration(
            apps: [SimApp(bundleID: bundle, sharedSecret: sharedSecret)],
            catalog: ProductCatalog(products: products),
            seed: seed
        )
    }
}
