import Foundation
import TestSupport
import Testing

@Suite("subscriptionctl notifications discard")
struct CLIDiscardTests {
    @Test("discard ends a notification dead with the reason and who; unknown ids exit 1; no reason exits 2")
    func discard() async throws {
        try await RunningService.with(runsWorker: false) { service in
            let response = try await service.postNotification(NotificationBodies.bytes(NotificationBodies.v1()))
            let id = try #require(try jsonObject(response)["id"] as? Int)

            let missingReason = try await CLI.run(["notifications", "discard", String(id)], databaseURL: service.databaseURL)
            #expect(missingReason.status == 2)
            let unknown = try await CLI.run(["notifications", "discard", "999999", "--reason", "x"], databaseURL: service.databaseURL)
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("999999"))

            let done = try await CLI.run(
                ["notifications", "discard", String(id), "--reason", "sent by hand", "--json"],
                databaseURL: service.databaseURL, environment: ["USER": "ops"])
            #expect(done.status == 0)
            #expect(done.stdout.contains("\"discarded\" : 1"))
            #expect(try await service.stateCounts() == ["dead": 1])
            let shown = try await CLI.run(["notifications", "show", String(id)], databaseURL: service.databaseURL)
            #expect(shown.stdout.contains("discarded by ops@"))
            #expect(shown.stdout.contains("sent by hand"))
        }
    }
}
