import Foundation
import NIOConcurrencyHelpers

/// Retention Messaging API: the realtime URL per app and environment, and the sandbox
/// performance test that calls it.
extension AppStoreSimulator {
    /// Configure Realtime URL: an absolute http(s) URL of at most 256 characters
    /// (`BadRequestRealtimeUrlError` otherwise); in production only once a sandbox test of
    /// the app has passed (`ForbiddenNoPassingTestError`), as at Apple.
    func apiConfigureRealtimeURL(body: [UInt8], environment: SimEnvironment, bundleID: String) throws(APIError) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let url = object["realtimeURL"] as? String
        else { throw .invalidRequest }
        guard url.count <= 256, let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
            parsed.host?.isEmpty == false
        else { throw .badRealtimeURL }
        try changeRetention { retention in
            if environment == .production,
                !retention.performanceTests.values.contains(where: { $0.bundleID == bundleID && $0.tally.result == .pass })
            {
                return .noPassingTest
            }
            retention[bundleID, environment].realtimeURL = url
            return nil
        }
    }

    /// Get Realtime URL: `{"realtimeURL"}`, or 404 `RealtimeUrlNotFoundError`.
    func apiRealtimeURL(environment: SimEnvironment, bundleID: String) throws(APIError) -> JSONValue {
        let url = try withRetention { retention -> Result<String, APIError> in
            retention[bundleID, environment].realtimeURL.map { .success($0) } ?? .failure(.realtimeURLNotFound)
        }
        return .object([("realtimeURL", .string(url))])
    }

    /// Delete Realtime URL, or 404 `RealtimeUrlNotFoundError` when none is set.
    func apiDeleteRealtimeURL(environment: SimEnvironment, bundleID: String) throws(APIError) {
        try changeRetention { retention in
            guard retention[bundleID, environment].realtimeURL != nil else { return .realtimeURLNotFound }
            retention[bundleID, environment].realtimeURL = nil
            return nil
        }
    }

    /// Initiate Performance Test (sandbox): `{"originalTransactionId"}` of one of the app's
    /// sandbox subscriptions, with a sandbox realtime URL set and no test of the app running.
    /// Answers `{"config", "requestId"}`, with the test's id and the run to start
    /// (`runPerformanceTest`).
    func apiStartPerformanceTest(
        body: [UInt8], bundleID: String, now: Date
    ) throws(APIError) -> (
        answer: JSONValue, requestID: String, run: RealtimePerformanceRun
    ) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let originalTransactionID = object["originalTransactionId"] as? String, !originalTransactionID.isEmpty
        else { throw .invalidPerformanceTestRequest }
        guard let app = configuration.app(bundleID) else { throw .internalError(status: 500) }
        let (customer, jws) = try apiCustomer(originalTransactionID, environment: .sandbox, bundleID: bundleID)
        guard let subscription = customer.state(at: now).subscriptions.first(where: { $0.originalTransactionID == originalTransactionID })
        else { throw .invalidPerformanceTestRequest }
        let productID = subscription.latest.productID
        let requestID = UUID().uuidString.lowercased()
        let (target, config) = try withRetention { retention -> Result<(String, SimPerformanceTestConfig), APIError> in
            guard let target = retention[bundleID, .sandbox].realtimeURL else { return .failure(.realtimeURLNotFound) }
            guard !retention.performanceTests.values.contains(where: { $0.bundleID == bundleID && !$0.finished }) else {
                return .failure(.existingPerformanceTestRun)
            }
            let config = retention.performanceTestConfig
            retention.keep(SimPerformanceTest(requestID: requestID, bundleID: bundleID, target: target, config: config, startedAt: now))
            return .success((target, config))
        }
        // The simulator's client speaks plain HTTP only: an https URL fails every request.
        let url = URL(string: target) ?? URL(fileURLWithPath: "/")
        let run = RealtimePerformanceRun(
            target: url, config: config, signer: RealtimeRequestSigner(signer: jws),
            fields: {
                RealtimeRequestFields(
                    originalTransactionID: originalTransactionID, appAppleID: app.appAppleID, productID: productID, environment: .sandbox)
            })
        return (.object([("config", config.json), ("requestId", .string(requestID))]), requestID, run)
    }

    /// Runs a started test to its end, recording each outcome.
    func runPerformanceTest(_ requestID: String, _ run: RealtimePerformanceRun) async {
        await run.run { outcome in
            self.box.withLockedValue { $0.retention.performanceTests[requestID]?.outcomes.append(outcome) }
        }
        box.withLockedValue { state in
            guard var test = state.retention.performanceTests[requestID] else { return }
            test.finished = true
            state.retention.keep(test)
        }
    }

    /// Get Performance Test Results: the app's test `requestID`, or 404 `PerformanceTestRunNotFoundError`.
    func apiPerformanceTestResult(_ requestID: String, bundleID: String) throws(APIError) -> JSONValue {
        let test = try withRetention { retention -> Result<SimPerformanceTest, APIError> in
            guard let test = retention.performanceTests[requestID.lowercased()], test.bundleID == bundleID else {
                return .failure(.performanceTestNotFound)
            }
            return .success(test)
        }
        return test.tally.json(target: test.target)
    }
}
