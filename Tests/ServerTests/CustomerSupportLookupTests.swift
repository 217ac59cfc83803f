import AppStoreSimulator
import Foundation
import HTTPClient
import TestSupport
import Testing

/// `subscriptionctl lookup-order` and `refunds` against appstore-sim, through subscriptiond's
/// libcurl client: what a support engineer does when a customer writes "I paid and have
/// nothing", or asks what was refunded.
@Suite("Customer support lookups against appstore-sim", .serialized)
struct CustomerSupportLookupTests {
    private func environment(_ service: RunningService) -> [String: String] {
        service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        "lookup-order finds a customer's purchase by order id, applies it with Apple's status now and links it; unknown orders and refused keys exit 1"
    )
    func lookupOrder() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 24, seed: 20_261_201, sandboxShare: 0, scenarios: [.trialRenews, .lifetime])
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings, runsWorker: false) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let now = Date()
            let customer = try #require(world.simulator.customers.first { $0.scenario == .trialRenews && $0.spec.appAccountToken == nil })
            let latest = try #require(customer.state(at: now).transactions.last)
            let orderID = world.simulator.orderID(ofTransaction: latest.transactionID)
            #expect(orderID.count == 10 && orderID.hasPrefix("M"))

            let found = try await CLI.run(
                ["lookup-order", orderID, "--link", "support-case-1", "--json"], databaseURL: service.databaseURL,
                environment: environment(service))
            #expect(found.status == 0, "\(found.stderr)")
            let document = try json(found.stdout)
            #expect(document["order_id"] as? String == orderID)
            #expect(document["linked_to"] as? String == "support-case-1")
            let purchases = try #require(document["purchases"] as? [[String: Any]])
            #expect(purchases.map { $0["transaction_id"] as? String } == [latest.transactionID])

            // The subscription is stored with what Apple says now (renewal info included) and
            // belongs to the user the support engineer named.
            let truth = try #require(world.simulator.truth(of: customer, at: now).subscriptions.first)
            let subscriber = try jsonObject(try await service.get("/v1/subscribers/support-case-1"))
            let subscription = try #require((subscriber["subscriptions"] as? [[String: Any]])?.first)
            #expect(subscription["original_transaction_id"] as? String == truth.originalTransactionID)
            #expect(subscription["status"] as? String == truth.status.rawValue)
            #expect(subscription["auto_renew"] as? Bool == truth.autoRenew)

            // A one-time purchase is found the same way.
            let lifetime = try #require(world.simulator.customers.first { $0.scenario == .lifetime && $0.spec.appAccountToken == nil })
            let purchase = try #require(lifetime.state(at: now).purchases.first)
            let bought = try await CLI.run(
                ["lookup-order", world.simulator.orderID(ofTransaction: purchase.transactionID), "--link", "support-case-2"],
                databaseURL: service.databaseURL, environment: environment(service))
            #expect(bought.status == 0, "\(bought.stderr)")
            #expect(bought.stdout.contains("1 purchase applied, linked to support-case-2"), "\(bought.stdout)")
            let owner = try jsonObject(try await service.get("/v1/subscribers/support-case-2"))
            #expect((owner["purchases"] as? [[String: Any]])?.first?["product_id"] as? String == purchase.productID)

            // An order Apple does not know: one line, exit 1, nothing stored.
            let unknown = try await CLI.run(
                ["lookup-order", "MZZZZZZZZZ", "--link", "support-case-3"], databaseURL: service.databaseURL,
                environment: environment(service))
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("knows no order MZZZZZZZZZ"), "\(unknown.stderr)")
            #expect(try await service.get("/v1/subscribers/support-case-3").status == 404)

            // A key Apple refuses (401): asked once, never retried, exit 1.
            world.simulator.setAPIKey(SimAPIKey.generate().key)
            world.simulator.resetStats()
            let refused = try await CLI.run(["lookup-order", orderID], databaseURL: service.databaseURL, environment: environment(service))
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(world.simulator.stats().api["http_401", default: 0] == 1, "\(world.simulator.stats().api)")
        }
    }

    @Test("refunds lists a customer's refunds and applies them; 429 waits for Retry-After, 5xx is retried")
    func refunds() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 24, seed: 20_261_202, sandboxShare: 0, scenarios: [.refund, .trialRenews])
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings, runsWorker: false) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let now = Date()
            let refunded = try #require(world.simulator.customers.first { $0.scenario == .refund })
            let original = try #require(world.simulator.truth(of: refunded, at: now).subscriptions.first?.originalTransactionID)
            let result = try await CLI.run(
                ["refunds", original, "--json"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(result.status == 0, "\(result.stderr)")
            let refunds = try #require(try json(result.stdout)["purchases"] as? [[String: Any]])
            #expect(refunds.count == 1)
            #expect(refunds.first?["original_transaction_id"] as? String == original)
            #expect(refunds.first?["revocation_date"] is String)
            // Applied: the subscription is stored, revoked, though no notification arrived.
            let stored = try jsonObject(try await service.get("/v1/subscriptions/\(original)"))
            #expect(stored["status"] as? String == "revoked", "\(stored)")

            // A customer without refunds has none; the table says so.
            let kept = try #require(world.simulator.customers.first { $0.scenario == .trialRenews })
            let keptID = try #require(world.simulator.truth(of: kept, at: now).subscriptions.first?.originalTransactionID)
            let none = try await CLI.run(["refunds", keptID], databaseURL: service.databaseURL, environment: environment(service))
            #expect(none.status == 0, "\(none.stderr)")
            #expect(none.stdout.hasPrefix("0 refunds (Production)"), "\(none.stdout)")

            // Apple answers 429 twice (as beyond its 10 per second): the command waits for each
            // Retry-After and completes; a 500 is retried the same way.
            world.simulator.resetStats()
            world.simulator.failNext(2, with: .http429)
            let waited = try await CLI.run(["refunds", keptID], databaseURL: service.databaseURL, environment: environment(service))
            #expect(waited.status == 0, "\(waited.stderr)")
            world.simulator.failNext(1, with: .http500)
            let retried = try await CLI.run(["refunds", keptID], databaseURL: service.databaseURL, environment: environment(service))
            #expect(retried.status == 0, "\(retried.stderr)")
            let stats = world.simulator.stats().api
            #expect(
                stats["http_429", default: 0] == 2 && stats["http_500", default: 0] == 1 && stats["http_200", default: 0] == 2, "\(stats)")
        }
    }
}
