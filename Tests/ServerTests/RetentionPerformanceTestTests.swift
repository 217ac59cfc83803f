import AppStore
import AppStoreServerAPI
import AppStoreSignature
import AppStoreSimulator
import Foundation
import Testing

/// Apple's performance test of a Get Retention Message endpoint as appstore-sim runs it: signed
/// realtime requests at the configured concurrency against a real local HTTP endpoint, PASS
/// for one that answers fast and well, FAIL for one that answers slowly or with errors.
@Suite("Retention Messaging performance test: appstore-sim load-tests a real endpoint")
struct RetentionPerformanceTestTests {
    /// Apple's DecodedRealtimeRequestBody, enough to verify a request's signature and fields.
    struct DecodedRealtimeRequest: SignedDatePayload {
        let originalTransactionId: String
        let appAppleId: Int64
        let productId: String
        let userLocale: String
        let requestIdentifier: String
        let environment: String
        let signedDateMilliseconds: Int64

        var signedDate: Date? { Date(timeIntervalSince1970: Double(signedDateMilliseconds) / 1_000) }

        enum CodingKeys: String, CodingKey {
            case originalTransactionId, appAppleId, productId, userLocale, requestIdentifier, environment
            case signedDateMilliseconds = "signedDate"
        }
    }

    @Test("a fast endpoint passes; every request is signed by the simulator's chain and names the test's subscription")
    func fastEndpointPasses() async throws {
        try await RetentionWorld.with(seed: 20_261_205) { world in
            let endpoint = RealtimeEndpointStub()
            try await endpoint.start()
            defer { Task { await endpoint.stop() } }
            world.simulator.setPerformanceTestConfig(
                SimPerformanceTestConfig(
                    maxConcurrentRequests: 4, totalRequests: 24, totalDurationMilliseconds: 30_000, responseTimeThresholdMilliseconds: 700,
                    successRateThreshold: 95))
            // No sandbox URL yet: Apple has nothing to test.
            await expectAppleRejection(404, 4_040_021) {
                _ = try await world.client.startRetentionPerformanceTest(originalTransactionID: world.originalTransactionID)
            }
            try await world.client.configureRealtimeURL(endpoint.url, environment: .sandbox)
            // Only a sandbox subscription of the app can be tested.
            await #expect(throws: AppStoreAPIError.notFound) {
                _ = try await world.client.startRetentionPerformanceTest(originalTransactionID: "999999999")
            }
            let started = try await world.client.startRetentionPerformanceTest(originalTransactionID: world.originalTransactionID)
            #expect(
                started.config
                    == RetentionPerformanceTestConfig(
                        maxConcurrentRequests: 4, totalRequests: 24, totalDuration: 30_000, responseTimeThreshold: 700,
                        successRateThreshold: 95))
            let result = try await world.finishedResult(started.requestID)
            #expect(result.outcome == .pass, "\(result)")
            #expect(result.successRate == 100 && result.pending == 0 && result.failures.isEmpty, "\(result)")
            #expect(result.target == endpoint.url)
            let times = try #require(result.responseTimes)
            #expect((times.p50 ?? -1) >= 0 && (times.p50 ?? 0) <= (times.p99 ?? -1) && (times.p99 ?? 1_000) < 700, "\(times)")

            let bodies = endpoint.bodies
            #expect(bodies.count == 24)
            let verifier = SignedPayloadVerifier(
                roots: try AppleRootCertificates(pemOrDER: Array(try world.simulator.signingPKI().root.pem.utf8)))
            var identifiers = Set<String>()
            let app = try #require(world.simulator.configuration.apps.first)
            for body in bodies {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
                let jws = try #require(object["signedPayload"] as? String)
                let payload = try await verifier.verify(jws, as: DecodedRealtimeRequest.self)
                #expect(payload.originalTransactionId == world.originalTransactionID)
                #expect(payload.appAppleId == Int64(app.appAppleID) && payload.productId == "com.example.pro.monthly")
                #expect(payload.environment == "Sandbox" && payload.userLocale == "en-US")
                #expect(abs(payload.signedDate?.timeIntervalSinceNow ?? 1_000) < 120)
                identifiers.insert(payload.requestIdentifier)
            }
            #expect(identifiers.count == 24, "each request has its own requestIdentifier")
            #expect(identifiers.allSatisfy { UUID(uuidString: $0) != nil })

            // Passed: Apple now takes the production URL.
            try await world.client.configureRealtimeURL(endpoint.url, environment: .production)
            #expect(try await world.client.realtimeURL(environment: .production) == endpoint.url)
            await expectAppleRejection(404, 4_040_018) {
                _ = try await world.client.retentionPerformanceTestResult(requestID: UUID().uuidString)
            }
        }
    }

    @Test("an endpoint answering 500, or slower than the threshold, fails with Apple's reasons; one test at a time")
    func slowOrFailingEndpointFails() async throws {
        try await RetentionWorld.with(seed: 20_261_206) { world in
            let endpoint = RealtimeEndpointStub()
            try await endpoint.start()
            defer { Task { await endpoint.stop() } }
            world.simulator.setPerformanceTestConfig(
                SimPerformanceTestConfig(
                    maxConcurrentRequests: 4, totalRequests: 12, totalDurationMilliseconds: 30_000, responseTimeThresholdMilliseconds: 150,
                    successRateThreshold: 90))
            try await world.client.configureRealtimeURL(endpoint.url, environment: .sandbox)

            endpoint.behave(.status(500))
            let errors = try await world.client.startRetentionPerformanceTest(originalTransactionID: world.originalTransactionID)
            let failed = try await world.finishedResult(errors.requestID)
            #expect(failed.outcome == .fail && failed.successRate == 0, "\(failed)")
            #expect(failed.failures == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE": 12], "\(failed)")

            endpoint.behave(.answerAfter(.milliseconds(400)))
            let slow = try await world.client.startRetentionPerformanceTest(originalTransactionID: world.originalTransactionID)
            // While it runs, Apple refuses a second test.
            await expectAppleRejection(400, 4_000_213) {
                _ = try await world.client.startRetentionPerformanceTest(originalTransactionID: world.originalTransactionID)
            }
            let running = try await world.client.retentionPerformanceTestResult(requestID: slow.requestID)
            #expect(running.outcome == .pending && (running.pending ?? 0) > 0, "\(running)")
            let timedOut = try await world.finishedResult(slow.requestID)
            #expect(timedOut.outcome == .fail && timedOut.failures == ["TIMED_OUT": 12], "\(timedOut)")
            #expect((timedOut.responseTimes?.p50 ?? 0) >= 400, "\(String(describing: timedOut.responseTimes))")

            // Neither passed: production stays refused.
            await expectAppleRejection(403, 4_030_026) {
                try await world.client.configureRealtimeURL(endpoint.url, environment: .production)
            }
        }
    }
}
