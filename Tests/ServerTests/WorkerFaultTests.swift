import Foundation
import HTTPClient
import Postgres
import Testing

@Suite("Worker: upstream trouble heals by itself; permanent answers end dead with the reason")
struct WorkerFaultTests {
    private func run(
        faults: [ScriptedVerifyServer.Fault], notifications count: Int = 3,
        _ check: (RunningService, ScriptedVerifyServer) async throws -> Void
    ) async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var life = Lifecycle(originalTransactionID: "3000000000000100")
        life.purchase(from: daysAgo(3), days: 30)
        try verify.answerAlways(life.verifyAnswer)
        verify.inject(faults)
        try await RunningService.with(verifyServer: verify) { service in
            for index in 0..<count {
                var body = NotificationBodies.v1(
                    originalTransactionID: "3000000000000100", transactionID: "3000000000000100",
                    receipt: life.receiptToken)
                body["bvrs"] = "\(index)"  // distinct bodies, so none is a duplicate
                #expect(try await service.postNotification(NotificationBodies.bytes(body)).status == 200)
            }
            try await service.waitUntilSettled()
            try await check(service, verify)
        }
    }

    @Test("21005, retryable 21100, HTTP 503, HTTP 500 and a hang past the timeout: everything ends processed")
    func transientFaultsHeal() async throws {
        let faults: [ScriptedVerifyServer.Fault] = [
            .status(21005, retryable: nil), .status(21100, retryable: true), .http(503), .hang(.seconds(5)),
            .http(500), .status(21009, retryable: nil), .status(21199, retryable: true),
        ]
        try await run(faults: faults) { service, verify in
            #expect(try await service.stateCounts() == ["processed": 3])
            #expect(verify.requests.count >= faults.count + 3)
            let retried = try await service.database.query(
                "SELECT count(*) AS n FROM notification_attempts WHERE outcome = 'retry'")[0].decode("n", as: Int.self)
            #expect(retried == faults.count)
            let status = try jsonObject(try await service.get("/v1/subscriptions/3000000000000100"))["status"] as? String
            #expect(status == "active")
        }
    }

    @Test(
        "permanent answers end dead with the reason",
        arguments: [
            (21004, "shared secret"), (21010, "21010"), (21003, "21003"), (21100, "21100"),
        ])
    func permanentFaults(status: Int, reasonFragment: String) async throws {
        // 21100 without is-retryable is permanent.
        try await run(faults: Array(repeating: .status(status, retryable: nil), count: 1), notifications: 1) { service, _ in
            #expect(try await service.stateCounts() == ["dead": 1])
            let reason = try await service.database.query("SELECT last_error FROM notifications")[0].decode("last_error", as: String.self)
            #expect(reason.contains(reasonFragment))
            #expect(try await service.database.query("SELECT count(*) AS n FROM subscriptions")[0].decode("n", as: Int.self) == 0)
        }
    }

    @Test("21002 is retried a few times, then dead")
    func malformedThenDead() async throws {
        try await run(faults: Array(repeating: .status(21002, retryable: nil), count: 10), notifications: 1) { service, verify in
            #expect(try await service.stateCounts() == ["dead": 1])
            #expect(verify.requests.count == 3)
            let reason = try await service.database.query("SELECT last_error FROM notifications")[0].decode("last_error", as: String.self)
            #expect(reason.contains("gave up after 3 attempts"))
        }
    }

    @Test("a sandbox receipt sent to production is resent to sandbox (21007)")
    func sandboxFallback() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var life = Lifecycle(originalTransactionID: "3000000000000200", environment: "Sandbox")
        life.purchase(from: daysAgo(1), days: 3)
        life.notify("INITIAL_BUY", at: daysAgo(1))
        let answer = try JSONSerialization.data(withJSONObject: life.verifyAnswer)
        verify.respond { endpoint, _ in
            endpoint == .production ? ["status": 21007] : (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any] ?? [:]
        }
        try await RunningService.with(verifyServer: verify) { service in
            #expect(try await service.postNotification(NotificationBodies.bytes(life.notifications[0])).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            #expect(verify.requests == [.production, .sandbox])
            let subscription = try jsonObject(try await service.get("/v1/subscriptions/3000000000000200"))
            #expect(subscription["environment"] as? String == "Sandbox")
            #expect(subscription["status"] as? String == "active")
        }
    }

    @Test("the shared secret goes upstream, and the receipt is stored for revalidation")
    func secretUpstreamReceiptStored() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var life = Lifecycle(originalTransactionID: "3000000000000300")
        life.purchase(from: daysAgo(1), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(1))
        let answer = try JSONSerialization.data(withJSONObject: life.verifyAnswer)
        let receipt = life.receiptToken
        verify.respond { _, request in
            guard request["password"] as? String == RunningService.sharedSecret, request["receipt-data"] as? String == receipt else {
                return ["status": 21004]
            }
            return (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any] ?? [:]
        }
        try await RunningService.with(verifyServer: verify) { service in
            #expect(try await service.postNotification(NotificationBodies.bytes(life.notifications[0])).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            let stored = try await service.database.query("SELECT latest_receipt FROM subscriptions")[0].decode(
                "latest_receipt", as: String.self)
            #expect(stored == life.receiptToken)
        }
    }
}
