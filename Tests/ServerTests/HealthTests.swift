import Foundation
import HTTPClient
import Testing

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
}
