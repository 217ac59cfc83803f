import AppStoreSimulator
import Foundation
import Postgres
import TestSupport
import Testing

/// `subscriptionctl import FILE.csv` against appstore-sim: customers known only to Apple
/// (the simulator) moved in from a file, at Apple's rate, resumable after a kill.
@Suite("subscriptionctl import against appstore-sim", .serialized)
struct CustomerImportTests {
    private func environment(_ service: RunningService) -> [String: String] {
        service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }
    }

    private func count(_ service: RunningService, _ sql: PostgresQuery) async throws -> Int {
        try await service.database.query(sql)[0].decode("n")
    }

    /// One row per customer: even ones by original transaction id, odd ones by their latest transaction id.
    private func file(_ world: AppStoreAPIEndToEndTests.World, extra: [String] = []) throws -> (URL, rows: Int) {
        let now = Date()
        var lines = ["app_user_id,plan,transaction_id,original_transaction_id"]
        for (index, customer) in world.simulator.customers.enumerated() {
            let truth = world.simulator.truth(of: customer, at: now)
            let original = try #require(truth.subscriptions.first?.originalTransactionID)
            let latest = try #require(customer.state(at: now).transactions.last?.transactionID)
            lines.append(index % 2 == 0 ? "\(truth.appUserID),\"pro, monthly\",,\(original)" : "\(truth.appUserID),pro,\(latest),")
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).csv")
        try Data((lines + extra).joined(separator: "\n").utf8).write(to: url)
        return (url, world.simulator.customers.count)
    }

    @Test(
        "200 customers known only to the simulator are imported and agree, under Apple's 50/s without a 429; an unknown id and an empty user are refused by line, the rest imported; a rerun finds them there"
    )
    func importsAndAgrees() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 200, seed: 20_261_301, sandboxShare: 0, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings, runsWorker: false) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let (url, rows) = try file(world, extra: [#"nobody,pro,9999999999999999,"#, #","",1000000000000001,"#])
            defer { try? FileManager.default.removeItem(at: url) }
            world.simulator.setAPIRateLimit(50)
            world.simulator.resetStats()

            let dry = try await CLI.run(
                ["import", url.path, "--dry-run"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("would look up \(rows + 1) with Apple"), "\(dry.stdout)")
            #expect(dry.stdout.contains("line \(rows + 3): app_user_id is empty"), "\(dry.stdout)")
            #expect(world.simulator.stats().api.values.reduce(0, +) == 0, "a dry run asked Apple: \(world.simulator.stats().api)")
            #expect(try await count(service, "SELECT count(*) AS n FROM import_runs") == 0)

            let run = try await CLI.run(
                ["import", url.path, "--concurrency", "16"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("imported \(rows), already there 0, refused 2\n"), "\(run.stdout)")
            #expect(
                run.stdout.contains("line \(rows + 2): the App Store knows no transaction 9999999999999999 in either environment"),
                "\(run.stdout)")
            #expect(run.stdout.contains("line \(rows + 3): app_user_id is empty"), "\(run.stdout)")
            let stats = world.simulator.stats().api
            #expect(stats["http_429", default: 0] == 0, "the import provoked 429s: \(stats)")

            // Everyone Apple knows is stored, linked to their own user, and agrees with Apple.
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: world.simulator)
            let mismatches = try await check.statusMismatches()
            #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(5))")
            let subscriptions = world.simulator.truth().customers.flatMap(\.subscriptions).count
            #expect(try await count(service, "SELECT count(*) AS n FROM subscribers") == subscriptions)
            #expect(try await count(service, "SELECT count(DISTINCT app_user_id) AS n FROM subscribers") == rows)
            for customer in world.simulator.truth().customers.prefix(20) {
                let subscriber = try jsonObject(try await service.get("/v1/subscribers/\(customer.appUserID)"))
                let stored = (subscriber["subscriptions"] as? [[String: Any]])?.compactMap { $0["original_transaction_id"] as? String }
                #expect(Set(stored ?? []) == Set(customer.subscriptions.map(\.originalTransactionID)), "\(customer.appUserID)")
            }

            // The same file again: a new run, everyone already there, Apple asked only about the unknown id.
            world.simulator.resetStats()
            let again = try await CLI.run(["import", url.path], databaseURL: service.databaseURL, environment: environment(service))
            #expect(again.status == 1, "\(again.stderr)")
            #expect(again.stdout.hasPrefix("imported 0, already there \(rows), refused 2\n"), "\(again.stdout)")
            #expect(world.simulator.stats().api["http_200", default: 0] == 0, "\(world.simulator.stats().api)")

            // A file that cannot be read, or lacks a column: one line, exit 2, nothing done.
            let bad = FileManager.default.temporaryDirectory.appendingPathComponent("import-bad-\(UUID().uuidString).csv")
            defer { try? FileManager.default.removeItem(at: bad) }
            try Data("user,transaction_id\nu,1\n".utf8).write(to: bad)
            let missing = try await CLI.run(["import", bad.path], databaseURL: service.databaseURL, environment: environment(service))
            #expect(missing.status == 2 && missing.stdout.isEmpty, "\(missing)")
            #expect(
                missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("no app_user_id column"), "\(missing.stderr)")
            let unreadable = try await CLI.run(
                ["import", "/nonexistent/customers.csv"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(unreadable.status == 2 && unreadable.stderr.contains("cannot read /nonexistent/customers.csv"), "\(unreadable)")
            #expect(try await count(service, "SELECT count(*) AS n FROM import_runs") == 2)
        }
    }

    @Test(
        "an import killed at a third and resumed imports each customer once, asking Apple at most once more per row in flight; a new run, or --resume with another file, is refused while it is unfinished"
    )
    func resumesAfterAKill() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 150, seed: 20_261_302, sandboxShare: 0, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings, runsWorker: false) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let (url, rows) = try file(world)
            defer { try? FileManager.default.removeItem(at: url) }
            let concurrency = 8
            world.simulator.setAPIRateLimit(50)
            world.simulator.resetStats()
            let simulator = world.simulator
            let arguments = ["import", url.path, "--concurrency", "\(concurrency)"]
            let first = try await CLI.spawn(
                CLI.binary.path, arguments, databaseURL: service.databaseURL, environment: environment(service),
                interruptWhen: { simulator.stats().api["http_200", default: 0] >= rows / 3 }, signal: SIGKILL)
            #expect(first.status != 0, "the first run should have been killed: \(simulator.stats().api)")
            let journaled = try await count(service, "SELECT count(*) AS n FROM import_rows")
            #expect(journaled > 0 && journaled < rows, "\(journaled) rows journaled")

            let fresh = try await CLI.run(arguments, databaseURL: service.databaseURL, environment: environment(service))
            #expect(fresh.status == 2 && fresh.stderr.contains("add --resume to continue it, or --restart"), "\(fresh.stderr)")
            let other = FileManager.default.temporaryDirectory.appendingPathComponent("import-other-\(UUID().uuidString).csv")
            defer { try? FileManager.default.removeItem(at: other) }
            try Data("app_user_id,transaction_id\nsomeone,1000000000000001\n".utf8).write(to: other)
            let wrong = try await CLI.run(
                ["import", other.path, "--resume"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(wrong.status == 2 && wrong.stderr.contains("is not the file of the unfinished import"), "\(wrong.stderr)")

            let resumed = try await CLI.run(arguments + ["--resume"], databaseURL: service.databaseURL, environment: environment(service))
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let summary = try #require(resumed.stdout.split(separator: "\n").first)
            let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            #expect(numbers.count == 3 && numbers[0] + numbers[1] == rows && numbers[2] == 0, "\(summary)")

            let stats = world.simulator.stats().api
            #expect(stats["http_429", default: 0] == 0, "\(stats)")
            #expect(stats["http_200", default: 0] <= rows + concurrency, "Apple was asked \(stats) for \(rows) rows")
            #expect(try await count(service, "SELECT count(*) AS n FROM import_rows") == rows)
            #expect(try await count(service, "SELECT count(*) AS n FROM import_runs WHERE finished_at IS NOT NULL") == 1)
            let subscriptions = world.simulator.truth().customers.flatMap(\.subscriptions).count
            #expect(try await count(service, "SELECT count(*) AS n FROM subscribers") == subscriptions)
            #expect(try await count(service, "SELECT count(DISTINCT app_user_id) AS n FROM subscribers") == rows)
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: world.simulator)
            #expect(try await check.statusMismatches().isEmpty)
        }
    }
}
