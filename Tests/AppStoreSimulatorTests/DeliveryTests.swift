import AppStoreSimulator
import Foundation
import Testing

/// The sender is checked against the simulator's own server: its verifyReceipt route
/// answers 503 on demand and 200 otherwise, which is all a delivery needs to see.
@Suite("Notification delivery")
struct DeliveryTests {
    @Test func retriesUntilA2xxLikeApple() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "d", scenario: .trialRenews, renewals: 0)])[0]
        simulator.failNext(2, with: .http503)
        let report = try await withServer(simulator) { server in
            let sender = NotificationSender(
                target: server.productionURL,
                retry: RetryPolicy(delays: [.milliseconds(1), .milliseconds(1), .milliseconds(1)])
            )
            return await sender.deliver(customer.notifications)
        }
        #expect(report.sent == 1 && report.delivered == 1 && report.attempts == 3)
        #expect(report.statuses[503] == 2 && report.statuses[200] == 1)
        #expect(simulator.stats().count(.http(503)) == 2)
    }

    @Test func sandboxIsNotRetriedAndFailuresAreReported() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([
            CustomerSpec(name: "s", scenario: .trialRenews, environment: .sandbox, renewals: 0)
        ])[0]
        simulator.failNext(5, with: .http500)
        let report = try await withServer(simulator) { server in
            await NotificationSender(target: server.productionURL, retry: .quick).deliver(customer.notifications)
        }
        #expect(report.delivered == 0 && report.attempts == 1 && report.failed == customer.notifications)
    }

    @Test func sandboxV2IsSentOnceEvenWhenSandboxRetriesAreOn() async throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers([
            CustomerSpec(name: "s2", scenario: .trialRenews, environment: .sandbox, renewals: 0, notificationVersion: .v2),
            CustomerSpec(name: "p2", scenario: .trialRenews, renewals: 0, notificationVersion: .v2),
        ])
        simulator.failNext(1, with: .http500)
        let retry = RetryPolicy(delays: [.milliseconds(1)], retrySandbox: true)
        let report = try await withServer(simulator) { server in
            await NotificationSender(target: server.productionURL, retry: retry).deliver(customers[0].notifications)
        }
        #expect(report.delivered == 0 && report.attempts == 1)
        simulator.failNext(1, with: .http500)
        let production = try await withServer(simulator) { server in
            await NotificationSender(target: server.productionURL, retry: retry).deliver(customers[1].notifications)
        }
        #expect(production.delivered == 1 && production.attempts == 2)
        // Tests of subscriptiond itself lift Apple's rule: the persistent policy retries sandbox v2 too.
        simulator.failNext(1, with: .http500)
        let persistent = try await withServer(simulator) { server in
            await NotificationSender(target: server.productionURL, retry: .persistent).deliver(customers[0].notifications)
        }
        #expect(persistent.delivered == 1 && persistent.attempts == 2, "\(persistent.failureSummary)")
    }

    @Test func concurrentDeliveryOfDuplicates() async throws {
        let simulator = makeSimulator()
        try simulator.addRandomCustomers(5)
        let plan = DeliveryPlan.order(simulator.notifications(), duplicates: 2, shuffle: true, seed: 1)
        let report = try await withServer(simulator) { server in
            await NotificationSender(target: server.productionURL, concurrency: 4).deliver(plan)
        }
        #expect(report.sent == plan.count && report.delivered == plan.count)
        #expect(simulator.stats().total == plan.count)
    }

    @Test func unreachableTargetIsATransportError() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "u", scenario: .trialRenews, renewals: 0)])[0]
        let port = try await withServer(simulator) { $0.port }
        let target = URL(string: "http://127.0.0.1:\(port)/notifications/appstore")!
        let report = await NotificationSender(target: target, retry: .none, timeout: .seconds(2)).deliver(customer.notifications)
        #expect(report.transportErrors == 1 && report.delivered == 0)
    }
}
