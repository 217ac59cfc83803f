import Foundation
import HTTPClient
import Postgres
import Testing
import UseCases

@Suite("Health: /health/live and /health/ready")
struct HealthTests {
    @Test("live answers ok without a token; ready answers ready once the database and its schema are there")
    func health() async throws {
        try await RunningService.with { service in
            let live = try await service.get("/health/live", token: nil)
            #expect(live.status == 200)
            #expect(try jsonObject(live)["status"] as? String == "ok")
            let ready = try await service.get("/health/ready", token: nil)
            #expect(ready.status == 200)
            #expect(try jsonObject(ready)["status"] as? String == "ready")
        }
    }

    @Test("a schema a newer release migrated keeps this release ready (rolling upgrades); a process started against it too")
    func schemaAhead() async throws {
        try await RunningService.with(runsWorker: false) { service in
            // The next release applied a migration this build does not have.
            try await service.database.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES ('9999', '9999_next_release', 'unknown')")
            try await Task.sleep(for: .milliseconds(2_100))
            let ready = try await service.get("/health/ready", token: nil)
            #expect(ready.status == 200)
            // A process of this release started now (as during a rolling upgrade) starts and serves.
            let twin = try await RunningService.Instance.start(
                environment: service.environment, retryPolicy: RetryPolicy(), runsWorker: false)
            let answer = try await service.http.execute(
                HTTPRequest(method: .get, url: "http://127.0.0.1:\(twin.port)/health/ready", timeout: .seconds(10)))
            #expect(answer.status == 200)
            try await twin.stop()
        }
    }
}
