import AppStore
import AppStoreServerAPI
import AppStoreSignature
import Foundation
import SigningTestSupport
import Testing

@Suite("App Store Server API: paging and notification endpoints")
struct AppStoreAPIPagingTests {
    @Test("transaction history pages through every revision")
    func transactionHistoryPaging() async throws {
        try await APIHarness.with { harness in
            // Three pages of 20, 20 and 5, keyed by the revision that asks for them.
            var pages: [String: [String: Any]] = [:]
            let revisions = ["", "rev-1", "rev-2"]
            for (index, revision) in revisions.enumerated() {
                let count = index == 2 ? 5 : 20
                let signed = try (0..<count).map {
                    try harness.signedTransaction(id: "\(7000 + index * 100 + $0)", originalID: "7000", environment: "Production")
                }
                pages[revision] = [
                    "signedTransactions": signed, "revision": index == 2 ? "rev-end" : "rev-\(index + 1)", "hasMore": index < 2,
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: pages)
            harness.server.respond { request in
                let all = (try? JSONSerialization.jsonObject(with: data)) as? [String: [String: Any]] ?? [:]
                return all[request.query["revision"] ?? ""].map { .json($0) } ?? .error(400, code: 4_000_005)
            }
            let history = try await harness.client().transactionHistory(transactionID: "7000")
            #expect(history.environment == .production)
            #expect(history.transactions.count == 45)
            #expect(Set(history.transactions.compactMap(\.transactionID)).count == 45)
            #expect(harness.server.requests.map { $0.query["revision"] } == [nil, "rev-1", "rev-2"])
            #expect(harness.server.requests.allSatisfy { $0.path == "/inApps/v2/history/7000" && $0.method == "GET" })
        }
    }

    @Test("notification history pages through pagination tokens and keeps the raw payloads")
    func notificationHistoryPaging() async throws {
        try await APIHarness.with { harness in
            var pages: [String: [String: Any]] = [:]
            var expected: [String] = []
            for index in 0..<3 {
                let signed = try (0..<4).map {
                    try harness.signedNotification(type: "DID_RENEW", transactionID: "\(8000 + index * 10 + $0)", environment: "Sandbox")
                }
                expected += signed
                let items: [[String: Any]] = signed.map {
                    ["signedPayload": $0, "sendAttempts": [["attemptDate": 1_763_000_000_000, "sendAttemptResult": "NO_RESPONSE"]]]
                }
                var page: [String: Any] = ["notificationHistory": items, "hasMore": index < 2]
                if index < 2 { page["paginationToken"] = "token+\(index + 1)/=" }
                pages[index == 0 ? "" : "token+\(index)/="] = page
            }
            let data = try JSONSerialization.data(withJSONObject: pages)
            harness.server.respond { request in
                let all = (try? JSONSerialization.jsonObject(with: data)) as? [String: [String: Any]] ?? [:]
                return all[request.query["paginationToken"] ?? ""].map { .json($0) } ?? .error(400, code: 4_000_008)
            }
            let client = try harness.client()
            let now = Date()
            let query = NotificationHistoryQuery(
                startDate: now.addingTimeInterval(-7 * 86_400), endDate: now, notificationType: "DID_RENEW", onlyFailures: true)
            var received: [NotificationHistoryItem] = []
            var token: String?
            var pageCount = 0
            repeat {
                let page = try await client.notificationHistoryPage(query, paginationToken: token, environment: .sandbox)
                received += page.notifications
                token = page.hasMore ? page.paginationToken : nil
                pageCount += 1
            } while token != nil && pageCount < 10
            #expect(pageCount == 3)
            #expect(received.map(\.signedPayload) == expected)
            #expect(received.allSatisfy { $0.notification.payload.notificationType == .didRenew && $0.notification.transaction != nil })
            #expect(received.first?.sendAttempts.first?.resultRaw == "NO_RESPONSE")
            #expect(received.first?.sendAttempts.first?.attemptDate == Date(timeIntervalSince1970: 1_763_000_000))
            let requests = harness.server.requests
            #expect(requests.map { $0.query["paginationToken"] } == [nil, "token+1/=", "token+2/="])
            #expect(
                requests.allSatisfy { $0.environment == .sandbox && $0.method == "POST" && $0.path == "/inApps/v1/notifications/history" })
            let body = try #require(requests.first?.jsonBody)
            #expect((body["startDate"] as? NSNumber)?.int64Value == Int64(query.startDate.timeIntervalSince1970 * 1000))
            #expect((body["endDate"] as? NSNumber)?.int64Value == Int64(query.endDate.timeIntervalSince1970 * 1000))
            #expect(body["notificationType"] as? String == "DID_RENEW")
            #expect(body["onlyFailures"] as? Bool == true)
            #expect(body["transactionId"] == nil)
        }
    }

    @Test("a notification history start more than 180 days back is refused before sending")
    func notificationHistoryWindow() async throws {
        try await APIHarness.with { harness in
            let now = Date()
            let query = NotificationHistoryQuery(startDate: now.addingTimeInterval(-181 * 86_400), endDate: now)
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await harness.client().notificationHistoryPage(query, environment: .production, now: now)
            }
            guard case .invalidRequest(let reason)? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("180 days"))
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test("a test notification is requested and its status read back, verified")
    func testNotification() async throws {
        try await APIHarness.with { harness in
            let signed = try TestJWS.sign(
                payload: TestPayloads.notification(type: "TEST", environment: "Sandbox", signedTransaction: nil), by: harness.pki)
            harness.server.respond { request in
                switch (request.method, request.path) {
                case ("POST", "/inApps/v1/notifications/test"):
                    return .json(["testNotificationToken": "ce3af791-365e-4c60-841b-1674b43c1609_1698148900000"])
                case ("GET", "/inApps/v1/notifications/test/ce3af791-365e-4c60-841b-1674b43c1609_1698148900000"):
                    return .json([
                        "signedPayload": signed, "sendAttempts": [["attemptDate": 1_698_148_900_000, "sendAttemptResult": "SUCCESS"]],
                    ])
                default:
                    return .error(404, code: 4_040_008)
                }
            }
            let client = try harness.client()
            let token = try await client.requestTestNotification(environment: .sandbox)
            let status = try await client.testNotificationStatus(token: token, environment: .sandbox)
            #expect(status.signedPayload == signed)
            #expect(status.notification.payload.notificationType == .test)
            #expect(status.sendAttempts.map(\.resultRaw) == ["SUCCESS"])
            #expect(harness.server.requests.allSatisfy { $0.environment == .sandbox })
        }
    }
}
