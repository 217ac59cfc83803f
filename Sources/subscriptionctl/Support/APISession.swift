import AppStore
import AppStoreServerAPI
import AppStoreSignature
import Composition
import Foundation
import Logging
import Settings
import UseCases

/// What the App Store Server API commands share: subscriptiond's settings (read from the
/// same environment) and the upstream clients and verifier built from them exactly as
/// subscriptiond builds its own (`AppleUpstreams`), online checks included.
struct APISession {
    let settings: ServiceConfiguration
    let directory: AppStoreAPIDirectory
    let logger: Logger
    /// What Apple says, through this session's clients.
    let evidence: AppleEvidence
    /// Checks an app receipt's PKCS#7 signature before its transaction id is looked up.
    let receiptProof: AppReceiptVerifier

    /// Runs `body` with a session whose clients are shut down afterwards; `concurrency` is
    /// how many transfers to Apple the command runs at once.
    static func with<T>(concurrency: Int = 4, _ body: (APISession) async throws -> T) async throws -> T {
        let settings = try ServiceConfiguration.load(environment: ProcessInfo.processInfo.environment)
        var logger = Logger(label: "subscriptionctl.api")
        logger.logLevel = .warning
        let apple = try await AppleUpstreams.open(configuration: settings, logger: logger, transfers: concurrency)
        do {
            let session = APISession(
                settings: settings, directory: apple.appStoreAPI, logger: logger, evidence: apple.evidence,
                receiptProof: apple.receiptProof)
            let result = try await body(session)
            await apple.shutdown()
            return result
        } catch {
            await apple.shutdown()
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
