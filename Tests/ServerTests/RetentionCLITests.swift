import AppStoreSimulator
import Foundation
import Testing

/// `subscriptionctl retention ...` as an operator runs it, against a running appstore-sim with
/// the app's key: each command group's happy path, Apple's refusals named, bad input in one line.
@Suite("subscriptionctl retention against appstore-sim")
struct RetentionCLITests {
    /// No database is needed; the URL only has to parse.
    static let databaseURL = "postgresql://127.0.0.1:1/unused"

    private func run(_ world: RetentionWorld, _ arguments: [String]) async throws -> CLI.Result {
        try await CLI.run(["retention"] + arguments, databaseURL: Self.databaseURL, environment: world.cliEnvironment)
    }

    @Test("messages list marks the messages the app's retention rules answer with, and warns of one Apple lacks or has not approved")
    func rulesMessages() async throws {
        try await RetentionWorld.with(seed: 20_261_208) { world in
            _ = try await world.control("/control/retention", ["approve_after_ms": NSNull()])
            let pending = try await run(world, ["messages", "upload", "--header", "Stay", "--body", "Half price for three months."])
            let pendingID = try #require(pending.stdout.split(separator: "\n").first.map(String.init)).lowercased()
            let missingID = UUID().uuidString.lowercased()
            let config = try TemporaryFile.write(
                #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","retention":[{"message":{"message_identifier":"\#(pendingID)"}},{"message":{"message_identifier":"\#(missingID)"}}]}]}"#,
                name: "retention-rules.json")
            defer { try? FileManager.default.removeItem(atPath: config) }
            let environment = world.cliEnvironment.merging(["SUBSCRIPTIOND_CONFIG": config]) { _, new in new }
            let listed = try await CLI.run(
                ["retention", "messages", "list", "--json"], databaseURL: Self.databaseURL, environment: environment)
            #expect(listed.status == 0, "\(listed.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
            let messages = try #require(document["messages"] as? [[String: Any]])
            #expect(messages.map { $0["used_by_rules"] as? Bool } == [true])
            let warnings = try #require(document["warnings"] as? [String])
            #expect(warnings.count == 2, "\(warnings)")
            #expect(warnings.contains { $0.contains(pendingID) && $0.contains("PENDING") })
            #expect(warnings.contains { $0.contains(missingID) && $0.contains("not uploaded") })
        }
    }

