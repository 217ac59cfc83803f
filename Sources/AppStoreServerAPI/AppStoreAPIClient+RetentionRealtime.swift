import AppStore
import Foundation
import HTTPClient
import Logging

/// Retention Messaging API: the URL of the app's Get Retention Message endpoint, per
/// environment, and the sandbox performance test Apple requires before production.
extension AppStoreAPIClient {
    /// Apple's longest realtime URL, in characters.
    public static let maximumRealtimeURLLength = 256

    /// Configure Realtime URL in `environment`. Refuses a URL that is not absolute http(s)
    /// or longer than Apple allows before sending; in production Apple answers 403
    /// `ForbiddenNoPassingTestError` until a sandbox performance test has passed.
    public func configureRealtimeURL(_ url: String, environment: AppStoreEnvironment, logger: Logger? = nil) async throws {
        guard url.count <= Self.maximumRealtimeURLLength else {
            throw AppStoreAPIError.invalidRequest(
                reason: "the realtime URL has \(url.count) characters; Apple allows \(Self.maximumRealtimeURLLength)")
        }
        guard let parsed = URL(string: url), ["https", "http"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw AppStoreAPIError.invalidRequest(
                reason: "the realtime URL must be an absolute https:// (or, for a local test, http://) URL")
        }
        let call = AppStoreAPICall(
            method: .put, path: "/inApps/v1/messaging/realtime/url", route: "/inApps/v1/messaging/realtime/url",
            body: try Self.encoded(RetentionMessagingWire.RealtimeURL(realtimeURL: url)))
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Get Realtime URL in `environment`; none configured is Apple's 404 `RealtimeUrlNotFoundError`.
    public func realtimeURL(environment: AppStoreEnvironment, logger: Logger? = nil) async throws -> String {
        let call = AppStoreAPICall(method: .get, path: "/inApps/v1/messaging/realtime/url", route: "/inApps/v1/messaging/realtime/url")
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(RetentionMessagingWire.RealtimeURL.self, body, in: environment)
            guard let url = wire.realtimeURL, !url.isEmpty else { throw .malformedAnswer(environment: environment) }
            return url
        }
    }

    /// Delete Realtime URL in `environment`: the App Store stops calling the endpoint there.
    public func deleteRealtimeURL(environment: AppStoreEnvironment, logger: Logger? = nil) async throws {
        let call = AppStoreAPICall(method: .delete, path: "/inApps/v1/messaging/realtime/url", route: "/inApps/v1/messaging/realtime/url")
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Initiate Performance Test, in the sandbox (the only environment Apple runs it in):
    /// Apple calls the sandbox realtime URL for the sandbox subscription
    /// `originalTransactionID` and answers at once with the test's id and configuration.
    public func startRetentionPerformanceTest(
        originalTransactionID: String, logger: Logger? = nil
    ) async throws -> RetentionPerformanceTestStart {
        _ = try Self.pathID(originalTransactionID)
        let call = AppStoreAPICall(
            method: .post, path: "/inApps/v1/messaging/performanceTest", route: "/inApps/v1/messaging/performanceTest",
            body: try Self.encoded(RetentionMessagingWire.PerformanceTestRequest(originalTransactionId: originalTransactionID)))
        return try await perform(call, in: [.sandbox], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(RetentionMessagingWire.PerformanceTestResponse.self, body, in: environment)
            guard let requestID = wire.requestId, !requestID.isEmpty else { throw .malformedAnswer(environment: environment) }
            return RetentionPerformanceTestStart(requestID: requestID, config: wire.config ?? .init())
        }
    }

    /// Get Performance Test Results of the test `requestID` (sandbox); `PENDING` while it runs.
    public func retentionPerformanceTestResult(requestID: String, logger: Logger? = nil) async throws -> RetentionPerformanceTestResult {
        let call = AppStoreAPICall(
            method: .get, path: "/inApps/v1/messaging/performanceTest/result/" + (try Self.pathID(requestID)),
            route: "/inApps/v1/messaging/performanceTest/result/{requestId}")
        return try await perform(call, in: [.sandbox], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(RetentionMessagingWire.PerformanceTestResult.self, body, in: environment)
            return RetentionPerformanceTestResult(
                config: wire.config ?? .init(), target: wire.target, outcomeRaw: wire.result, successRate: wire.successRate,
                pending: wire.numPending, responseTimes: wire.responseTimes, failures: wire.failures ?? [:])
        }
    }
}
