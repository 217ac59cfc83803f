import Foundation
import HTTPClient
import Postgres
import Testing

@Suite("Query API: bearer token, 404s, read-time status")
struct QueryAPITests {
    @Test("no token, a wrong token or another scheme is 401; an unknown id is 404")
    func authentication() async throws {
        try await RunningService.with(runsWorker: false) { service in
            for token in [nil, "wrong-token", String(RunningService.adminToken.dropLast())] as [String?] {
                let response = try await service.get("/v1/subscriptions/1", token: token)
                #expect(response.status == 401)
                #expect(try jsonObject(response)["error"] as? String == "unauthorized")
            }
            let basic = try await service.http.execute(
                HTTPClient.HTTPRequest(
                    method: .get, url: service.baseURL + "/v1/subscriptions/1",
                    headers: [HTTPHeader(name: "Authorization", value: "Basic \(RunningService.adminToken)")], timeout: .seconds(5)))
            #expect(basic.status == 401)
            let missing = try await service.get("/v1/subscriptions/999")
            #expect(missing.status == 404)
            #expect(try jsonObject(missing)["error"] as? String == "not_found")
        }
    }

    @Test("without ADMIN_TOKEN and without keys the query API lets nobody in (401), and the old token is refused")
    func noAdminToken() async throws {
        try await RunningService.with(settings: ["ADMIN_TOKEN": ""], runsWorker: false) { service in
            let response = try await service.get("/v1/subscriptions/1")
            #expect(response.status == 401)
            #expect(try jsonObject(response)["error"] as? String == "unauthorized")
        }
    }

    @Test("a read after expires_at never says active, even with nothing processed since")
    func readTimeStatus() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var life = Lifecycle(originalTransactionID: "5000000000000100")
        life.purchase(from: daysAgo(5), days: 30)
        life.notify("DID_RENEW", at: daysAgo(5))
        try verify.answerAlways(life.verifyAnswer)
        try await RunningService.with(verifyServer: verify) { service in
            #expect(try await service.postNotification(NotificationBodies.bytes(life.notifications[0])).status == 200)
            try await service.waitUntilSettled()
            let before = try jsonObject(try await service.get("/v1/subscriptions/5000000000000100"))
            #expect(before["status"] as? String == "active")
            // Time passes: the period ends and no notification arrives to say so.
            try await service.database.execute("UPDATE transactions SET expires_date = now() - interval '1 second'")
            let after = try jsonObject(try await service.get("/v1/subscriptions/5000000000000100"))
            #expect(after["status"] as? String == "expired")
            #expect(after["entitled"] as? Bool == false)
            // The stored row still says active: the read computed the truth.
            let stored = try await service.database.query("SELECT status FROM subscriptions")[0].decode("status", as: String.self)
            #expect(stored == "active")
        }
    }
}
