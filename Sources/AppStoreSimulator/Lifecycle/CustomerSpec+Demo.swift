extension CustomerSpec {
    /// The named customers of `make demo`, one per interesting lifecycle, for the demo
    /// configuration (`SimulatorConfiguration.demo()`, both apps).
    public static let demo: [CustomerSpec] = {
        let monthly = "com.example.pro.monthly"
        let yearly = "com.example.pro.yearly"
        let premium = "com.example.premium.monthly"
        let news = "com.example.news.weekly"
        let lifetime = "com.example.pro.lifetime"
        let pass = "com.example.pass.30days"
        let trial = "com.example.pro.trial"
        let paidApp = SimulatorConfiguration.demoPaidAppBundleID
        let paidYearly = "com.example.paidapp.pro.yearly"
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
            CustomerSpec(name: "pam-lifetime", scenario: .lifetime, productID: lifetime),
            CustomerSpec(name: "quinn-lifetime-refunded", scenario: .lifetimeRefund, productID: lifetime),
            CustomerSpec(name: "rosa-passes-stack", scenario: .passesStack, productID: pass),
            CustomerSpec(name: "sam-pass-refunded", scenario: .passRefunded, productID: pass),
            CustomerSpec(name: "tess-pass-expired", scenario: .passExpired, productID: pass),
            CustomerSpec(name: "uma-coins", scenario: .consumable, productID: "com.example.coins.100"),
            CustomerSpec(name: "vera-trial-product", scenario: .trialProduct, productID: trial),
            CustomerSpec(name: "walt-trial-product-ended", scenario: .trialProductEnded, productID: trial),
            CustomerSpec(name: "xavi-lifetime-and-monthly", scenario: .lifetimeAndSubscription, productID: monthly, renewals: 1),
            CustomerSpec(name: "yara-paid-1.9", scenario: .grandfathered, bundleID: paidApp, originalApplicationVersion: "1.9"),
            CustomerSpec(name: "zack-paid-2.0", scenario: .notGrandfathered, bundleID: paidApp, originalApplicationVersion: "2.0"),
            CustomerSpec(
                name: "abby-paid-10.1-subscribes", scenario: .trialRenews, bundleID: paidApp, productID: paidYearly,
                renewals: 0, originalApplicationVersion: "10.1"
            ),
            // Their subscriptions end 40 s after the run with no notification: only the status
            // sweep tells the app's backend (`expired`, `grace_period_expired`).
            CustomerSpec(name: "cleo-lapses-silently", scenario: .silentLapse, productID: monthly, renewals: 1),
            CustomerSpec(name: "dan-grace-ends-silently", scenario: .silentGraceEnd, productID: monthly, renewals: 1),
            // Asks Apple for a refund (CONSUMPTION_REQUEST); subscriptiond answers with the app's
            // consumption setting once she has consented, and Apple declines.
            CustomerSpec(name: "fay-asks-for-refund", scenario: .refundDeclined, productID: monthly, renewals: 1),
            CustomerSpec(
                name: "ben-paid-1.9-subscribes", scenario: .cancelPending, bundleID: paidApp, productID: paidYearly,
                renewals: 0, originalApplicationVersion: "1.9"
            ),
            // Money (the reports): over a year of paid service (Apple's commission drops to 15 %),
            // a lapse of more than 60 days that restarts that count, a prorated refund, and
            // customers paying in euros, pounds and yen.
            CustomerSpec(name: "olga-paid-over-a-year", scenario: .trialRenews, productID: monthly, renewals: 14),
            CustomerSpec(name: "pete-lapses-90-days", scenario: .resubscribe, productID: monthly, renewals: 13, lapseDays: 90),
            CustomerSpec(
                name: "rita-refund-prorated", scenario: .refund, productID: premium, renewals: 2, storefront: "GBR", proratedRefund: true
            ),
            CustomerSpec(name: "emma-deu-euro", scenario: .trialRenews, productID: monthly, renewals: 3, storefront: "DEU"),
            CustomerSpec(name: "kenji-jpn-yen", scenario: .trialRenews, productID: yearly, renewals: 1, storefront: "JPN"),
            // A 12-month commitment billed monthly (API 1.21): billing_plan monthly_commitment, MRR its monthly price.
            CustomerSpec(
                name: "cara-commits-monthly", scenario: .trialRenews, productID: "com.example.pro.annual.monthly", renewals: 3,
                notificationVersion: .v2),
        ]
    }()

    /// The demo customers `configuration` can play: those of apps it lacks, or of scenarios
    /// nothing it sells fits, are left out; product choices it lacks are dropped.
    public static func demo(for configuration: SimulatorConfiguration) -> [CustomerSpec] {
        let catalog = configuration.catalog
        return demo.compactMap { spec in
            var spec = spec
            let bundleID = spec.bundleID ?? configuration.apps.first?.bundleID ?? ""
            guard let app = configuration.app(bundleID), !spec.scenario.candidates(for: app, catalog: catalog).isEmpty else {
                return nil
            }
            let known = { (id: String) in catalog.product(id) != nil || catalog.purchaseProduct(id) != nil }
            if let id = spec.productID, !known(id) { spec.productID = nil }
            if let id = spec.targetProductID, catalog.product(id) == nil || spec.productID == nil {
                spec.targetProductID = nil
            }
            return spec
        }
    }
}
