import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim run`: serve verifyReceipt, send the customers' notifications, write the truth.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract:
            "Serve verifyReceipt, send every customer's notifications (v1, v2 or both: --notifications-version) to --target, then print the truth.",
        discussion: """
            Example: appstore-sim run --target http://127.0.0.1:8080/notifications/appstore --customers 200 --seed 42 --duplicates 3 --shuffle --port 9000 --truth-out truth.json --notifications-version mixed

            v2 notifications are signed by the PKI in --state-dir (see `appstore-sim ca`); sandbox v2 \
            notifications are sent once and never retried, as Apple does.

            The truth is printed (or written to --truth-out) once everything is sent. The server keeps \
            answering verifyReceipt afterwards, so subscriptiond can finish its work: until SIGINT/SIGTERM, \
            or for --linger seconds. GET /control/truth gives the truth at the moment you ask. \
            Exits 1 when a notification never got a 2xx.
            """
    )

    @OptionGroup var customers: CustomerOptions
    @OptionGroup var server: ServerOptions
    @OptionGroup var faults: FaultOptions
    @OptionGroup var api: APIOptions

    @Option(
        help:
            "Share of v2 notifications never sent (0...1, seeded by --delivery-seed), as if subscriptiond had missed them; Get Notification History still lists them."
    )
    var dropRate: Double = 0

    @Option(help: "subscriptiond's notification URL; several, comma-separated, are used in turn like instances behind a load balancer.")
    var target: String

    @Option(help: "Deliver every notification this many times.")
    var duplicates = 1

    @Flag(help: "Shuffle the deliveries (seeded by --delivery-seed).")
    var shuffle = false

    @Option(help: "Seed of the shuffle (default: --seed).")
    var deliverySeed: UInt64?

    @Option(help: "Notifications in flight at once.")
    var concurrency = 1

    @Option(help: "Waits before retries of a non-2xx delivery, comma-separated milliseconds (Apple: 6 h, 24 h, 48 h).")
    var retryDelaysMs = "100,500,2000"

    @Flag(help: "Retry sandbox notifications too (Apple does not).")
    var retrySandbox = false

    @Option(help: "Timeout of one delivery attempt, in milliseconds.")
    var timeoutMs = 10_000

    @Option(help: "Write the truth JSON here instead of stdout.")
    var truthOut: String?

    @Option(
        help:
            "Keep serving this many seconds after sending (after the check, with --check-url), then exit (default: until SIGINT/SIGTERM; with --check-url, at once)."
    )
    var linger: Double?

    @Option(
        help:
            "After sending, compare subscriptiond at this base URL (e.g. http://127.0.0.1:8080) with the truth, print the table and exit (1 when they disagree)."
    )
    var checkURL: String?

    @Option(help: "subscriptiond's ADMIN_TOKEN, for --check-url (default: $ADMIN_TOKEN).")
    var checkToken: String?

    @Option(help: "Seconds --check-url waits for subscriptiond to catch up before judging.")
    var checkTimeout: Double = 120

    func run() async throws {
        let urls = target.split(separator: ",").map { URL(string: String($0)) }
        guard let url = urls.first ?? nil, urls.allSatisfy({ $0?.scheme == "http" }) else {
            throw ValidationError("--target must be an http:// URL, or several separated by commas")
        }
        let simulator = try customers.makeSimulator()
        simulator.setFaults(try faults.settings())
        guard (0...1).contains(dropRate) else { throw ValidationError("--drop-rate must be between 0 and 1") }
        try api.configure(simulator, state: customers.state)
        simulator.setNotificationTarget(url)
        let running = try await server.start(simulator)
        let delays = retryDelaysMs.split(separator: ",").compactMap { Int($0) }.map { Duration.milliseconds($0) }
        let sender = NotificationSender(
            targets: url, urls.dropFirst().compactMap { $0 }, retry: RetryPolicy(delays: delays, retrySandbox: retrySandbox),
            timeout: .milliseconds(timeoutMs), concurrency: concurrency,
            drops: DropPolicy(rate: dropRate, seed: deliverySeed ?? customers.seed), simulator: simulator
        )
        let plan = DeliveryPlan.order(
            simulator.notifications(), duplicates: duplicates, shuffle: shuffle, seed: deliverySeed ?? customers.seed
        )
        Console.log("sending \(plan.count) notifications of \(simulator.customers.count) customers to \(target)")
        let report = await sender.deliver(plan)
        let statuses = report.statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
        if !report.dropped.isEmpty {
            Console.log("dropped \(report.dropped.count) v2 notifications on purpose (--drop-rate); Get Notification History lists them")
        }
        Console.log(
            "delivered \(report.delivered)/\(report.sent) in \(report.attempts) attempts (HTTP \(statuses); transport errors \(report.transportErrors))"
        )
        let truth = simulator.truth().jsonText(pretty: true) + "\n"
        if let truthOut {
            try truth.write(toFile: truthOut, atomically: true, encoding: .utf8)
        } else {
            print(truth, terminator: "")
        }
        if let checkURL {
            let agrees = try await check(simulator, baseURL: checkURL)
            // Still Apple for a while when asked: answers subscriptiond sends later (a refund
            // request's consumption information) reach it.
            if let linger { try await Task.sleep(for: .seconds(linger)) }
            await running.shutdown()
            if !agrees || !report.failed.isEmpty { throw ExitCode(1) }
            return
        }
        if let linger {
            try await Task.sleep(for: .seconds(linger))
        } else {
            await SignalWaiter.wait()
        }
        await running.shutdown()
        if !report.failed.isEmpty {
            throw ExitCode(1)
        }
    }

    /// Waits until subscriptiond's statuses match (its worker may still be busy), links every
    /// customer through `POST /v1/receipts` (and `POST /v1/app-transactions` for those with a
    /// StoreKit 2 AppTransaction), then prints the comparison table.
    private func check(_ simulator: AppStoreSimulator, baseURL: String) async throws -> Bool {
        guard let url = URL(string: baseURL), url.scheme == "http" else { throw ValidationError("--check-url must be an http:// URL") }
        guard let token = checkToken ?? ProcessInfo.processInfo.environment["ADMIN_TOKEN"], !token.isEmpty else {
            throw ValidationError("--check-url needs --check-token or $ADMIN_TOKEN")
        }
        let check = SubscriptiondCheck(baseURL: url, adminToken: token, simulator: simulator)
        let deadline = Date().addingTimeInterval(checkTimeout)
        var waiting = try await check.statusMismatches()
        while !waiting.isEmpty && Date() < deadline {
            try await Task.sleep(for: .milliseconds(500))
            waiting = try await check.statusMismatches()
        }
        Console.log(
            "subscriptiond processed the notifications; linking \(simulator.customers.count) app users through POST /v1/receipts (and /v1/app-transactions)"
        )
        let unlinked = try await check.linkCustomers()
        if !unlinked.isEmpty { Console.log("receipts not accepted for: \(unlinked.joined(separator: ", "))") }
        let products = simulator.configuration.catalog.products.map(\.productID)
        let results = try await check.compare(productIDs: products, until: deadline)
        print(CheckTable.render(results, productIDs: products))
        return results.allSatisfy(\.agrees) && unlinked.isEmpty
    }
}
