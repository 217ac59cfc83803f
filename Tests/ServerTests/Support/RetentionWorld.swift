import AppStore
import AppStoreServerAPI
import AppStoreSignature
import AppStoreSimulator
import Foundation
import HTTPClient
import Logging
import Testing

/// appstore-sim with an API key and one sandbox subscriber, serving, and subscriptiond's own
/// App Store Server API client (libcurl) pointed at it: what the Retention Messaging tests share.
struct RetentionWorld: Sendable {
    let world: AppStoreAPIEndToEndTests.World
    let http: CurlHTTPClient
    let client: AppStoreAPIClient
    /// The sandbox subscriber's original transaction id, for performance tests.
    let originalTransactionID: String

    var simulator: AppStoreSimulator { world.simulator }
    var server: SimulatorServer { world.server }

    /// The settings a `subscriptionctl` process needs to reach the simulator with the key.
    var cliEnvironment: [String: String] {
        world.settings.merging(["APPSTORE_BUNDLE_ID": RunningService.bundleID]) { _, new in new }
    }

    /// Runs `body` with a world whose server and client are stopped afterwards.
    static func with(seed: UInt64, _ body: (RetentionWorld) async throws -> Void) async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(customers: 0, seed: seed, scenarios: [.trialRenews])
        var logger = Logger(label: "test.retention")
        logger.logLevel = .warning
        let http = CurlHTTPClient(logger: logger)
        do {
            let customer = try #require(
                try world.simulator.addCustomers([
                    CustomerSpec(
                        name: "sam-sandbox", scenario: .trialRenews, environment: .sandbox, productID: "com.example.pro.monthly",
                        renewals: 1, notificationVersion: .v2)
                ]
                ).first)
            let originalTransactionID = try #require(customer.state(at: Date()).subscriptions.first?.originalTransactionID)
            let settings = world.settings
            let keyPEM = try String(contentsOfFile: try #require(settings["APPSTORE_PRIVATE_KEY_FILE"]), encoding: .utf8)
            let roots = try AppleRootCertificates(pemOrDER: Array(try world.simulator.signingPKI().root.pem.utf8))
            let client = try AppStoreAPIClient(
                bundleID: RunningService.bundleID, issuerID: try #require(settings["APPSTORE_ISSUER_ID"]),
                keyID: try #require(settings["APPSTORE_KEY_ID"]), privateKeyPEM: keyPEM,
                productionURL: try #require(settings["APPSTORE_API_URL"]), sandboxURL: try #require(settings["APPSTORE_API_SANDBOX_URL"]),
                http: http, timeout: .seconds(10), verifier: SignedPayloadVerifier(roots: roots),
                retries: AppStoreAPIRetryOptions(backoffBase: .milliseconds(20)), logger: logger)
            try await body(RetentionWorld(world: world, http: http, client: client, originalTransactionID: originalTransactionID))
        } catch {
            try? await http.shutdown()
            await world.close()
            throw error
        }
        try await http.shutdown()
        await world.close()
    }

    /// The bytes of a (tiny) PNG file: what the simulator and the client check is the signature.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x42, count: 64)

    /// A control request to the simulator (`POST /control/...`) with a JSON body.
    func control(_ path: String, _ object: [String: Any]) async throws -> SimHTTPResponse {
        let url = try #require(URL(string: server.baseURL.absoluteString + path))
        return try await SimHTTPClient.send(
            "POST", to: url, headers: [("Content-Type", "application/json")],
            body: Array(try JSONSerialization.data(withJSONObject: object)))
    }

    /// Asks for the test's result until it is no longer `PENDING`, for at most `timeout`.
    func finishedResult(_ requestID: String, timeout: Duration = .seconds(60)) async throws -> RetentionPerformanceTestResult {
        let deadline = ContinuousClock.now + timeout
        while true {
            let result = try await client.retentionPerformanceTestResult(requestID: requestID)
            if result.outcome != .pending || ContinuousClock.now >= deadline { return result }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// Expects `call` to fail with Apple's `status` and `errorCode`.
func expectAppleRejection(
    _ status: Int, _ errorCode: Int, sourceLocation: SourceLocation = #_sourceLocation, _ call: () async throws -> Void
) async {
    do {
        try await call()
        Issue.record("expected HTTP \(status) errorCode \(errorCode), got success", sourceLocation: sourceLocation)
    } catch let error as AppStoreAPIError {
        guard case .rejected(_, let got, let code) = error, got == status, code == errorCode else {
            Issue.record("expected HTTP \(status) errorCode \(errorCode), got \(error)", sourceLocation: sourceLocation)
            return
        }
    } catch {
        Issue.record("expected HTTP \(status) errorCode \(errorCode), got \(error)", sourceLocation: sourceLocation)
    }
}
