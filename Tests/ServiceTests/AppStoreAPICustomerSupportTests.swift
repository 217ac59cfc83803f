import AppStore
import AppStoreServerAPI
import Foundation
import SigningTestSupport
import Testing

/// Look Up Order ID and Get Refund History through the real libcurl client: Apple's answers,
/// its error answers (4xx never retried, 429 after Retry-After, 5xx retried), production only
/// for orders, every page of refunds.
@Suite("App Store Server API: order lookup and refund history")
struct AppStoreAPICustomerSupportTests {
    @Test("a valid order answers its verified transactions; asked in production only, on its own limit")
    func orderFound() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "5100", originalID: "5000", environment: "Production")
            harness.server.respond { request in
                request.path == "/inApps/v1/lookup/MK5TTTVWJH"
                    ? .json(["status": 0, "signedTransactions": [transaction]]) : .error(404, code: 0)
            }
            let client = try harness.client()
            guard case .valid(let transactions) = try await client.lookUpOrder("MK5TTTVWJH") else {
                Issue.record("the order should be valid")
                return
            }
            #expect(transactions.map(\.transactionID) == ["5100"])
            #expect(transactions.first?.originalTransactionID == "5000")
            #expect(harness.server.requests.map(\.environment) == [.production])
            #expect(client.rateLimiter(for: .production, .customerLookup).ratePerSecond == 10 * AppStoreAPIRateLimiter.pacingShare)
        }
    }

    @Test("status 1 is an unknown order, not an error; no sandbox fallback")
    func orderUnknown() async throws {
        try await APIHarness.with { harness in
            harness.server.respond { _ in .json(["status": 1]) }
            let answer = try await harness.client().lookUpOrder("MZZZZZZZZZ")
            #expect(answer == .invalid)
            #expect(harness.server.requests.map(\.environment) == [.production])
        }
    }

    @Test("a valid status without transactions, or an unknown status, is a malformed answer")
    func orderMalformed() async throws {
        for status in [0, 7, nil] as [Int?] {
            try await APIHarness.with { harness in
                harness.server.respond { _ in .json(status.map { ["status": $0] } ?? [:]) }
                await #expect(throws: AppStoreAPIError.malformedAnswer(environment: .production)) {
                    try await harness.client().lookUpOrder("MK5TTTVWJH")
                }
            }
        }
    }

    @Test("4xx is answered at once and never retried; 429 waits for Retry-After; 5xx is retried")
    func orderErrors() async throws {
        try await APIHarness.with { harness in
            harness.server.respond { _ in .error(400, code: 4_000_006) }
            await #expect(throws: AppStoreAPIError.self) { try await harness.client().lookUpOrder("MK5TTTVWJH") }
            #expect(harness.server.requests.count == 1)
        }
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "5100", environment: "Production")
            harness.server.respond { _ in .json(["status": 0, "signedTransactions": [transaction]]) }
            let allowedAt = Date().addingTimeInterval(1.1)
            harness.server.inject([
                .json(
                    ["errorCode": 4_290_000], status: 429, headers: ["Retry-After": String(Int64(allowedAt.timeIntervalSince1970 * 1000))]),
                .json([:], status: 503),
            ])
            guard case .valid = try await harness.client().lookUpOrder("MK5TTTVWJH") else {
                Issue.record("the order should be valid after the 429 and the 503")
                return
            }
            let requests = harness.server.requests
            #expect(requests.count == 3)
            #expect((requests.dropFirst().first?.arrivedAtDate.timeIntervalSince(allowedAt) ?? -1) > -0.05)
        }
    }

    @Test("refund history follows revisions to the last page, in the environment that knew the customer")
    func refundPages() async throws {
        try await APIHarness.with { harness in
            let first = try harness.signedTransaction(id: "6001", originalID: "6000", environment: "Sandbox")
            let second = try harness.signedTransaction(id: "6002", originalID: "6000", environment: "Sandbox")
            harness.server.respond { request in
                guard request.environment == .sandbox, request.path == "/inApps/v2/refund/lookup/6000" else {
                    return .error(404, code: 4_040_010)
                }
                return request.query["revision"] == "r1"
                    ? .json(["signedTransactions": [second], "revision": "r2", "hasMore": false])
                    : .json(["signedTransactions": [first], "revision": "r1", "hasMore": true])
            }
            let history = try await harness.client().refundHistory(transactionID: "6000")
            #expect(history.environment == .sandbox)
            #expect(history.transactions.map(\.transactionID) == ["6001", "6002"])
            #expect(harness.server.requests.map(\.environment) == [.production, .sandbox, .sandbox])
        }
    }

    @Test("a refund history that says hasMore with the same revision is refused, not followed forever")
    func refundLoopRefused() async throws {
        try await APIHarness.with { harness in
            harness.server.respond { _ in .json(["signedTransactions": [], "revision": "same", "hasMore": true]) }
            await #expect(throws: AppStoreAPIError.malformedAnswer(environment: .production)) {
                try await harness.client().refundHistory(transactionID: "6000")
            }
            #expect(harness.server.requests.count == 2)
        }
    }
}
