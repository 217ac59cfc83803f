extension CustomerSpec {
    /// The named customers of `make demo`, one per interesting lifecycle, for the demo catalog
    /// (`SimulatorConfiguration.demo()`).
    public static let demo: [CustomerSpec] = {
        let monthly = "com.example.pro.monthly"
        let yearly = "com.example.pro.yearly"
        let premium = "com.example.premium.monthly"
        let news = "com.example.news.weekly"
        return [
            CustomerSpec(name: "alice-trial-renews", scenario: .trialRenews, productID: monthly, renewals: 2),
            CustomerSpec(name: "bob-billing-grace", scenario: .gracePeriod, productID: monthly, renewals: 1),
            CustomerSpec(name: "carol-grace-recovers", scenario: .graceRecovery, productID: monthly, renewals: 2),
            CustomerSpec(name: "dave-billing-retry", scenario: .billingRetry, productID: premium, renewals: 1),
            CustomerSpec(name: "erin-retry-expires", scenario: .billingRetryExpire, productID: monthly, renewals: 1),
            CustomerSpec(name: "frank-trial-cancels", scenario: .cancelExpire, productID: monthly, renewals: 0),
            CustomerSpec(name: "gwen-cancel-pending", scenario: .cancelPending, productID: yearly, renewals: 0),
            CustomerSpec(name: "hank-refund", scenario: .refund, productID: yearly, renewals: 0),
            CustomerSpec(name: "ivy-upgrades", scenario: .upgrade, productID: monthly, targetProductID: premium, renewals: 1),
            CustomerSpec(name: "jack-downgrades", scenario: .downgrade, productID: premium, targetProductID: monthly, renewals: 1),
            CustomerSpec(name: "kate-crossgrades", scenario: .crossgrade, productID: monthly, targetProductID: yearly, renewals: 1),
            CustomerSpec(name: "liam-resubscribes", scenario: .resubscribe, productID: monthly, renewals: 1),
            CustomerSpec(name: "mia-sandbox-trial", scenario: .trialRenews, environment: .sandbox, productID: monthly, renewals: 3),
            CustomerSpec(name: "noah-news-intro", scenario: .trialRenews, productID: news, renewals: 2),
            CustomerSpec(name: "olivia-retry-recovers", scenario: .billingRetryRecovery, productID: monthly, renewals: 1),
        ]
    }()

    /// The demo customers, with product choices dropped where `catalog` lacks them.
    public static func demo(for catalog: ProductCatalog) -> [CustomerSpec] {
        demo.map { spec in
            var spec = spec
            if let id = spec.productID, catalog.product(id) == nil { spec.productID = nil }
            if let id = spec.targetProductID, catalog.product(id) == nil || spec.productID == nil {
                spec.targetProductID = nil
            }
            return spec
        }
    }
}
