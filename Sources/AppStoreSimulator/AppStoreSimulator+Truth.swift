import Foundation

extension AppStoreSimulator {
    /// What subscriptiond should say about every customer at `date` (by default, now).
    public func truth(at date: Date = Date()) -> TruthReport {
        TruthReport(at: date, seed: configuration.seed, customers: customers.map { truth(of: $0, at: date) })
    }

    /// What subscriptiond should say about `customer` at `date`.
    public func truth(of customer: SimCustomer, at date: Date = Date()) -> CustomerTruth {
        let state = customer.state(at: date)
        let catalog = configuration.catalog
        let products = catalog.products(of: customer.bundleID)
        var entitlements: [EntitlementTruth] = []
        if let app = configuration.app(customer.bundleID) {
            let facts = EntitlementFacts(
                app: app, environment: customer.environment, state: state,
                originalApplicationVersion: customer.originalApplicationVersion
            )
            entitlements = EntitlementRule.entitlements(of: facts, catalog: catalog, at: date)
        }
        return CustomerTruth(
            appUserID: customer.id,
            bundleID: customer.bundleID,
            environment: customer.environment,
            scenario: customer.scenario,
            receiptData: customer.receipt,
            subscriptions: state.subscriptions.map {
                SubscriptionTruth($0, bundleID: customer.bundleID, environment: customer.environment, at: date)
            },
            eligibility: Dictionary(
                uniqueKeysWithValues: products.map {
                    ($0.productID, state.eligibility(for: $0, at: date))
                }),
            appAccountToken: customer.spec.appAccountToken,
            notificationVersion: customer.spec.notificationVersion,
            entitlements: entitlements,
            purchases: state.purchases,
            originalApplicationVersion: customer.originalApplicationVersion,
            signedAppTransaction: customer.signedAppTransaction
        )
    }
}