    @Test("messages and images: upload prints the identifier, list shows Apple's state, delete; refusals and bad input exit 1 and 2")
    func messagesAndImages() async throws {
        try await RetentionWorld.with(seed: 20_261_207) { world in
            let uploaded = try await run(world, ["messages", "upload", "--header", "Before you go", "--body", "Keep Pro for half price."])
            #expect(uploaded.status == 0, "\(uploaded.stderr)")
            let identifier = try #require(uploaded.stdout.split(separator: "\n").first.map(String.init))
            #expect(UUID(uuidString: identifier) != nil, "\(uploaded.stdout)")

            let listed = try await run(world, ["messages", "list"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains(identifier) && listed.stdout.contains("APPROVED"), "\(listed.stdout)")
            let json = try await run(world, ["messages", "list", "--json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let messages = try #require(document["messages"] as? [[String: Any]])
            #expect(messages.map { $0["message_identifier"] as? String } == [identifier])
            #expect(messages.first?["state"] as? String == "APPROVED" && messages.first?["used_by_rules"] as? Bool == false)
            #expect(try await run(world, ["messages", "list", "--environment", "Sandbox"]).stdout.hasPrefix("0 messages"))

            let unknown = try await run(world, ["messages", "delete", UUID().uuidString])
            #expect(unknown.status == 1 && unknown.stderr.contains("MessageNotFoundError"), "\(unknown.stderr)")
            #expect(try await run(world, ["messages", "delete", identifier]).status == 0)
            #expect(try await run(world, ["messages", "list"]).stdout.hasPrefix("0 messages"))

            for bad in [
                ["messages", "upload", "--header", "H", "--body", "B", "--id", "not-a-uuid"],
                ["messages", "upload", "--header", String(repeating: "h", count: 67), "--body", "B"],
                ["messages", "upload", "--header", "H", "--body", "B", "--image", UUID().uuidString],
                ["messages", "list", "--environment", "Staging"],
                ["messages", "delete", "42"],
            ] {
                let refused = try await run(world, bad)
                #expect(refused.status == 2, "\(bad): \(refused.stderr)")
                #expect(refused.stderr.split(separator: "\n").count == 1, "\(bad): \(refused.stderr)")
            }

            let directory = FileManager.default.temporaryDirectory
            let png = directory.appendingPathComponent("retention-\(UUID().uuidString).png")
            let text = directory.appendingPathComponent("retention-\(UUID().uuidString).txt")
            try Data(RetentionWorld.png).write(to: png)
            try Data("not an image".utf8).write(to: text)
            defer {
                try? FileManager.default.removeItem(at: png)
                try? FileManager.default.removeItem(at: text)
            }
            let image = try await run(world, ["images", "upload", png.path, "--size", "bullet-point"])
            #expect(image.status == 0, "\(image.stderr)")
            let imageID = try #require(image.stdout.split(separator: "\n").first.map(String.init))
            let images = try await run(world, ["images", "list"])
            #expect(images.stdout.contains(imageID) && images.stdout.contains("BULLET_POINT"), "\(images.stdout)")
            let notPNG = try await run(world, ["images", "upload", text.path])
            #expect(notPNG.status == 2 && notPNG.stderr.contains("not a PNG"), "\(notPNG.stderr)")
            #expect(try await run(world, ["images", "delete", imageID]).status == 0)
            let gone = try await run(world, ["images", "delete", imageID])
            #expect(gone.status == 1 && gone.stderr.contains("ImageNotFoundError"), "\(gone.stderr)")
        }
    }

    @Test("realtime-url show/set/delete and performance-test start/result: PASS exits 0, FAIL exits 1")
    func realtimeURLAndPerformanceTest() async throws {
        try await RetentionWorld.with(seed: 20_261_208) { world in
            let endpoint = RealtimeEndpointStub()
            try await endpoint.start()
            defer { Task { await endpoint.stop() } }
            world.simulator.setPerformanceTestConfig(
                SimPerformanceTestConfig(
                    maxConcurrentRequests: 4, totalRequests: 12, totalDurationMilliseconds: 30_000, responseTimeThresholdMilliseconds: 700,
                    successRateThreshold: 95))

            let none = try await run(world, ["realtime-url", "show", "--environment", "Sandbox"])
            #expect(none.status == 1 && none.stderr.contains("RealtimeUrlNotFoundError"), "\(none.stderr)")
            #expect(try await run(world, ["realtime-url", "set", endpoint.url, "--environment", "Sandbox"]).status == 0)
            let shown = try await run(world, ["realtime-url", "show", "--environment", "Sandbox"])
            #expect(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == endpoint.url)
            let production = try await run(world, ["realtime-url", "set", endpoint.url])
            #expect(production.status == 1 && production.stderr.contains("ForbiddenNoPassingTestError"), "\(production.stderr)")
            #expect(try await run(world, ["realtime-url", "set", "ftp://example.com/x"]).status == 2)

            let started = try await run(world, ["performance-test", "start", world.originalTransactionID])
            #expect(started.status == 0, "\(started.stderr)")
            let requestID = try #require(started.stdout.split(separator: "\n").first.map(String.init))
            #expect(started.stdout.contains("12, 4 at once"), "\(started.stdout)")
            let passed = try await run(world, ["performance-test", "result", requestID, "--wait", "60"])
            #expect(passed.status == 0 && passed.stdout.hasPrefix("PASS"), "\(passed.stdout) \(passed.stderr)")
            #expect(passed.stdout.contains("100%"), "\(passed.stdout)")

            endpoint.behave(.status(500))
            let second = try await run(world, ["performance-test", "start", world.originalTransactionID, "--json"])
            let secondID = try #require(
                (try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])?["request_id"] as? String)
            let failed = try await run(world, ["performance-test", "result", secondID, "--wait", "60"])
            #expect(failed.status == 1 && failed.stdout.hasPrefix("FAIL"), "\(failed.stdout) \(failed.stderr)")
            #expect(failed.stdout.contains("UNSUCCESSFUL_HTTP_RESPONSE_CODE 12"), "\(failed.stdout)")

            #expect(try await run(world, ["performance-test", "start", "not-digits"]).status == 2)
            let unknown = try await run(world, ["performance-test", "start", "999999999"])
            #expect(unknown.status == 1 && unknown.stderr.contains("no sandbox purchase"), "\(unknown.stderr)")
            #expect(try await run(world, ["realtime-url", "delete", "--environment", "Sandbox"]).status == 0)
            #expect(try await run(world, ["realtime-url", "delete", "--environment", "Sandbox"]).status == 1)
        }
    }
}
