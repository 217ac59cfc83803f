import Foundation

extension AppStoreSimulator {
    /// Adds `count` random customers (see `CustomerGenerator`) living `scenarios` (by default
    /// all; `ScenarioKind.subscriptionLifecycles` for subscriptions alone); `seed` defaults to
    /// the simulator's.
    @discardableResult
    public func addRandomCustomers(
        _ count: Int,
        seed: UInt64? = nil,
        sandboxShare: Double = 0.2,
        namePrefix: String = "cust",
        notificationVersions: NotificationVersionMix = .v1,
        scenarios: [ScenarioKind] = ScenarioKind.allCases,
        endingAt end: Date = Date()
    ) throws -> [SimCustomer] {
        let specs = CustomerGenerator.random(
            count: count, seed: seed ?? configuration.seed, configuration: configuration,
            sandboxShare: sandboxShare, namePrefix: namePrefix, notificationVersions: notificationVersions,
            scenarios: scenarios
        )
        return try addCustomers(specs, endingAt: end)
    }

    /// Adds the named demo customers (`CustomerSpec.demo`), with versions spread by
    /// `notificationVersions` and, for about half, an `appAccountToken` drawn from the seed.
    @discardableResult
    public func addDemoCustomers(
        notificationVersions: NotificationVersionMix = .v1,
        endingAt end: Date = Date()
    ) throws -> [SimCustomer] {
        let seed = configuration.seed
        let specs = CustomerSpec.demo(for: configuration).map { spec in
            var spec = spec
            spec.notificationVersion = notificationVersions.version(for: spec.name, seed: seed)
            // What only v2 announces (a refund request) is shown in v2 whenever v2 is in the mix.
            if spec.scenario.announcedInV2Only, spec.notificationVersion == .v1, notificationVersions != .v1 {
                spec.notificationVersion = .v2
            }
            // So are the prices of customers outside the United States and the share of a
            // prorated refund: only v2 transactions state them (subscriptiond prices v1 receipts
            // from the catalog, without knowing the storefront).
            if spec.storefront != SimStorefront.usa.code || spec.proratedRefund, spec.notificationVersion != .v2,
                notificationVersions != .v1
            {
                spec.notificationVersion = .v2
            }
            spec.appAccountToken = AppAccountToken.draw(for: spec.name, seed: seed)
            return spec
        }
        return try addCustomers(specs, endingAt: end)
    }
}
