import Foundation
import HTTPClient
import Postgres
import Server
import Synchronization
import TestSupport
import Testing
import UseCases

/// A database filled through the real pipeline for the operator-CLI tests: subscriptions in
/// every status (one in Sandbox), two linked to the app user `alice`, and processed,
/// retrying and dead notifications.
struct OperatorFixture: Sendable {
    /// One scripted customer and the status the pipeline must give it.
    struct Customer: Sendable {
        let name: String
        let life: @Sendable () -> Lifecycle
        let status: String?
    }

    static let cancelledID = "2000000000000100"
    static let refundedID = "2000000000000400"
    static let upgradedID = "2000000000000500"
    static let recoveredID = "2000000000000200"
    static let trialID = "5000000000000300"
    static let deadSecretID = "5000000000000900"
    static let deadReceiptID = "5000000000000901"
    static let retryingID = "5000000000000800"

    /// Everyone whose notifications are sent; `status` nil for those that never get a subscription row.
    static let customers: [Customer] = [
        Customer(name: "cancelled", life: WorkerLifecycleTests.trialThenCancel, status: "expired"),
        Customer(name: "recovered", life: WorkerLifecycleTests.graceThenRecovery, status: "active"),
        Customer(name: "billing expired", life: WorkerLifecycleTests.billingRetryThenExpiry, status: "expired"),
        Customer(name: "refunded", life: WorkerLifecycleTests.refund, status: "revoked"),
        Customer(name: "upgraded", life: WorkerLifecycleTests.upgrade, status: "active"),
        Customer(name: "in grace", life: inGrace, status: "grace_period"),
        Customer(name: "billing retry", life: inBillingRetry, status: "billing_retry"),
        Customer(name: "trial", life: inTrial, status: "active"),
        Customer(name: "sandbox", life: inSandbox, status: "active"),
        Customer(name: "dead: wrong secret", life: { simple(deadSecretID) }, status: nil),
        Customer(name: "dead: bad receipt", life: { simple(deadReceiptID) }, status: nil),
        Customer(name: "retrying", life: { simple(retryingID) }, status: nil),
    ]

    /// Upstream answers that do not vouch for a receipt while the test has not healed it.
    static let failingAnswers: [String: Int] = [deadSecretID: 21004, deadReceiptID: 21010, retryingID: 21005]

    static func inGrace() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "5000000000000100")
        life.purchase(from: daysAgo(31), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(31))
        life.renewal["is_in_billing_retry_period"] = "1"
        life.renewal["expiration_intent"] = "2"
        life.renewal["grace_period_expires_date_ms"] = NotificationBodies.ms(daysAgo(-5))
        life.notify("DID_FAIL_TO_RENEW", at: daysAgo(1))
        return life
    }

    static func inBillingRetry() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "5000000000000200")
        life.purchase(from: daysAgo(35), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(35))
        life.renewal["is_in_billing_retry_period"] = "1"
        life.renewal["expiration_intent"] = "2"
        life.notify("DID_FAIL_TO_RENEW", at: daysAgo(5))
        return life
    }

    static func inTrial() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: trialID)
        life.purchase(from: daysAgo(1), days: 7, trial: true)
        life.notify("INITIAL_BUY", at: daysAgo(1))
        return life
    }

    static func inSandbox() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "5000000000000400", environment: "Sandbox")
        life.purchase(from: daysAgo(2), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(2))
        return life
    }

    static func simple(_ id: String) -> Lifecycle {
        var life = Lifecycle(originalTransactionID: id)
        life.purchase(from: daysAgo(2), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(2))
        return life
    }

    let service: RunningService
    let verify: ScriptedVerifyServer
    let answers: AnswerBook

    /// Notifications posted per customer name.
    var notificationCount: Int { Self.customers.map { $0.life().notifications.count }.reduce(0, +) }

    /// Environment for `revalidate`: the same settings subscriptiond runs with.
    var upstreamEnvironment: [String: String] {
        [
            "APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret,
            "VERIFY_RECEIPT_URL": verify.productionURL, "VERIFY_RECEIPT_SANDBOX_URL": verify.sandboxURL,
            "VERIFY_TIMEOUT_MS": "3000",
        ]
    }

    /// Starts a verify server and the service, delivers every customer's notifications,
    /// links alice, waits until nothing is pending, and runs `body`.
    static func with(_ body: (OperatorFixture) async throws -> Void) async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        let answers = AnswerBook()
        for customer in customers {
            let life = customer.life()
            if let status = failingAnswers[life.originalTransactionID] {
                answers.set(life.receiptToken, ["status": status])
            } else {
                answers.set(life.receiptToken, life.verifyAnswer)
            }
        }
        verify.respond { _, request in answers.answer(for: request["receipt-data"] as? String) }
        // Retrying notifications stay retrying for the whole test: the next attempt is minutes away.
        let slowRetries = RetryPolicy(baseDelay: .seconds(600), maximumDelay: .seconds(600), maximumAttempts: 30)
        // A small pool: the fixture needs few connections, and the whole suite shares one server.
        let settings = ["DATABASE_POOL_SIZE": "4", "WORKER_CONCURRENCY": "4"]
        try await RunningService.with(verifyServer: verify, settings: settings, retryPolicy: slowRetries) { service in
            for customer in customers {
                for body in customer.life().notifications {
                    #expect(try await service.postNotification(NotificationBodies.bytes(body)).status == 200, "\(customer.name)")
                }
            }
            for id in [trialID, refundedID] {
                let token = customers.first { $0.life().originalTransactionID == id }!.life().receiptToken
                let linked = try await service.post("/v1/receipts", ["app_user_id": "alice", "receipt_data": token], timeout: .seconds(15))
                #expect(linked.status == 200)
            }
            let fixture = OperatorFixture(service: service, verify: verify, answers: answers)
            try await fixture.waitUntilNothingPending()
            try await body(fixture)
        }
    }

    /// Waits until every notification had an attempt and none is pending; retrying ones may stay.
    func waitUntilNothingPending(timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let open = try await service.database.query(
                "SELECT count(*) AS n FROM notifications WHERE state = 'pending' OR attempts = 0")[0].decode("n", as: Int.self)
            if open == 0 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("notifications were still pending after \(timeout)")
    }

    /// Runs subscriptionctl against the fixture's database.
    func ctl(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLI.Result {
        try await CLI.run(arguments, databaseURL: service.databaseURL, environment: environment)
    }

    /// Runs subscriptionctl with `--json` and decodes its stdout, which must be one JSON object.
    func json(
        _ arguments: [String], environment: [String: String] = [:], expectStatus: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let result = try await ctl(arguments + ["--json"], environment: environment)
        #expect(result.status == expectStatus, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    /// A customer's scripted history, by original transaction id.
    static func life(_ id: String) -> Lifecycle {
        customers.map { $0.life() }.first { $0.originalTransactionID == id }!
    }
}

/// verifyReceipt answers per receipt token, changeable while the test runs.
final class AnswerBook: Sendable {
    private let answers = Mutex<[String: Data]>([:])

    func set(_ token: String, _ answer: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: answer)) ?? Data()
        answers.withLock { $0[token] = data }
    }

    func answer(for token: String?) -> [String: Any] {
        guard let token, let data = answers.withLock({ $0[token] }) else { return ["status": 21003] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? ["status": 21003]
    }
}
