import AppStoreServerAPI
import AppStoreSignature
import HTTPClient
import Logging

extension AppStoreAPIDirectory {
    /// Builds the clients; every signed item they return is verified with `verifier`.
    public init(configuration: ServiceConfiguration, http: CurlHTTPClient, verifier: SignedPayloadVerifier, logger: Logger) throws {
        var clients: [String: AppStoreAPIClient] = [:]
        for bundleID in configuration.apps.bundleIDs {
            guard let key = configuration.apps.app(bundleID: bundleID)?.apiKey else { continue }
            do {
                clients[bundleID] = try AppStoreAPIClient(
                    bundleID: bundleID, issuerID: key.issuerID, keyID: key.keyID, privateKeyPEM: key.privateKey.revealed,
                    productionURL: configuration.appStoreAPIURL, sandboxURL: configuration.appStoreAPISandboxURL,
                    http: http, timeout: configuration.verifyTimeout, verifier: verifier, logger: logger)
            } catch {
                throw ConfigurationError(
                    "APPSTORE_PRIVATE_KEY_FILE", "names \(key.privateKeyFile), which cannot sign App Store Server API tokens")
            }
        }
        self.init(clients: clients)
    }
}
