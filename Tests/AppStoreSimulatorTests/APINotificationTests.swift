import AppStoreSimulator
import Foundation
import Testing

@Suite("App Store Server API: notification history, drops, test notifications, limits")
struct APINotificationTests {
    @Test func historyListsDroppedNotificationsAndPaginates() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        try simulator.addRandomCustomers(30, sandboxShare: 0, notificationVersions: .v2)
        let all = simulator.notifications()
        #expect(all.count > 40)
        try await withServer(simulator) { server in
            // verifyReceipt answers any POST with HTTP 200, which is all a delivery needs.
            let sender = NotificationSender(
                target: server.productionURL, retry: .none, drops: DropPolicy(rate: 0.3, seed: 7), simulator: simulator
            )
            let report = await sender.deliver(all)
            let dropped = Set(report.dropped.compactMap(\.notificationUUID))
            #expect(!dropped.isEmpty && dropped.count < all.count)
            #expect(report.delivered + dropped.count == all.count)
            #expect(Set(simulator.droppedNotifications().compactMap(\.notificationUUID)) == dropped)
            #expect(DropPolicy(rate: 0.3, seed: 7).dropped(all).count == dropped.count)

            let token = try credentials.token()
            // As far back as Apple keeps history: older notifications are out of reach.
            let now = Date()
            let start = now.addingTimeInterval(-179 * 86_400)
            let window: [String: Any] = [
                "startDate": Int(start.timeIntervalSince1970 * 1_000),
                "endDate": Int(now.timeIntervalSince1970 * 1_000) + 1,
            ]
            // The key is the demo app's: the paid app's customers are another app's history.
            let mine = Set(simulator.customers.filter { $0.bundleID == credentials.bundleID }.map(\.id))
            let reachable = all.filter { $0.date >= start && mine.contains($0.customerID) }
            #expect(
                reachable.count > 40 && reachable.count < all.count,
                "the scenarios reach past the window: \(reachable.count) of \(all.count)")
            let everything = try await notificationHistory(server.apiProductionURL, token: token, query: window)
            #expect(everything.pages == (reachable.count + 19) / 20)
            let uuids = try everything.items.map(notificationUUID)
            #expect(Set(uuids) == Set(reachable.compactMap(\.notificationUUID)) && uuids.count == reachable.count)
            for item in everything.items {
                let results = (item["sendAttempts"] as? [[String: Any]] ?? []).compactMap { $0["sendAttemptResult"] as? String }
                let wasDropped = dropped.contains(try notificationUUID(item))
                #expect(results == [wasDropped ? "NO_RESPONSE" : "SUCCESS"])
            }

            var failures = window
            failures["onlyFailures"] = true
            let missed = try await notificationHistory(server.apiProductionURL, token: token, query: failures)
            #expect(Set(try missed.items.map(notificationUUID)) == dropped.intersection(reachable.compactMap(\.notificationUUID)))

            let none = try await notificationHistory(server.apiSandboxURL, token: token, query: window)
            #expect(none.items.isEmpty)

            // Like Apple: a start more than 180 days back is refused, naming the reason.
            var tooOld = window
            tooOld["startDate"] = Int(now.addingTimeInterval(-181 * 86_400).timeIntervalSince1970 * 1_000)
            let refused = try await apiCall(
                server.apiProductionURL, "/inApps/v1/notifications/history", method: "POST", token: token,
                body: Array(try JSONSerialization.data(withJSONObject: tooOld)))
            #expect(refused.response.status == 400)
            #expect(refused.json["errorCode"] as? Int == 4_000_023)
        }
    }

    @Test func theRateLimitAnswers429WithRetryAfterInMilliseconds() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        try await withServer(simulator) { server in
            let token = try credentials.token()
            simulator.setAPIRateLimit(0)
            let before = Int64(Date().timeIntervalSince1970 * 1_000)
            let refused = try await apiCall(server.apiProductionURL, "/inApps/v1/transactions/1", token: token)
            #expect(refused.response.status == 429)
            #expect(refused.json["errorCode"] as? Int == 4_290_000)
            let retry = try #require(refused.response.header("Retry-After").flatMap { Int64($0) })
            #expect(retry > before && retry <= before + 60_000)

            // One a second: two requests in the same second give a 404 (allowed) then a 429.
            // A pair may straddle a second boundary, so a few pairs are tried.
            var statuses: [Int] = []
            for _ in 0..<5 where !statuses.contains(429) {
                simulator.setAPIRateLimit(1)  // a fresh window for each pair
                statuses = []
                for _ in 0..<2 {
                    statuses.append(try await apiCall(server.apiProductionURL, "/inApps/v1/transactions/1", token: token).response.status)
                }
            }
            #expect(statuses == [404, 429])
            #expect((simulator.stats().api["http_429"] ?? 0) >= 2)
        }
    }

    @Test func faultsApplyToTheAPI() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        try await withServer(simulator) { server in
            let token = try credentials.token()
            let forced = try await apiCall(
                server.apiProductionURL, "/inApps/v1/transactions/1", token: token, headers: [("X-Sim-Fault", "429")])
            #expect(forced.response.status == 429)
            #expect(forced.response.header("Retry-After").flatMap { Int64($0) } != nil)
            simulator.failNext(1, with: .http503)
            let queued = try await apiCall(server.apiProductionURL, "/inApps/v1/transactions/1", token: token)
            #expect(queued.response.status == 503)
            let after = try await apiCall(server.apiProductionURL, "/inApps/v1/transactions/1", token: token)
            #expect(after.response.status == 404)
        }
    }

    @Test func aTestNotificationIsSentAndItsStatusReported() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        try await withServer(simulator) { server in
            simulator.setNotificationTarget(server.productionURL)
            let token = try credentials.token()
            let requested = try await apiCall(server.apiSandboxURL, "/inApps/v1/notifications/test", method: "POST", token: token)
            #expect(requested.response.status == 200)
            let testToken = try #require(requested.json["testNotificationToken"] as? String)
            var status: [String: Any] = [:]
            for _ in 0..<100 {
                let answer = try await apiCall(server.apiSandboxURL, "/inApps/v1/notifications/test/" + testToken, token: token)
                #expect(answer.response.status == 200)
                status = answer.json
                if !(status["sendAttempts"] as? [Any] ?? []).isEmpty { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let attempts = try #require(status["sendAttempts"] as? [[String: Any]])
            #expect(attempts.first?["sendAttemptResult"] as? String == "SUCCESS")
            let payload = try DecodedJWS(try #require(status["signedPayload"] as? String)).payload
            #expect(payload["notificationType"] as? String == "TEST")
            #expect((payload["data"] as? [String: Any])?["environment"] as? String == "Sandbox")

            let elsewhere = try await apiCall(server.apiProductionURL, "/inApps/v1/notifications/test/" + testToken, token: token)
            #expect(elsewhere.response.status == 404)
            #expect(elsewhere.json["errorCode"] as? Int == 4_040_008)
        }
    }
}
