import AppStoreSimulator
import Foundation
import Postgres
import Testing

@Suite("End to end: subscriptiond against appstore-sim agrees with the simulator's truth")
struct EndToEndSimulatorTests {
    static let customers = 200
    static let seed: UInt64 = 20_261_122

    @Test("200 random customers, every notification delivered twice and shuffled, 10% upstream faults")
    func randomCustomersAgree() async throws {
        let simulator = AppStoreSimulator(configuration: .demo(seed: Self.seed, sharedSecret: RunningService.sharedSecret))
        try simulator.addRandomCustomers(Self.customers, seed: Self.seed)
        let server = try await SimulatorServer.start(simulator: simulator)
        simulator.setFaults(.spread(rate: 0.1, seed: Self.seed))
        defer { Task { await server.shutdown() } }
        // The demo app, and the paid app that grandfathers its customers from before 2.0.
        let settings = try SimulatorAppsConfig.settings(for: simulator).merging([
            "VERIFY_RECEIPT_URL": server.productionURL.absoluteString,
            "VERIFY_RECEIPT_SANDBOX_URL": server.sandboxURL.absoluteString,
        ]) { _, new in new }
        try await RunningService.with(settings: settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let plan = DeliveryPlan.order(simulator.notifications(), duplicates: 2, shuffle: true, seed: Self.seed)
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 8).deliver(plan)
            #expect(report.failed.isEmpty, "\(report.failureSummary)")
            #expect(report.delivered == plan.count)
            try await service.waitUntilSettled(timeout: .seconds(300))
            let counts = try await service.stateCounts()
            #expect(counts["dead"] == nil, "dead notifications: \(counts)")
            #expect(simulator.stats().faults > 0, "the faults must actually have been injected")

            // Before any app user is linked: every subscription's status from notifications alone.
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: simulator)
            let statusMismatches = try await check.statusMismatches()
            #expect(statusMismatches.isEmpty, "\(statusMismatches.count) mismatches: \(statusMismatches.prefix(10))")

            // The app links its users by posting their receipts; then status, entitlement and eligibility.
            let unlinked = try await check.linkCustomers()
            #expect(unlinked.isEmpty, "receipts not accepted: \(unlinked.prefix(10))")
            try await service.waitUntilSettled(timeout: .seconds(120))
            let products = simulator.configuration.catalog.products.map(\.productID)
            let results = try await check.compare(productIDs: products, until: Date().addingTimeInterval(60))
            let disagreeing = results.filter { !$0.agrees }
            #expect(
                disagreeing.isEmpty,
                "\(disagreeing.count) customers disagree: \(disagreeing.prefix(5).map { "\($0.truth.appUserID) \($0.truth.scenario.rawValue): \($0.mismatches)" })"
            )
            #expect(results.count == Self.customers)
        }
    }
}
