import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// `subscriptionctl extend` against appstore-sim, through subscriptiond's libcurl client:
/// one subscription and every active subscriber of a product, Apple's refusals, its 5xx and
/// 429, requests resumed with the identifier stored before sending, and the
/// RENEWAL_EXTENDED / RENEWAL_EXTENSION notifications they cause, applied by the worker.
@Suite("Renewal-date extensions against appstore-sim", .serialized)
struct RenewalExtensionTests {
    private func environment(_ service: RunningService) -> [String: String] {
        service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }
    }

    private func document(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    private func date(_ value: Any?) -> Date? {
        (value as? String).flatMap { try? Date($0, strategy: .iso8601) }
    }

    /// Active, paid (no trial) subscriptions now, with their current expiry.
    private func paidActive(_ simulator: AppStoreSimulator, now: Date) -> [(customer: SimCustomer, subscription: SimSubscription)] {
        simulator.customers.flatMap { customer in
            customer.state(at: now).subscriptions.compactMap { subscription in
                subscription.status(at: now) == .active && !subscription.latest.isTrialPeriod ? (customer, subscription) : nil
            }
        }
    }

    /// Waits until the worker processed a notification of `type` (about `originalTransactionID`, when given).
    private func waitForProcessed(
        _ type: String, originalTransactionID: String? = nil, atLeast expected: Int = 1, _ service: RunningService
    ) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(30)
        var count = 0
        while ContinuousClock.now < deadline {
            let rows = try await service.database.query(
                """
                SELECT count(*) AS n FROM notifications WHERE notification_type = \(type) AND state = 'processed'
                  AND (\(originalTransactionID)::text IS NULL OR original_transaction_id = \(originalTransactionID))
                """)
            count = try rows.first?.decode("n") ?? 0
            if count >= expected { return count }
            try await Task.sleep(for: .milliseconds(100))
        }
        return count
    }

    @Test(
        "extend moves one renewal date once per request identifier, applied at once and by RENEWAL_EXTENDED; Apple's 403s exit 1 unretried, a 503 leaves the request to resume, a 429 is waited out"
    )
    func extendOne() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 12, seed: 20_261_125, sandboxShare: 0, scenarios: [.trialRenews, .cancelExpire])
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            world.simulator.setNotificationTarget(URL(string: service.baseURL + "/notifications/appstore"))
            let now = Date()
            let candidates = paidActive(world.simulator, now: now)
            try #require(candidates.count >= 2, "the seed must give two paid, active subscriptions")
            let subscription = candidates[0].subscription
            let id = subscription.originalTransactionID
            let expected = subscription.latest.expiresDate.addingTimeInterval(7 * 86_400)

            // One extension: stored before sending, Apple's new date answered and applied at once.
            let first = try await CLI.run(
                ["extend", id, "--days", "7", "--reason", "3", "--json"], databaseURL: service.databaseURL,
                environment: environment(service))
            #expect(first.status == 0, "\(first.stderr)")
            let extended = try document(first)
            #expect(extended["state"] as? String == "complete")
            #expect(extended["resumed"] as? Bool == false)
            #expect(extended["environment"] as? String == "Production")
            let effective = try #require(date(extended["effective_date"]), "\(extended)")
            #expect(abs(effective.timeIntervalSince(expected)) < 1)
            let stored = try jsonObject(try await service.get("/v1/subscriptions/\(id)"))
            #expect(abs((date(stored["expires_at"]) ?? .distantPast).timeIntervalSince(expected)) < 1, "\(stored)")
            #expect(stored["status"] as? String == "active")
            // Apple's RENEWAL_EXTENDED follows and is applied by the worker.
            #expect(try await waitForProcessed("RENEWAL_EXTENDED", originalTransactionID: id, service) == 1)

            // The same request identifier again: shown as done, nothing sent.
            let identifier = try #require(extended["request_identifier"] as? String)
            world.simulator.resetStats()
            let again = try await CLI.run(
                ["extend", id, "--days", "7", "--reason", "3", "--request-id", identifier], databaseURL: service.databaseURL,
                environment: environment(service))
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("request \(identifier) was already done: extended \(id) by 7 days"), "\(again.stdout)")
            #expect(world.simulator.stats().api.isEmpty)
            #expect(world.simulator.extensionCount(of: id) == 1)

            // An expired subscription: Apple's 403, asked once, one line, exit 1.
            let lapsed = try #require(
                world.simulator.customers.first { $0.scenario == .cancelExpire }?.state(at: now).subscriptions.first)
            let refused = try await CLI.run(
                ["extend", lapsed.originalTransactionID, "--days", "7"], databaseURL: service.databaseURL, environment: environment(service)
            )
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("not in a paid, active period (errorCode 4030004)"), "\(refused.stderr)")
            #expect(world.simulator.stats().api["http_403"] == 1, "\(world.simulator.stats().api)")

            // Apple unavailable (503 on every try): the request stays pending; the same
            // command run again resumes it with the same identifier and extends once.
            world.simulator.setFaults(FaultSettings(rates: [.http503: 1.0]))
            let down = try await CLI.run(
                ["extend", id, "--days", "2", "--reason", "1"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(down.status == 1)
            #expect(down.stderr.contains("run the same command again"), "\(down.stderr)")
            #expect(world.simulator.stats().api["http_503", default: 0] > 1, "retried within the call")
            world.simulator.clearFaults()
            let resumed = try document(
                try await CLI.run(
                    ["extend", id, "--days", "2", "--reason", "1", "--json"], databaseURL: service.databaseURL,
                    environment: environment(service)))
            #expect(resumed["resumed"] as? Bool == true)
            #expect(resumed["state"] as? String == "complete")
            #expect(down.stderr.contains(try #require(resumed["request_identifier"] as? String)), "\(down.stderr)")
            #expect(world.simulator.extensionCount(of: id) == 2)

            // A third extension within a year: Apple's maximum.
            let third = try await CLI.run(
                ["extend", id, "--days", "1"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(third.status == 1)
            #expect(third.stderr.contains("already extended twice in the past year (errorCode 4030005)"), "\(third.stderr)")

            // Rate limited for a second (429 with Retry-After): waited out, then extended.
            world.simulator.resetStats()
            world.simulator.holdAPI(until: Date().addingTimeInterval(1), retryAfter: 1)
            let other = candidates[1].subscription.originalTransactionID
            let waited = try await CLI.run(
                ["extend", other, "--days", "5"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(waited.status == 0, "\(waited.stderr)")
            #expect(world.simulator.stats().api["http_429", default: 0] >= 1, "\(world.simulator.stats().api)")
            #expect(world.simulator.extensionCount(of: other) == 1)

            // Terms Apple would refuse never leave the machine.
            let tooLong = try await CLI.run(
                ["extend", other, "--days", "91"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(tooLong.status == 2)
            #expect(tooLong.stderr.contains("--days is 1 to 90"), "\(tooLong.stderr)")
        }
    }

    @Test(
        "extend --mass extends every paid active subscriber of a product, is polled until complete and resumed after the wait runs out; the RENEWAL_EXTENSION summary closes a request left open"
    )
    func extendAll() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 16, seed: 20_261_126, sandboxShare: 0, scenarios: [.trialRenews, .cancelExpire, .cancelPending])
        defer { Task { await world.close() } }
        world.simulator.setMassExtensionDuration(2)
        try await RunningService.with(settings: world.settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            world.simulator.setNotificationTarget(URL(string: service.baseURL + "/notifications/appstore"))
            for notification in world.simulator.notifications() {
                #expect(try await service.postNotification(notification.body).status == 200)
            }
            try await service.waitUntilSettled()
            let now = Date()
            let product = try #require(paidActive(world.simulator, now: now).first?.subscription.latest.productID)
            let active = world.simulator.customers.flatMap { $0.state(at: now).subscriptions }.filter {
                $0.latest.productID == product && $0.status(at: now) == .active
            }
            let eligible = active.filter { !$0.latest.isTrialPeriod }
            try #require(eligible.count >= 2, "the seed must give several paid subscribers of \(product)")

            // The wait runs out before Apple finishes: exit 1, the request stays open.
            let arguments = ["extend", "--mass", "--product", product, "--days", "3", "--reason", "3", "--poll-interval", "1"]
            let early = try await CLI.run(
                arguments + ["--wait-limit", "0"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(early.status == 1)
            #expect(early.stderr.contains("has not finished request"), "\(early.stderr)")
            // The same command again resumes it and polls until complete.
            let done = try document(
                try await CLI.run(arguments + ["--json"], databaseURL: service.databaseURL, environment: environment(service)))
            #expect(done["resumed"] as? Bool == true)
            #expect(done["state"] as? String == "complete")
            #expect(done["succeeded_count"] as? Int == eligible.count, "\(done)")
            #expect(done["failed_count"] as? Int == active.count - eligible.count, "\(done)")
            #expect(done["product_id"] as? String == product)

            // Each extended subscription's RENEWAL_EXTENDED is applied by the worker.
            for subscription in eligible {
                #expect(
                    try await waitForProcessed("RENEWAL_EXTENDED", originalTransactionID: subscription.originalTransactionID, service) == 1)
            }
            try await service.waitUntilSettled()
            for subscription in eligible {
                let stored = try jsonObject(try await service.get("/v1/subscriptions/\(subscription.originalTransactionID)"))
                let expected = subscription.latest.expiresDate.addingTimeInterval(3 * 86_400)
                #expect(abs((date(stored["expires_at"]) ?? .distantPast).timeIntervalSince(expected)) < 1, "\(stored)")
            }

            // A request left open (no wait at all) is closed by Apple's RENEWAL_EXTENSION summary:
            // shown complete without asking Apple again.
            let canadian = try await CLI.run(
                ["extend", "--mass", "--product", product, "--days", "3", "--storefront", "CAN", "--wait-limit", "0"],
                databaseURL: service.databaseURL, environment: environment(service))
            #expect(canadian.status == 1)
            let identifier = try #require(
                canadian.stderr.split(separator: " ").first { UUID(uuidString: String($0)) != nil }.map(String.init), "\(canadian.stderr)")
            #expect(try await waitForProcessed("RENEWAL_EXTENSION", atLeast: 2, service) == 2)
            world.simulator.resetStats()
            let closed = try document(
                try await CLI.run(
                    ["extend", "--mass", "--product", product, "--days", "3", "--storefront", "CAN", "--request-id", identifier, "--json"],
                    databaseURL: service.databaseURL, environment: environment(service)))
            #expect(closed["state"] as? String == "complete")
            #expect(closed["succeeded_count"] as? Int == 0, "no simulated customer shops in Canada")
            #expect(world.simulator.stats().api.isEmpty, "\(world.simulator.stats().api)")
        }
    }
}
