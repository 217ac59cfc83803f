import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import Testing

/// Version 2 end to end: appstore-sim signs notifications with its own PKI, subscriptiond
/// trusts only that root, and the stored state agrees with the simulator's truth.
@Suite("End to end, signed: v2 and mixed v1/v2/migrating customers agree with the simulator", .serialized)
struct EndToEndSignedTests {
    static let customers = 200

    private func run(_ versions: NotificationVersionMix, seed: UInt64, duplicates: Int) async throws {
        let simulator = AppStoreSimulator(configuration: .demo(seed: seed, sharedSecret: RunningService.sharedSecret))
        try simulator.addRandomCustomers(Self.customers, seed: seed, notificationVersions: versions)
        // The demo app, and the paid app that grandfathers its customers from before 2.0.
        let setup = try await SignedSimulatorSetup.start(simulator)
        defer { Task { await setup.shutdown() } }
        let settings = setup.settings
        try await RunningService.with(settings: settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let notifications = simulator.notifications()
            #expect(notifications.contains { $0.version == .v2 })
            let plan = DeliveryPlan.order(notifications, duplicates: duplicates, shuffle: true, seed: seed)
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 8).deliver(plan)
            #expect(report.failed.isEmpty, "\(report.failureSummary)")
            try await service.waitUntilSettled(timeout: .seconds(300))
            let counts = try await service.stateCounts()
            #expect(counts["dead"] == nil, "dead notifications: \(counts)")
            let signedFacts: Int = try await service.database.query("SELECT count(*) AS n FROM transactions WHERE source = 'v2'")[0].decode(
                "n")
            let signedProcessed: Int = try await service.database.query(
                """
                SELECT count(*) AS n FROM notifications WHERE source = 'v2' AND state = 'processed'
                """)[0].decode("n")
            #expect(signedFacts > 0 && signedProcessed > 0, "no signed facts were applied")

            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: simulator)
            let statusMismatches = try await check.statusMismatches()
            #expect(statusMismatches.isEmpty, "\(statusMismatches.count) mismatches: \(statusMismatches.prefix(10))")

            // Customers whose purchases carry an appAccountToken are linked without any call.
            let truth = simulator.truth()
            let tokened = truth.customers.filter { $0.appAccountToken != nil && $0.notificationVersion != .v1 && !$0.subscriptions.isEmpty }
            #expect(!tokened.isEmpty)
            for customer in tokened {
                let token = try #require(customer.appAccountToken)
                let response = try await service.get("/v1/subscribers/\(token)")
                #expect(response.status == 200, "\(customer.appUserID) (\(customer.notificationVersion)) not linked by its token")
            }

            let unlinked = try await check.linkCustomers()
            #expect(unlinked.isEmpty, "receipts not accepted: \(unlinked.prefix(10))")
            try await service.waitUntilSettled(timeout: .seconds(120))
            let results = try await check.compare(
                productIDs: simulator.configuration.catalog.products.map(\.productID), until: Date().addingTimeInterval(60))
            let disagreeing = results.filter { !$0.agrees }
            #expect(
                disagreeing.isEmpty,
                "\(disagreeing.count) customers disagree: \(disagreeing.prefix(5).map { "\($0.truth.appUserID) \($0.truth.scenario.rawValue) \($0.truth.notificationVersion): \($0.mismatches)" })"
            )
            #expect(results.count == Self.customers)
        }
    }

    @Test("200 v2 customers, every notification three times and shuffled")
    func signedCustomersAgree() async throws {
        try await run(.v2, seed: 20_261_123, duplicates: 3)
    }

    @Test("200 customers mixing v1, v2 and migrating from v1 to v2, twice and shuffled")
    func mixedCustomersAgree() async throws {
        try await run(.mixed, seed: 20_261_124, duplicates: 2)
    }
}
