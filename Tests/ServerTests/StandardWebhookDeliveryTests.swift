import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// Real deliveries (the worker, the outbox, libcurl) checked by an implementation that shares
/// no code with subscriptiond: the `standardwebhooks` library from PyPI, and Python's hmac for
/// `Subscriptiond-Signature` (Tests/webhooks/verify-deliveries.py; `make test` installs the library).
@Suite("Standard Webhooks deliveries: verified by the standardwebhooks library, with either secret during a rotation")
struct StandardWebhookDeliveryTests {
    static let new = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let old = "webhook-secret-0123456789abcdef-0123456789"
    static let neither = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// What verify-deliveries.py says of one delivery, by secret name.
    struct Verdict: Decodable {
        let id: String?
        let standard: [String: Bool]
        let legacy: [String: Bool]
    }

    @Test("a rotation (WEBHOOK_SECRETS=new,old): a receiver knowing only the new secret verifies, only the old too, neither fails")
    func rotation() async throws {
        let (deliveries, verdicts) = try await Self.deliverAndVerify(settings: ["WEBHOOK_SECRETS": "\(Self.new),\(Self.old)"])
        for verdict in verdicts {
            #expect(verdict.standard == ["new": true, "old": true, "neither": false], "\(verdict.id ?? "?")")
            #expect(verdict.legacy == ["new": true, "old": true, "neither": false], "\(verdict.id ?? "?")")
        }
        for delivery in deliveries {
            #expect(delivery.header("webhook-signature")?.split(separator: " ").count == 2)
            #expect(delivery.header("Subscriptiond-Signature")?.split(separator: ",").count == 2)
        }
    }

    @Test("one whsec_ secret (WEBHOOK_SECRET): the library verifies with it alone; the ids and timestamps match subscriptiond's headers")
    func singleSecret() async throws {
        let (deliveries, verdicts) = try await Self.deliverAndVerify(settings: ["WEBHOOK_SECRET": Self.new])
        for verdict in verdicts {
            #expect(verdict.standard == ["new": true, "old": false, "neither": false], "\(verdict.id ?? "?")")
            #expect(verdict.legacy == ["new": true, "old": false, "neither": false], "\(verdict.id ?? "?")")
        }
        for delivery in deliveries {
            #expect(delivery.header("webhook-id") == delivery.eventID)
            #expect(delivery.header("Subscriptiond-Event-Id") == delivery.eventID)
            #expect(delivery.header("webhook-timestamp") == delivery.header("Subscriptiond-Timestamp"))
            #expect(delivery.header("webhook-signature")?.hasPrefix("v1,") == true)
        }
    }

    @Test("the README's receiver.py, run as it is, verifies real deliveries with the library and acknowledges each")
    func readmeReceiver() async throws {
        let readme = try String(contentsOf: TestEnvironment.repositoryRoot().appendingPathComponent("README.md"), encoding: .utf8)
        let fence = try #require(readme.range(of: "```python\n# receiver.py"), "README.md has no receiver.py block")
        let end = try #require(readme.range(of: "\n```", range: fence.upperBound..<readme.endIndex))
        let code = String(readme[readme.index(fence.lowerBound, offsetBy: "```python\n".count)..<end.lowerBound])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-receiver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("receiver.py")
        let log = directory.appendingPathComponent("receiver.log")
        try Data(code.utf8).write(to: script)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let port = try LoopbackPort.free()
        let process = Process()
        // SIGKILL: the child inherits the test process's blocked SIGTERM.
        defer { ChildProcesses.stop(process, removing: directory) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["WEBHOOK_SECRET": Self.new, "PORT": String(port)]) { _, new in
            new
        }
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try ChildProcesses.launch(process)
        func logged() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        let listening = try await Polling.until(seconds: 20) { logged().contains("listening on") }
        try #require(listening, "receiver.py did not start (make test installs standardwebhooks with pip): \(logged())")

        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        let settings = [
            "VERIFY_RECEIPT_URL": verify.productionURL, "VERIFY_RECEIPT_SANDBOX_URL": verify.sandboxURL,
            "WEBHOOK_URL": "http://127.0.0.1:\(port)/hooks", "WEBHOOK_SECRET": Self.new,
        ]
        try await RunningService.with(verifyServer: verify, settings: settings) { service in
            for id in (0..<3).map({ String(7_400_000_000_000_000 + $0) }) {
                #expect(try await service.postNotification(NotificationBodies.renewal(originalTransactionID: id)).status == 200)
            }
            try await service.waitUntilSettled()
            try await service.waitUntilWebhooksSettled()
            let events = try await service.database.query("SELECT event_id, state FROM webhook_events")
            #expect(events.count >= 3)
            for row in events {
                let id = try row.decode("event_id", as: String.self)
                #expect(try row.decode("state", as: String.self) == "delivered", "receiver.py did not acknowledge \(id): \(logged())")
                #expect(logged().contains("verified \(id) "), "\(logged())")
            }
        }
    }

    /// Runs subscriptiond with `settings` until three renewals' events are delivered to a
    /// receiver on 127.0.0.1, then has verify-deliveries.py check every delivery with each of
    /// the three secrets.
    static func deliverAndVerify(settings: [String: String]) async throws -> ([WebhookReceiver.Delivery], [Verdict]) {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        let receiver = WebhookReceiver(secret: Self.old)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let service = settings.merging([
            "VERIFY_RECEIPT_URL": verify.productionURL, "VERIFY_RECEIPT_SANDBOX_URL": verify.sandboxURL, "WEBHOOK_URL": receiver.url,
        ]) { _, new in new }
        try await RunningService.with(verifyServer: verify, settings: service) { service in
            for id in (0..<3).map({ String(7_300_000_000_000_000 + $0) }) {
                #expect(try await service.postNotification(NotificationBodies.renewal(originalTransactionID: id)).status == 200)
            }
            try await service.waitUntilSettled()
            try await service.waitUntilWebhooksSettled()
        }
        let deliveries = receiver.deliveries
        try #require(deliveries.count >= 3)
        let verdicts = try verified(deliveries, secrets: ["new": Self.new, "old": Self.old, "neither": Self.neither])
        try #require(verdicts.count == deliveries.count)
        #expect(verdicts.map(\.id) == deliveries.map(\.eventID))
        return (deliveries, verdicts)
    }

    /// verify-deliveries.py's verdicts on `deliveries`, one per delivery in order.
    static func verified(_ deliveries: [WebhookReceiver.Delivery], secrets: [String: String]) throws -> [Verdict] {
        let input: [String: Any] = [
            "secrets": secrets,
            "deliveries": deliveries.map { delivery in
                [
                    "headers": Dictionary(delivery.headers.map { ($0.name, $0.value) }) { first, _ in first },
                    "body": String(decoding: delivery.body, as: UTF8.self),
                ]
            },
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("deliveries-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = TestEnvironment.repositoryRoot().appendingPathComponent("Tests/webhooks/verify-deliveries.py").path
        let run = try ChildProcesses.run(["python3", script, file.path])
        try #require(run.status == 0, "verify-deliveries.py (make test installs standardwebhooks with pip): \(run.output)")
        return try run.output.split(separator: "\n").map { try JSONDecoder().decode(Verdict.self, from: Data($0.utf8)) }
    }
}
