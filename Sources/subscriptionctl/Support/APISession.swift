import AppStore
import AppStoreServerAPI
import AppStoreSignature
import Foundation
import HTTPClient
import Logging
import Settings
import SubscriptiondCore
import UseCases

/// What the App Store Server API commands share: subscriptiond's settings (read from the
/// same environment), one signature verifier and one client per app with an API key.
struct APISession {
    let settings: ServiceConfiguration
    let directory: AppStoreAPIDirectory
    let logger: Logger
    /// What Apple says, through this session's clients.
    let evidence: AppleEvidence

    /// Runs `body` with a session whose HTTP client is shut down afterwards.
    static func with<T>(concurrency: Int = 4, _ body: (APISession) async throws -> T) async throws -> T {
        let settings = try ServiceConfiguration.load(environment: ProcessInfo.processInfo.environment)
        var logger = Logger(label: "subscriptionctl.api")
        logger.logLevel = .warning
        let verifier = SignedPayloadVerifier(roots: try TrustAnchors.signedPayloads.load(settings.appleRootCertificates))
        let http = CurlHTTPClient(
            configuration: .init(maxConcurrentTransfers: concurrency, caBundlePath: settings.upstreamCABundle), logger: logger)
        do {
            let directory = try AppStoreAPIDirectory(configuration: settings, http: http, verifier: verifier, logger: logger)
            let receipts = ReceiptVerifier(
                http: http, productionURL: settings.verifyReceiptURL, sandboxURL: settings.verifyReceiptSandboxURL,
                timeout: settings.verifyTimeout)
            let session = APISession(
                settings: settings, directory: directory, logger: logger, evidence: AppleEvidence(receipts: receipts, api: directory))
            let result = try await body(session)
            try? await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// The client of `app`, or of the only app with an API key when none is named.
    func client(app: String?) throws -> AppStoreAPIClient {
        if let app {
            guard let client = directory.client(bundleID: app) else {
                throw CommandFailure.usage(
                    "\(app) has no App Store Server API key: set APPSTORE_ISSUER_ID, APPSTORE_KEY_ID and APPSTORE_PRIVATE_KEY_FILE (or issuer_id, key_id, private_key_file in SUBSCRIPTIOND_CONFIG)"
                )
            }
            return client
        }
        switch directory.bundleIDs.count {
        case 1:
            guard let only = directory.bundleIDs.first, let client = directory.client(bundleID: only) else { fallthrough }
            return client
        case 0:
            throw CommandFailure.usage(
                "no app has an App Store Server API key: set APPSTORE_ISSUER_ID, APPSTORE_KEY_ID and APPSTORE_PRIVATE_KEY_FILE")
        default:
            throw CommandFailure.usage("several apps have API keys (\(directory.bundleIDs.joined(separator: ", "))): name one with --app")
        }
    }
}

/// `Sandbox` or `Production`, as an option value.
enum EnvironmentOption {
    static func parse(_ text: String) throws -> AppStoreEnvironment {
        guard let environment = AppStoreEnvironment(appleValue: text) else {
            throw CommandFailure.usage("--environment must be Sandbox or Production, got '\(text)'")
        }
        return environment
    }
}
