import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// A network path to PostgreSQL that silently drops everything (no reset, no answer) must
/// not hang intake: requests answer 503 within a deadline, readiness says so, and all heals
/// once packets flow again, with nothing that was acknowledged lost.
@Suite("Database blackhole: bounded waits, 503 while it lasts, healing after, nothing lost")
struct DatabaseBlackholeTests {
    @Test("intake and readiness answer 503 within the deadline while PostgreSQL is unreachable, and recover")
    func blackholeAndRecovery() async throws {
        let proxy = try TCPProxy(forwardingTo: try TestEnvironment.adminURL())
        defer { proxy.close() }
        let settings = ["DATABASE_LEASE_TIMEOUT_MS": "1000", "DATABASE_STATEMENT_TIMEOUT_MS": "1000", "DATABASE_POOL_SIZE": "4"]
        try await RunningService.with(settings: settings, runsWorker: false, databaseURL: { proxy.url(through: $0) }) { service in
            var acknowledged: [Int] = []
            func post(_ index: Int) async throws -> HTTPClient.HTTPResponse {
                let id = String(8_000_000_000_000_000 + index)
                return try await service.postNotification(NotificationBodies.renewal(originalTransactionID: id), retriesUnavailable: false)
            }
            for index in 0..<10 {
                let response = try await post(index)
                #expect(response.status == 200)
                if let id = try jsonObject(response)["id"] as? Int { acknowledged.append(id) }
            }

            proxy.blackhole()
            for index in 10..<14 {
                let started = ContinuousClock.now
                let response = try await post(index)
                #expect(response.status == 503)
                #expect(response.headers.contains { $0.name.lowercased() == "retry-after" })
                #expect(ContinuousClock.now - started < .seconds(20), "intake waited \(ContinuousClock.now - started)")
            }
            let started = ContinuousClock.now
            #expect(try await service.get("/health/ready", token: nil).status == 503)
            #expect(ContinuousClock.now - started < .seconds(20))

            proxy.forward()
            let deadline = ContinuousClock.now + .seconds(30)
            var healed = false
            while ContinuousClock.now < deadline {
                if try await service.get("/health/ready", token: nil).status == 200 {
                    healed = true
                    break
                }
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(healed)
            for index in 14..<20 {
                let response = try await post(index)
                #expect(response.status == 200)
                if let id = try jsonObject(response)["id"] as? Int { acknowledged.append(id) }
            }
            let stored: Int = try await service.database.query(
                """
                SELECT count(*) AS n FROM notifications WHERE id = ANY(\(acknowledged.map(String.init))::bigint[])
                """)[0].decode("n")
            #expect(stored == acknowledged.count)
            #expect(acknowledged.count == 16)
        }
    }
}
