import Foundation

extension AppStoreSimulator {
    /// Adds `count` random customers (see `CustomerGenerator`); `seed` defaults to the simulator's.
    @discardableResult
    public func addRandomCustomers(
        _ count: Int,
        seed: UInt64? = nil,
        sandboxShare: Double = 0.2,
        namePrefix: String = "cust",
        endingAt end: Date = Date()
    ) throws -> [SimCustomer] {
        let specs = CustomerGenerator.random(
            count: count, seed: seed ?? configuration.seed, configuration: configuration,
            sandboxShare: sandboxShare, namePrefix: namePrefix
        )
        return try addCustomers(specs, endingAt: end)
    }

    /// Adds the named demo customers (`CustomerSpec.demo`).
    @discardableResult
    public func addDemoCustomers(endingAt end: Date = Date()) throws -> [SimCustomer] {
        try addCustomers(CustomerSpec.demo(for: configuration.catalog), endingAt: end)
    }
}
