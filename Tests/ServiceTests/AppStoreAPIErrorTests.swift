import AppStore
import AppStoreServerAPI
import Crypto
import Foundation
import Logging
import SigningTestSupport
import Testing

@Suite("App Store Server API: environments, retries and classification")
struct AppStoreAPIErrorTests {
    @Test("404 TransactionIdNotFound in production falls back to sandbox")
    func environmentFallback() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "2000", environment: "Sandbox")
            let renewal = try harness.signedRenewal(originalID: "2000", environment: "Sandbox")
            harness.server.respond { request in
                guard request.environment == .sandbox, request.path == "/inApps/v1/subscriptions/2000" else {
                    return .error(404, code: 4_040_010)
                }
                return .json([
                    "environment": "Sandbox", "bundleId": TestPayloads.bundleID,
                    "data": [
                        [
                            "subscriptionGroupIdentifier": "21000000",
                            "lastTransactions": [
                                [
                                    "originalTransactionId": "2000", "status": 1, "signedTransactionInfo": transaction,
                                    "signedRenewalInfo": renewal,
                                ]
                            ],
                        ]
                    ],
                ])
            }
            let answer = try await harness.client().subscriptionStatuses(transactionID: "2000")
            #expect(answer.environment == .sandbox)
            let last = try #require(answer.groups.first?.lastTransactions.first)
            #expect(last.originalTransactionID == "2000")
            #expect(last.status == .active)
            #expect(last.transaction.transactionID == "2000")
            #expect(last.renewalInfo?.autoRenewStatus == 1)
            #expect(harness.server.requests.map(\.environment) == [.production, .sandbox])
        }
    }

    @Test("404 TransactionIdNotFound in both environments is notFound, permanent")
    func notFoundInBoth() async throws {
        try await APIHarness.with { harness in
            harness.server.respond { _ in .error(404, code: 4_040_010) }
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await harness.client().transactionInfo(transactionID: "404")
            }
            #expect(error == .notFound)
            #expect(error?.isRetryable == false)
            #expect(harness.server.requests.map(\.environment) == [.production, .sandbox])
        }
    }

    @Test("429 waits for Retry-After (UNIX ms) and then completes")
    func retryAfterHonoured() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "3000", environment: "Production")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            let allowedAt = Date().addingTimeInterval(1.2)
            let header = String(Int64(allowedAt.timeIntervalSince1970 * 1000))
            harness.server.inject([.json(["errorCode": 4_290_000], status: 429, headers: ["Retry-After": header])])
            let answer = try await harness.client().transactionInfo(transactionID: "3000")
            #expect(answer.transaction.transactionID == "3000")
            let requests = harness.server.requests
            #expect(requests.count == 2)
            let retried = try #require(requests.last)
            // Second-resolution slack only: the retry must not come before Apple allowed it.
            #expect(retried.arrivedAtDate.timeIntervalSince(allowedAt) > -0.05)
        }
    }

    @Test("429 with a Retry-After beyond the client's own wait is reported as rateLimited, retryable")
    func retryAfterTooFar() async throws {
        try await APIHarness.with { harness in
            let seconds = Int64(Date().timeIntervalSince1970) + 3600
            harness.server.inject([.json([:], status: 429, headers: ["Retry-After": String(seconds)])])
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await harness.client().transactionInfo(transactionID: "3000")
            }
            guard case .rateLimited(.production, let retryAfter)? = error else {
                Issue.record("expected rateLimited, got \(String(describing: error))")
                return
            }
            #expect(retryAfter == Date(timeIntervalSince1970: Double(seconds)))
            #expect(error?.retry == .retry(limited: false))
            #expect(harness.server.requests.count == 1)
        }
    }

    @Test("5xx is retried with backoff, then succeeds")
    func serverErrorRetried() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "4000", environment: "Production")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            harness.server.inject([.json([:], status: 503), .json([:], status: 500)])
            let answer = try await harness.client().transactionInfo(transactionID: "4000")
            #expect(answer.transaction.transactionID == "4000")
            #expect(harness.server.requests.count == 3)
        }
    }

    @Test("5xx beyond the bounded retries is unavailable, retryable")
    func serverErrorExhausted() async throws {
        try await APIHarness.with { harness in
            harness.server.respond { _ in .json([:], status: 502) }
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await harness.client(retries: .init(upstreamRetries: 1, backoffBase: .milliseconds(10))).transactionInfo(
                    transactionID: "4000")
            }
            #expect(error == .unavailable(environment: .production, reason: "HTTP 502"))
            #expect(error?.retry == .retry(limited: false))
            #expect(harness.server.requests.count == 2)
        }
    }

    @Test("a refused connection is retried, then reported as unavailable")
    func connectionRefused() async throws {
        try await APIHarness.with { harness in
            let client = try AppStoreAPIClient(
                bundleID: TestPayloads.bundleID, issuerID: APIHarness.issuerID, keyID: APIHarness.keyID,
                privateKeyPEM: harness.apiKey.pemRepresentation, productionURL: "http://127.0.0.1:1/prod",
                sandboxURL: "http://127.0.0.1:1/sandbox", http: harness.http, timeout: .seconds(2),
                verifier: harness.verifier, retries: .init(upstreamRetries: 1, backoffBase: .milliseconds(10)), logger: .init(label: "test")
            )
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await client.transactionInfo(transactionID: "1")
            }
            #expect(error?.isRetryable == true)
            guard case .unavailable(.production, _)? = error else {
                Issue.record("expected unavailable, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("another 4xx is permanent with Apple's errorCode, never its message")
    func otherClientError() async throws {
        try await APIHarness.with { harness in
            harness.server.respond { _ in .error(400, code: 4_000_006) }
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await harness.client().transactionInfo(transactionID: "1")
            }
            #expect(error == .rejected(environment: .production, status: 400, errorCode: 4_000_006))
            #expect(error?.retry == .permanent)
            #expect(error?.description.contains("scripted") == false)
            #expect(harness.server.requests.count == 1)
        }
    }

    @Test("a malformed JSON answer is malformedAnswer, retryable a few times")
    func malformedAnswer() async throws {
        try await APIHarness.with { harness in
            harness.server.respond { _ in .init(status: 200, body: Array("{not json".utf8)) }
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await harness.client().transactionInfo(transactionID: "1")
            }
            #expect(error == .malformedAnswer(environment: .production))
            #expect(error?.retry == .retry(limited: true))
        }
    }

    @Test("a transaction signed by an untrusted chain is untrustedAnswer, permanent")
    func untrustedChain() async throws {
        try await APIHarness.with { harness in
            let rogue = try TestPKI(.init(name: "Rogue"))
            let forged = try TestJWS.sign(payload: TestPayloads.transaction(id: "5000", environment: "Production"), by: rogue)
            harness.server.respond { _ in .json(["signedTransactionInfo": forged]) }
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await harness.client().transactionInfo(transactionID: "5000")
            }
            guard case .untrustedAnswer(.production, _)? = error else {
                Issue.record("expected untrustedAnswer, got \(String(describing: error))")
                return
            }
            #expect(error?.retry == .permanent)
        }
    }

    @Test("a genuine transaction of another app or environment is untrustedAnswer")
    func otherAppOrEnvironment() async throws {
        try await APIHarness.with { harness in
            let otherApp = try TestJWS.sign(
                payload: TestPayloads.transaction(id: "6000", environment: "Production", bundleID: "com.other"), by: harness.pki)
            let sandboxOnProduction = try harness.signedTransaction(id: "6001", environment: "Sandbox")
            harness.server.respond { request in
                .json(["signedTransactionInfo": request.path.hasSuffix("6000") ? otherApp : sandboxOnProduction])
            }
            let client = try harness.client()
            for id in ["6000", "6001"] {
                let error = await #expect(throws: AppStoreAPIError.self) {
                    try await client.transactionInfo(transactionID: id)
                }
                guard case .untrustedAnswer? = error else {
                    Issue.record("expected untrustedAnswer for \(id), got \(String(describing: error))")
                    continue
                }
            }
        }
    }
}
