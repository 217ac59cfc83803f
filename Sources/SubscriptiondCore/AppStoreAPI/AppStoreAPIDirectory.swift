import AppStoreSignature
import HTTPClient
import Logging

/// One App Store Server API client per configured app that has an API key.
public struct AppStoreAPIDirectory: Sendable {
    private let clients: [String: AppStoreAPIClient]

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
                throw ConfigurationError("APPSTORE_PRIVATE_KEY_FILE", "names \(key.privateKeyFile), which cannot sign App Store Server API tokens")
            }
        }
        self.clients = clients
    }

    private init(clients: [String: AppStoreAPIClient]) {
        self.clients = clients
    }

    /// The same apps' clients over `http`, sharing their tokens and rate limiters
    /// (``AppStoreAPIClient/over(_:)``).
    public func over(_ http: CurlHTTPClient) -> AppStoreAPIDirectory {
        AppStoreAPIDirectory(clients: clients.mapValues { $0.over(http) })
    }

    /// The client of one app, if it has an API key.
    public func client(bundleID: String) -> AppStoreAPIClient? { clients[bundleID] }

    /// The bundle ids of the apps with an API key, sorted.
    public var bundleIDs: [String] { clients.keys.sorted() }
}
